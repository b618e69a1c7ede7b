import { createHash } from 'node:crypto';
import { episodeIdFor, type Conversation } from '../domain/conversation.js';
import { errorMessage, isPieError, PieError } from '../domain/errors.js';
import type { EntityState, TransitionKind } from '../domain/world.js';
import type { ImportEvent } from '../import/types.js';
import { indexEmbeddings } from '../ingest/embed-index.js';
import { runImportStage } from '../ingest/import-stage.js';
import { runIngest } from '../ingest/pipeline.js';
import type { Clock } from '../ports/clock.js';
import type { WorldStore } from '../ports/world-store.js';
import type { Extractor } from '../extract/types.js';
import type { Embedder } from '../ports/embedder.js';
import type { MatchVerifier } from '../resolve/resolver.js';

/** About 25,000 tokens: a long note or a pasted conversation; a whole export goes through `pie ingest`. */
export const MAX_EPISODE_CHARS = 100_000;
const MAX_BATCH_TOKENS = 12_000;
/** How long a text waits for another extraction on the same database before it answers (stored, not extracted). */
export const TEXT_LEASE_WAIT_MS = 30_000;

export interface TextIngestResult {
  episodeId: string;
  /** ingested: new (or retried) and extracted; unchanged: this content was ingested before; failed: stored, not extracted. */
  outcome: 'ingested' | 'unchanged' | 'failed';
  title: string;
  time: number;
  extractor: string;
  failure: string | null;
  /** Writes by kind ("entity.insert", "transition.insert", …) of this ingestion. */
  mutations: Record<string, number>;
  /** Entities the episode mentions; `isNew` when it created them. */
  entities: { id: string; name: string; type: string; isNew: boolean }[];
  /** State changes recorded from the episode (creations left out). */
  changes: {
    entity: { id: string; name: string; type: string };
    kind: TransitionKind;
    summary: string;
    from: EntityState | null;
    to: EntityState;
  }[];
}

/**
 * One text (a note, a piece of a live conversation) into the world model through the same stages as `pie ingest`:
 * the import stage stores it as an episode of source "manual", then the extraction pipeline extracts, resolves and
 * applies it. The episode id is a hash of the content, so sending the same text again changes nothing; the time is
 * now (the configured clock). Calls on one store run one after the other.
 */
export async function ingestText(input: {
  store: WorldStore;
  clock: Clock;
  tz: string;
  newId: () => string;
  content: string;
  /** Who sent it (e.g. "claude-desktop"); kept in the episode's metadata. */
  source: string;
  extraction: EpisodeExtraction;
  /** How long to wait for another extraction on the same database (default {@link TEXT_LEASE_WAIT_MS}). */
  leaseWaitMs?: number;
}): Promise<TextIngestResult> {
  const text = input.content.trim();
  if (text === '') throw new PieError('INVALID_ARGUMENT', 'The content is empty; send the text to remember.');
  if (text.length > MAX_EPISODE_CHARS) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `The content is ${text.length.toLocaleString('en-US')} characters; send at most ${MAX_EPISODE_CHARS.toLocaleString('en-US')} at a time (split it into parts, or import the file with pie ingest).`,
    );
  }
  return serialize(input.store, () => ingestOne({ ...input, text }));
}

/** The extraction an ingested text goes through (what createExtraction builds). */
export interface EpisodeExtraction {
  extractor: Extractor;
  verifier?: MatchVerifier | undefined;
  embedder?: Embedder | undefined;
  /** "offline rules" or "openai:gpt-5-mini (from PIE_LLM)". */
  description: string;
}

async function ingestOne(input: Parameters<typeof ingestText>[0] & { text: string }): Promise<TextIngestResult> {
  const { store, clock, text, extraction } = input;
  const externalId = createHash('sha256').update(text).digest('hex').slice(0, 32);
  const id = episodeIdFor({ source: 'manual', externalId });
  const existing = await store.episodes.get(id);
  const base = { episodeId: id, extractor: extraction.description, failure: null, mutations: {} };
  if (existing?.extraction === 'extracted') {
    return {
      ...base,
      outcome: 'unchanged',
      title: existing.title,
      time: existing.createdAt,
      ...(await effects(store, id)),
    };
  }
  // A retry (the earlier extraction failed) keeps the first time, so the stored content is the same.
  const time = existing?.createdAt ?? clock.now();
  const conversation: Conversation = {
    source: 'manual',
    externalId,
    title: titleOf(text),
    createdAt: time,
    updatedAt: time,
    model: null,
    turns: [{ role: 'user', text, time }],
    meta: { via: input.source },
  };
  await runImportStage({ store, events: one(conversation), clock, tz: input.tz, dryRun: false });
  const summary = await runIngest({
    lease: { purpose: `ingest from ${input.source}`, waitMs: input.leaseWaitMs ?? TEXT_LEASE_WAIT_MS },
    store,
    extractor: extraction.extractor,
    clock,
    newId: input.newId,
    source: `mcp:${input.source}`,
    tz: input.tz,
    since: time,
    maxBatchTokens: MAX_BATCH_TOKENS,
    concurrency: 1,
    verifier: extraction.verifier,
    embedder: extraction.embedder,
  }).catch((error: unknown) => {
    // Another extraction holds the database (the lease's refusal says who): the text is stored, not extracted.
    const running = isPieError(error, 'CONFLICT') ? error.details?.running : undefined;
    if (typeof running !== 'string') throw error;
    throw new PieError(
      'CONFLICT',
      `The text is stored but not extracted yet: another ${running}; run again when it has finished. (Sending it again stores nothing twice; pie ingest also extracts it.)`,
      { cause: error, details: { storedEpisodeId: id } },
    );
  });
  const stored = await store.episodes.get(id);
  const failed = stored?.extraction !== 'extracted';
  if (!failed && extraction.embedder) {
    // Vectors for the retrieval lane, as `pie ingest` writes them; a failure leaves them for the next ingest.
    await indexEmbeddings({ store, embedder: extraction.embedder, clock }).catch((error: unknown) => {
      summary.failures.push({ batchId: 'vectors', reason: `embedding failed: ${errorMessage(error)}` });
    });
  }
  return {
    ...base,
    outcome: failed ? 'failed' : 'ingested',
    title: conversation.title,
    time,
    failure: failed ? (summary.failures[0]?.reason ?? `the episode is ${stored?.extraction ?? 'missing'}`) : null,
    mutations: summary.mutations,
    ...(await effects(store, id)),
  };
}

/** The entities an episode mentions and the changes recorded from it. */
async function effects(store: WorldStore, episodeId: string): Promise<Pick<TextIngestResult, 'entities' | 'changes'>> {
  const mentions = await store.mentions.forEpisode(episodeId);
  const entities = await store.entities.getMany([...new Set(mentions.map((m) => m.entityId))]);
  const changes: TextIngestResult['changes'] = [];
  for (const e of entities) {
    for (const t of await store.transitions.forEntity(e.id)) {
      if (t.episodeId !== episodeId || t.kind === 'creation') continue;
      changes.push({
        entity: { id: e.id, name: e.name, type: e.type },
        kind: t.kind,
        summary: t.summary,
        from: t.fromState,
        to: t.toState,
      });
    }
  }
  return {
    entities: entities.map((e) => ({ id: e.id, name: e.name, type: e.type, isNew: e.createdFrom === episodeId })),
    changes,
  };
}

/** The first line, cut to a title's length at a word boundary. */
function titleOf(text: string): string {
  const first = (text.split('\n').find((l) => l.trim() !== '') ?? text).replace(/\s+/g, ' ').trim();
  if (first.length <= 80) return first;
  const cut = first.slice(0, 80);
  const space = cut.lastIndexOf(' ');
  return `${(space > 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

async function* one(conversation: Conversation): AsyncIterable<ImportEvent> {
  yield { kind: 'conversation', conversation, dropped: {} };
}

const queues = new WeakMap<WorldStore, Promise<unknown>>();

/** Runs `fn` after every earlier call for the same store has settled (planning reads the pending episodes). */
function serialize<T>(store: WorldStore, fn: () => Promise<T>): Promise<T> {
  const previous = queues.get(store) ?? Promise.resolve();
  const next = previous.then(fn, fn);
  queues.set(
    store,
    next.catch(() => undefined),
  );
  return next;
}
