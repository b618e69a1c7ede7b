import { episodeIdFor, type Conversation } from '../domain/conversation.js';
import type { DropCounts, ImportEvent } from '../import/types.js';
import type { Clock } from '../ports/clock.js';
import type { UpsertOutcome, WorldStore } from '../ports/world-store.js';
import { forgottenKey } from '../privacy/forgotten-key.js';
import { conversationHash } from './content-hash.js';
import { groupByLocalDay } from './day-groups.js';

export interface ImportProgress {
  conversations: number;
  turns: number;
  skipped: number;
}

export interface ImportIssue {
  ref: string;
  reason: string;
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

/**
 * The import stage: normalized conversations become stored episodes. Writes happen in chunked transactions, so an
 * interrupted import keeps every finished chunk and a re-run skips what is already stored (outcome "unchanged").
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
    skipped: [],
    warnings: [],
    dropped: {},
    forgotten: 0,
    firstAt: null,
    lastAt: null,
  };
  const dayItems: DayItem[] = [];
  let pending: Pending[] = [];

  const count = (conversation: Conversation, dropped: Pending['dropped']): void => {
    addCounts(report.dropped, dropped);
    report.conversations += 1;
    report.turns += conversation.turns.length;
    report.firstAt = minOrSelf(report.firstAt, conversation.createdAt);
    report.lastAt = maxOrSelf(report.lastAt, conversation.createdAt);
  };

  // A chunk is checked with two reads (which were forgotten, which are stored unchanged) before its one write
  // transaction, which then holds only what is new or changed: on a server store that is two round trips for a
  // chunk of a re-import instead of several for each conversation.
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
      (await store.episodes.getMany(kept.map(({ conversation }) => episodeIdFor(conversation)))).map((e) => [
        e.id,
        e.contentHash,
      ]),
    );
    const changed = kept.filter(({ conversation, hash }) => stored.get(episodeIdFor(conversation)) !== hash);
    report.outcomes.unchanged += kept.length - changed.length;
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
      const hash = conversationHash(conversation);
      const outcome = await predictOutcome(store, conversation, hash);
      report.outcomes[outcome] += 1;
      if (outcome !== 'unchanged') options.onChange?.(conversation);
      dayItems.push({
        id: episodeIdFor(conversation),
        time: conversation.createdAt,
        title: conversation.title,
        turns: conversation.turns.length,
        chars: conversation.turns.reduce((n, t) => n + t.text.length, 0),
        outcome,
      });
    }
    options.onProgress?.({ conversations: report.conversations, turns: report.turns, skipped: report.skipped.length });
  }
  await flush();
  if (dryRun) report.days = summarizeDays(dayItems, options.tz);
  return report;
}

async function predictOutcome(store: WorldStore, conversation: Conversation, hash: string): Promise<UpsertOutcome> {
  const existing = await store.episodes.get(episodeIdFor(conversation));
  if (!existing) return 'inserted';
  return existing.contentHash === hash ? 'unchanged' : 'updated';
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
