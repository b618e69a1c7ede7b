import type { Conversation } from '../domain/conversation.js';
import type {
  Entity,
  EntityState,
  Episode,
  ExtractionStatus,
  Fact,
  Period,
  Procedure,
  Relationship,
  StoredTurn,
  Transition,
  WorldStats,
} from '../domain/world.js';

/**
 * The storage port. Core code talks to this interface only; adapters (SQLite today) implement it and prove
 * themselves against the shared contract suite in test/contracts. All methods are async so that a networked
 * adapter (PostgreSQL) fits the same shape.
 */
export interface WorldStore {
  readonly episodes: EpisodeRepo;
  readonly entities: EntityRepo;
  readonly transitions: TransitionRepo;
  readonly facts: FactRepo;
  readonly relationships: RelationshipRepo;
  readonly periods: PeriodRepo;
  readonly procedures: ProcedureRepo;
  readonly runs: IngestRunRepo;
  readonly llmCache: LlmCacheRepo;
  readonly journal: JournalRepo;
  readonly maintenance: MaintenanceLogRepo;
  readonly search: SearchRepo;

  /**
   * Run `fn` atomically: either everything it wrote is committed or nothing is. Inside `fn`, use the `tx` store
   * it receives; other callers wait until the transaction ends. Nested calls on `tx` join the same transaction.
   */
  transaction<T>(fn: (tx: WorldStore) => Promise<T>): Promise<T>;
  stats(): Promise<WorldStats>;
  info(): StoreInfo;
  close(): Promise<void>;
}

export interface StoreInfo {
  adapter: string;
  location: string;
  schemaVersion: number;
}

// ---------------------------------------------------------------- episodes

export type UpsertOutcome = 'inserted' | 'updated' | 'unchanged';

export interface EpisodeUpsert {
  conversation: Conversation;
  /** Stable hash of the conversation's content; a changed hash replaces the turns and marks it for re-extraction. */
  contentHash: string;
  recordedAt: number;
}

export interface EpisodeListQuery {
  extraction?: ExtractionStatus;
  source?: string;
  since?: number;
  until?: number;
  limit?: number;
  offset?: number;
}

export interface EpisodeRepo {
  upsert(input: EpisodeUpsert): Promise<{ id: string; outcome: UpsertOutcome }>;
  get(id: string): Promise<Episode | null>;
  /** Chronological (createdAt, then id). */
  list(query?: EpisodeListQuery): Promise<Episode[]>;
  count(query?: EpisodeListQuery): Promise<number>;
  turns(episodeId: string): Promise<StoredTurn[]>;
  setExtraction(input: { ids: string[]; status: ExtractionStatus }): Promise<void>;
  annotate(input: {
    id: string;
    summary?: string | null;
    significance?: number | null;
    userState?: string | null;
  }): Promise<void>;
}

// ---------------------------------------------------------------- world model

export interface EntityInsert {
  id: string;
  type: string;
  name: string;
  state: EntityState;
  firstSeen: number;
  lastSeen: number;
  createdFrom: string | null;
  recordedAt: number;
  importance?: number;
  protected?: boolean;
  meta?: Record<string, unknown>;
}

export interface EntityPatch {
  type?: string;
  name?: string;
  state?: EntityState;
  firstSeen?: number;
  lastSeen?: number;
  importance?: number;
  tier?: Entity['tier'];
  accessCount?: number;
  meta?: Record<string, unknown>;
  updatedAt: number;
}

export interface EntityListQuery {
  type?: string;
  tier?: Entity['tier'];
  limit?: number;
  offset?: number;
  orderBy?: 'importance' | 'lastSeen' | 'name';
}

export interface EntityRepo {
  insert(input: EntityInsert): Promise<Entity>;
  /** Applies the patch and bumps the version. */
  update(id: string, patch: EntityPatch): Promise<Entity>;
  get(id: string): Promise<Entity | null>;
  /** Entities whose normalized name or normalized alias equals `normalized`. */
  findByKey(normalized: string): Promise<Entity[]>;
  list(query?: EntityListQuery): Promise<Entity[]>;
  count(query?: Pick<EntityListQuery, 'type' | 'tier'>): Promise<number>;
  addAlias(input: { entityId: string; alias: string; normalized: string; recordedAt: number }): Promise<void>;
  incrementAccess(ids: string[]): Promise<void>;
}

export interface TransitionRepo {
  insert(input: Transition): Promise<void>;
  forEntity(entityId: string): Promise<Transition[]>;
  /** Chronological by event time. */
  list(query?: { since?: number; until?: number; kind?: Transition['kind']; limit?: number }): Promise<Transition[]>;
  markResolved(input: { id: string; resolvedBy: string }): Promise<void>;
}

export interface FactRepo {
  insert(input: Fact): Promise<void>;
  /** Facts with no validTo. */
  current(entityId: string): Promise<Fact[]>;
  history(entityId: string, attribute?: string): Promise<Fact[]>;
  /** Closes a fact: sets validTo and supersededBy. */
  close(input: { id: string; validTo: number; supersededBy: string | null }): Promise<void>;
}

export interface RelationshipRepo {
  insert(input: Relationship): Promise<void>;
  /** Relationships touching an entity (either end); current only unless `includeEnded`. */
  forEntity(entityId: string, options?: { includeEnded?: boolean }): Promise<Relationship[]>;
  findOpen(input: { sourceId: string; targetId: string; type: string }): Promise<Relationship | null>;
  close(input: { id: string; validTo: number }): Promise<void>;
}

export interface PeriodRepo {
  upsert(input: Period): Promise<void>;
  get(entityId: string): Promise<Period | null>;
  /** Ordered by start. */
  list(): Promise<Period[]>;
}

export interface ProcedureRepo {
  upsert(input: Procedure): Promise<void>;
  list(query?: { domain?: string }): Promise<Procedure[]>;
}

// ---------------------------------------------------------------- ingestion bookkeeping

export type RunStatus = 'running' | 'completed' | 'failed' | 'interrupted' | 'budget_exhausted';
export type BatchStatus = 'pending' | 'done' | 'failed';

export interface IngestRun {
  id: string;
  startedAt: number;
  finishedAt: number | null;
  status: RunStatus;
  source: string;
  options: Record<string, unknown>;
  counters: Record<string, number>;
}

export interface IngestBatch {
  runId: string;
  key: string;
  status: BatchStatus;
  episodeIds: string[];
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  error: string | null;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface IngestRunRepo {
  start(input: Omit<IngestRun, 'finishedAt' | 'counters'> & { counters?: Record<string, number> }): Promise<void>;
  finish(input: { id: string; status: RunStatus; finishedAt: number; counters: Record<string, number> }): Promise<void>;
  get(id: string): Promise<IngestRun | null>;
  list(limit?: number): Promise<IngestRun[]>;
  /** Insert or replace a batch record by (runId, key). */
  saveBatch(batch: IngestBatch): Promise<void>;
  batches(runId: string): Promise<IngestBatch[]>;
}

export interface LlmCacheEntry {
  key: string;
  model: string;
  prompt: string;
  response: string;
  tokensIn: number;
  tokensOut: number;
  createdAt: number;
}

export interface LlmCacheRepo {
  get(key: string): Promise<LlmCacheEntry | null>;
  put(entry: LlmCacheEntry): Promise<void>;
}

export interface JournalEntry {
  runId: string;
  seq: number;
  table: string;
  rowId: string;
  op: 'insert' | 'update' | 'delete';
  before: unknown;
  after: unknown;
  at: number;
}

export interface JournalRepo {
  append(entry: JournalEntry): Promise<void>;
  forRun(runId: string): Promise<JournalEntry[]>;
}

export interface MaintenanceLogEntry {
  id: string;
  kind: string;
  startedAt: number;
  finishedAt: number | null;
  status: string;
  report: Record<string, unknown>;
}

export interface MaintenanceLogRepo {
  append(entry: MaintenanceLogEntry): Promise<void>;
  update(input: { id: string; finishedAt: number; status: string; report: Record<string, unknown> }): Promise<void>;
  list(limit?: number): Promise<MaintenanceLogEntry[]>;
}

// ---------------------------------------------------------------- search

export interface TurnHit {
  kind: 'turn';
  episodeId: string;
  episodeTitle: string;
  episodeTime: number;
  seq: number;
  role: 'user' | 'assistant';
  time: number | null;
  /** Text around the match with the matched terms wrapped in the markers given in the query. */
  snippet: string;
  /** BM25 score, lower is better (SQLite's convention); use `rank` for ordering. */
  score: number;
}

export interface EpisodeHit {
  kind: 'episode';
  episodeId: string;
  title: string;
  time: number;
  snippet: string;
  score: number;
}

export interface SearchQuery {
  text: string;
  limit?: number;
  /** Markers put around matched terms in snippets; default « and ». */
  highlight?: [string, string];
}

export interface SearchRepo {
  /** Full-text search over turn text (BM25). The text is user input: the adapter must escape it safely. */
  turns(query: SearchQuery): Promise<TurnHit[]>;
  /** Full-text search over episode titles and summaries. */
  episodes(query: SearchQuery): Promise<EpisodeHit[]>;
}
