import { episodeIdFor, type Conversation } from '../domain/conversation.js';
import type { DropCounts, ImportEvent } from '../import/types.js';
import type { Episode } from '../domain/world.js';
import type { Clock } from '../ports/clock.js';
import type { UpsertOutcome, WorldStore } from '../ports/world-store.js';
import { forgottenKey } from '../privacy/forgotten-key.js';
import { conversationHash } from './content-hash.js';
import { groupByLocalDay } from './day-groups.js';
import { importVerdict, type ImportVerdict } from './stored-version.js';

export interface ImportProgress {
  conversations: number;
  turns: number;
  skipped: number;
}

export interface ImportIssue {
  ref: string;
  reason: string;
}

/** A conversation left as stored because the stored version is newer than the one imported (an older export). */
export interface KeptNewer {
  id: string;
  title: string;
  /** The update times (epoch ms) of the stored version and of the one imported. */
  storedAt: number;
  importedAt: number;
}

export interface DryRunDay {
  day: string;
  conversations: number;
  turns: number;
  chars: number;
  outcomes: Record<UpsertOutcome, number>;
  titles: string[];
}

export interface ImportReport {
  dryRun: boolean;
  conversations: number;
  turns: number;
  outcomes: Record<UpsertOutcome, number>;
  /**
   * Conversations whose stored version is newer than this import's (sources with update times of their own, see
   * stored-version.ts): nothing is written for them. Counted in `conversations`, in no outcome.
   */
  keptNewer: KeptNewer[];
  skipped: ImportIssue[];
  warnings: ImportIssue[];
  dropped: DropCounts;
  /** Conversations left out because the person asked PIE to forget them (`pie forget`), unless included. */
  forgotten: number;
  firstAt: number | null;
  lastAt: number | null;
  /** Only for dry runs: what would be imported, grouped by local day. */
  days?: DryRunDay[];
}

export interface ImportStageOptions {
  store: WorldStore;
  events: AsyncIterable<ImportEvent>;
  clock: Clock;
  tz: string;
  dryRun: boolean;
  onProgress?: (progress: ImportProgress) => void;
  /** Dry runs: called with each conversation that would be inserted or updated. */
  onChange?: (conversation: Conversation) => void;
  /** Conversations written per transaction. */
  chunkSize?: number;
  /** Import conversations forgotten earlier too, and stop leaving them out of later imports. */
  includeForgotten?: boolean;
}

interface Pending {
  conversation: Conversation;
  dropped: Parameters<typeof addCounts>[1];
}

interface DayItem {
  id: string;
  time: number;
  title: string;
  turns: number;
  chars: number;
  outcome: UpsertOutcome;
}

const OUTCOME_OF: Record<Exclude<ImportVerdict, 'keep-stored'>, UpsertOutcome> = {
  insert: 'inserted',
  update: 'updated',
  unchanged: 'unchanged',
};

/**
 * The import stage: normalized conversations become stored episodes. Writes happen in chunked transactions, so an
 * interrupted import keeps every finished chunk and a re-run skips what is already stored (outcome "unchanged").
 * An older version of a stored conversation (an older export imported after a newer one) leaves the stored one as it
 * is and is reported in `keptNewer` (importVerdict).
 * A dry run writes nothing and reports what would change, grouped by local day.
 */
export async function runImportStage(options: ImportStageOptions): Promise<ImportReport> {
  const { store, clock, dryRun } = options;
  const chunkSize = options.chunkSize ?? 200;
  const report: ImportReport = {
    dryRun,
    conversations: 0,
    turns: 0,
    outcomes: { inserted: 0, updated: 0, unchanged: 0 },
    keptNewer: [],
    skipped: [],
    warnings: [],
    dropped: {},
    forgotten: 0,
    firstAt: null,
    lastAt: null,
  };
  const dayItems: DayItem[] = [];
  /** Counts a verdict that writes nothing; true when the conversation is to be written. */
  const decided = (
    conversation: Conversation,
    verdict: ImportVerdict,
    stored: Episode | null,
  ): verdict is 'insert' | 'update' => {
    if (verdict === 'unchanged') report.outcomes.unchanged += 1;
    if (verdict === 'keep-stored' && stored) {
      report.keptNewer.push({
        id: stored.id,
        title: stored.title,
        storedAt: stored.updatedAt,
        importedAt: conversation.updatedAt,
      });
    }
    return verdict === 'insert' || verdict === 'update';
  };
  let pending: Pending[] = [];

  const count = (conversation: Conversation, dropped: Pending['dropped']): void => {
    addCounts(report.dropped, dropped);
    report.conversations += 1;
    report.turns += conversation.turns.length;
    report.firstAt = minOrSelf(report.firstAt, conversation.createdAt);
    report.lastAt = maxOrSelf(report.lastAt, conversation.createdAt);
  };

  // A chunk is checked with two reads (which were forgotten, which are stored unchanged or newer) before its one
  // write transaction, which then holds only what is new or changed: on a server store that is two round trips for
  // a chunk of a re-import instead of several for each conversation.
  const flush = async (): Promise<void> => {
    if (pending.length === 0) return;
    const chunk = pending;
    pending = [];
    const keys = chunk.map(({ conversation }) => forgottenKey(episodeIdFor(conversation)));
    const forgotten = new Set(await store.forget.forgottenAmong(keys));
    const kept: { conversation: Conversation; hash: string }[] = [];
    const cleared: string[] = [];
    chunk.forEach(({ conversation, dropped }, i) => {
      const key = keys[i] as string;
      // A conversation the person asked PIE to forget stays out of every later import of the same export.
      if (forgotten.has(key)) {
        if (!options.includeForgotten) {
          report.forgotten += 1;
          return;
        }
        cleared.push(key);
      }
      count(conversation, dropped);
      kept.push({ conversation, hash: conversationHash(conversation) });
    });
    if (cleared.length > 0) await store.forget.clearForgotten(cleared);
    const stored = new Map(
      (await store.episodes.getMany(kept.map(({ conversation }) => episodeIdFor(conversation)))).map((e) => [e.id, e]),
    );
    const changed = kept.filter(({ conversation, hash }) => {
      const episode = stored.get(episodeIdFor(conversation)) ?? null;
      return decided(conversation, importVerdict({ incoming: conversation, hash, stored: episode }), episode);
    });
    if (changed.length === 0) return;
    const recordedAt = clock.now();
    await store.transaction(async (tx) => {
      for (const { conversation, hash } of changed) {
        const { outcome } = await tx.episodes.upsert({ conversation, contentHash: hash, recordedAt });
        report.outcomes[outcome] += 1;
      }
    });
  };

  for await (const event of options.events) {
    if (event.kind === 'skipped') {
      report.skipped.push({ ref: event.ref, reason: event.reason });
      continue;
    }
    if (event.kind === 'warning') {
      report.warnings.push({ ref: event.ref, reason: event.message });
      continue;
    }
    const { conversation } = event;
    if (!dryRun) {
      pending.push({ conversation, dropped: event.dropped });
      if (pending.length >= chunkSize) await flush();
    } else {
      const key = forgottenKey(episodeIdFor(conversation));
      if ((await store.forget.forgottenAmong([key])).length > 0 && !options.includeForgotten) {
        report.forgotten += 1;
        continue;
      }
      count(conversation, event.dropped);
      const stored = await store.episodes.get(episodeIdFor(conversation));
      const verdict = importVerdict({ incoming: conversation, hash: conversationHash(conversation), stored });
      if (decided(conversation, verdict, stored)) {
        report.outcomes[OUTCOME_OF[verdict]] += 1;
        options.onChange?.(conversation);
      }
      // A conversation kept as stored would not be written: it is in no day's plan.
      if (verdict !== 'keep-stored') {
        dayItems.push({
          id: episodeIdFor(conversation),
          time: conversation.createdAt,
          title: conversation.title,
          turns: conversation.turns.length,
          chars: conversation.turns.reduce((n, t) => n + t.text.length, 0),
          outcome: OUTCOME_OF[verdict],
        });
      }
    }
    options.onProgress?.({ conversations: report.conversations, turns: report.turns, skipped: report.skipped.length });
  }
  await flush();
  if (dryRun) report.days = summarizeDays(dayItems, options.tz);
  return report;
}

function summarizeDays(items: DayItem[], tz: string): DryRunDay[] {
  return groupByLocalDay({ items, tz }).map(({ day, items: dayList }) => {
    const outcomes: Record<UpsertOutcome, number> = { inserted: 0, updated: 0, unchanged: 0 };
    for (const item of dayList) outcomes[item.outcome] += 1;
    return {
      day,
      conversations: dayList.length,
      turns: dayList.reduce((n, i) => n + i.turns, 0),
      chars: dayList.reduce((n, i) => n + i.chars, 0),
      outcomes,
      titles: dayList.map((i) => i.title),
    };
  });
}

function addCounts(into: DropCounts, from: DropCounts): void {
  for (const [kind, n] of Object.entries(from)) into[kind] = (into[kind] ?? 0) + n;
}

function minOrSelf(a: number | null, b: number): number {
  return a === null ? b : Math.min(a, b);
}

function maxOrSelf(a: number | null, b: number): number {
  return a === null ? b : Math.max(a, b);
}
