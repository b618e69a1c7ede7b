import type { DumpStore } from './dump-store.js';
import type { ForgetStore } from './forget-store.js';
import type { InsightRepo } from './insight-store.js';
import type { LeaseRepo } from './lease-store.js';
import type { MaintenanceStore } from './maintenance-store.js';
import type { PersonalBenchRepo } from './personal-bench-store.js';
import type { PyramidStore } from './pyramid-store.js';
import type { SleepTaskRepo } from './sleep-task-store.js';
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
  StateValue,
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
  readonly mentions: MentionRepo;
  readonly periods: PeriodRepo;
  readonly procedures: ProcedureRepo;
  readonly runs: IngestRunRepo;
  readonly llmCache: LlmCacheRepo;
  readonly journal: JournalRepo;
  readonly maintenance: MaintenanceLogRepo;
  readonly search: SearchRepo;
  readonly embeddings: EmbeddingRepo;
  /** Raw row access and the entity graph, for the maintenance (sleep) cycle and its undo journal. */
  readonly upkeep: MaintenanceStore;
  /** Raw rows of every data table, for backup and restore. */
  readonly dump: DumpStore;
  /** Observations, mental models and tiered summaries (pyramid memory). */
  readonly pyramid: PyramidStore;
  /** Work items left for the next sleep cycle. */
  readonly tasks: SleepTaskRepo;
  /** Insights from dreaming (read only; the sleep cycle writes them through `upkeep`). */
  readonly insights: InsightRepo;
  /** Claims on work shared by every process on this database (one extraction at a time). */
  readonly leases: LeaseRepo;
  /** Forgetting on request: what hangs off what a person asks to forget, its removal, and compaction. */
  readonly forget: ForgetStore;
  /** The personal benchmark's question set and run figures (`pie bench personal`). */
  readonly personalBench: PersonalBenchRepo;

  /**
   * Run `fn` atomically: either everything it wrote is committed or nothing is; when `fn` throws, everything is
   * rolled back and the error is rethrown unchanged. Inside `fn`, use the `tx` store it receives; other callers of
   * this store wait until the transaction ends (transactions on one store run one after the other). `tx` must not
   * be used after `fn` has settled. Nested `tx.transaction()` calls run inside the same transaction as a savepoint:
   * if the inner callback throws, only its writes are undone.
   */
  transaction<T>(fn: (tx: WorldStore) => Promise<T>): Promise<T>;
  stats(): Promise<WorldStats>;
  /**
   * A token that stays the same while nothing in the memory is written and changes when anything may have been:
   * writes through this store, another connection or another process (reads never change it). Compare for
   * equality only. It keeps work made from the whole memory (a sleep plan) for as long as it is still the memory's.
   * It may change with nothing visible changed (a rolled-back write; on PostgreSQL a write anywhere on the
   * server), never the other way round.
   */
  revision(): Promise<string>;
  info(): StoreInfo;
  /** Waits for a running transaction, then releases the database. Idempotent; only the root store can close. */
  close(): Promise<void>;
}

export interface StoreInfo {
  adapter: string;
  /** Where the memory is, safe to print (a file path, or a server URL without credentials). */
  location: string;
  schemaVersion: number;
  /** How vector similarity runs, when the adapter says (PostgreSQL: pgvector, or an exact scan in PIE). */
  vectors?: 'pgvector' | 'exact scan';
  /** The same in words for people (`pie stats`): "pgvector HNSW", or "exact scan (…why…)". */
  vectorSearch?: string;
}

// ---------------------------------------------------------------- episodes

export type UpsertOutcome = 'inserted' | 'updated' | 'unchanged';

export interface EpisodeUpsert {
  conversation: Conversation;
  /** Stable hash of the conversation's content; a changed hash replaces the turns and marks it for re-extraction. */
  contentHash: string;
  recordedAt: number;
  /**
   * The episode id, when it is fixed elsewhere (bare episodes that `pie apply` creates for ids named in a batch).
   * Default: episodeIdFor(conversation).
   */
  id?: string;
}

export interface EpisodeListQuery {
  extraction?: ExtractionStatus;
  source?: string;
  /** createdAt >= since */
  since?: number;
  /** createdAt < until */
  until?: number;
  limit?: number;
  offset?: number;
  /** 'asc' (default): oldest first; 'desc': newest first (createdAt, then id, both descending). */
  order?: 'asc' | 'desc';
}

export interface EpisodeRepo {
  /**
   * Id = input.id ?? episodeIdFor(conversation). New → 'inserted' (extraction 'pending'); same contentHash → 'unchanged'
   * (nothing is touched); another hash → 'updated': fields and turns replaced, extraction back to 'pending'
   * (summary, significance and userState stay until re-extraction overwrites them).
   */
  upsert(input: EpisodeUpsert): Promise<{ id: string; outcome: UpsertOutcome }>;
  get(id: string): Promise<Episode | null>;
  /** The episodes with these ids, in the order of `ids` (a repeated id once); unknown ids are left out. */
  getMany(ids: readonly string[]): Promise<Episode[]>;
  /** Chronological (createdAt, then id). */
  list(query?: EpisodeListQuery): Promise<Episode[]>;
  count(query?: EpisodeListQuery): Promise<number>;
  /** Ordered by seq (0-based position in the conversation). A turn's attachments come back as `meta.attachments`. */
  turns(episodeId: string): Promise<StoredTurn[]>;
  /**
   * The turns of several episodes in one call (one round trip on a server), each list ordered by seq as `turns`
   * gives it; every id asked for is a key (an unknown one with no turns).
   */
  turnsOfMany(episodeIds: readonly string[]): Promise<Map<string, StoredTurn[]>>;
  /** All or nothing: an unknown id fails the whole call with NOT_FOUND. */
  setExtraction(input: { ids: string[]; status: ExtractionStatus }): Promise<void>;
  /** Fields left undefined are kept; null clears. Unknown id → NOT_FOUND. */
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
  /**
   * The name as `findByKey` will look it up: pass the normalization used for aliases (the resolver's). When
   * absent, the adapter stores a basic key (NFKD, accents stripped, lowercase, whitespace collapsed).
   */
  normalizedName?: string;
  state: EntityState;
  firstSeen: number;
  lastSeen: number;
  createdFrom: string | null;
  recordedAt: number;
  /** Default 0.5. */
  importance?: number;
  protected?: boolean;
  meta?: Record<string, unknown>;
}

/** Fields left undefined are kept. */
export interface EntityPatch {
  type?: string;
  name?: string;
  /** With a new name: its lookup key (see EntityInsert.normalizedName); derived from `name` when absent. */
  normalizedName?: string;
  /** Replaces the whole state. */
  state?: EntityState;
  firstSeen?: number;
  lastSeen?: number;
  importance?: number;
  tier?: Entity['tier'];
  accessCount?: number;
  protected?: boolean;
  meta?: Record<string, unknown>;
  updatedAt: number;
  /** Optimistic locking: when given and the stored version differs, the update fails with CONFLICT. */
  expectedVersion?: number;
}

export interface EntityListQuery {
  type?: string;
  tier?: Entity['tier'];
  limit?: number;
  offset?: number;
  /** importance (default; ties by most recently seen) and lastSeen descending, name ascending (by normalized name); then by id. */
  orderBy?: 'importance' | 'lastSeen' | 'name';
  /** Only entities with firstSeen <= this time (they existed then). */
  firstSeenAtOrBefore?: number;
  /** Leave out archived entities. */
  excludeArchived?: boolean;
  /** Leave out entities merged into another (the sleep cycle's merges; their names are the other's aliases). */
  excludeMerged?: boolean;
}

/** An entity without its state, aliases and bookkeeping: enough to count, rank, name and badge it. */
export type EntityBrief = Pick<
  Entity,
  'id' | 'type' | 'name' | 'importance' | 'tier' | 'firstSeen' | 'lastSeen' | 'updatedAt'
>;

export interface EntityRepo {
  /** A new entity: tier 'active', version 1, accessCount 0, updatedAt = recordedAt. */
  insert(input: EntityInsert): Promise<Entity>;
  /** Applies the patch and bumps the version. Unknown id → NOT_FOUND. */
  update(id: string, patch: EntityPatch): Promise<Entity>;
  get(id: string): Promise<Entity | null>;
  /** The entities with these ids, in the order of `ids` (a repeated id once); unknown ids are left out. */
  getMany(ids: readonly string[]): Promise<Entity[]>;
  /**
   * Entities whose normalized name or normalized alias equals `normalized`; most important first. Entities merged
   * into another are left out: their names live on as aliases of the entity they were merged into.
   */
  findByKey(normalized: string): Promise<Entity[]>;
  list(query?: EntityListQuery): Promise<Entity[]>;
  /**
   * The entities `list` gives (same query, same order) as briefs: without state, aliases and bookkeeping, so that
   * reading a whole world at an instant (a snapshot, a diff) is several times cheaper.
   */
  listBriefs(query?: EntityListQuery): Promise<EntityBrief[]>;
  count(query?: Pick<EntityListQuery, 'type' | 'tier' | 'firstSeenAtOrBefore' | 'excludeArchived'>): Promise<number>;
  /**
   * Entities (merged ones left out) first seen in [since, until] (until null: from since on) with no edge of type
   * `edgeType` from them, by firstSeen then id: the ones a period told late should take in (extraction links an
   * entity to the period it was first seen in).
   */
  withoutEdge(query: { edgeType: string; since: number; until: number | null }): Promise<EntityBrief[]>;
  /** Every type an entity has (merged and archived ones included), each once, in code-point order. */
  types(): Promise<string[]>;
  /** Adding an alias the entity already has (same normalized form) does nothing. Aliases list in the order added. */
  addAlias(input: { entityId: string; alias: string; normalized: string; recordedAt: number }): Promise<void>;
  /** accessCount + 1 for each id (unknown ids are ignored); does not bump the version. */
  incrementAccess(ids: string[]): Promise<void>;
}

export interface TransitionListQuery {
  /** eventTime >= since */
  since?: number;
  /** eventTime < until */
  until?: number;
  kind?: Transition['kind'];
  /** Only transitions of these entities (an empty list matches nothing). */
  entityIds?: readonly string[];
  /** Only contradictions not yet closed by a resolution (resolvedBy null); implies kind 'contradiction'. */
  unresolved?: boolean;
  /** 'asc' (default) chronological; 'desc' newest first. */
  order?: 'asc' | 'desc';
  limit?: number;
}

export interface EntityTransitionCount {
  entityId: string;
  total: number;
  /** Transitions other than the entity's creation. */
  changes: number;
}

/** A transition as a step of its entity's lifecycle (transitions.listSteps). */
export type TransitionStep = Pick<
  Transition,
  'entityId' | 'kind' | 'fromState' | 'toState' | 'eventTime' | 'episodeId'
>;

export interface TransitionRepo {
  insert(input: Transition): Promise<void>;
  /** Chronological: event time, then record time, then id. */
  forEntity(entityId: string): Promise<Transition[]>;
  /** Chronological by event time (then record time, id); since inclusive, until exclusive. */
  list(query?: TransitionListQuery): Promise<Transition[]>;
  /**
   * Every transition as a step (no id, summary, confidence, record time, batch or resolution), in list()'s order:
   * what mining lifecycles reads, at about half the cost of the whole rows on a large memory. Steps with equal states
   * may share one state object: the states are frozen (read them, never change them).
   */
  listSteps(): Promise<TransitionStep[]>;
  /**
   * The transitions of several entities in one read, each entity's from its own `since` on (eventTime >= since):
   * the entities in the order given, each one's transitions chronologically as forEntity lists them.
   */
  forEntitiesSince(wanted: readonly { entityId: string; since: number }[]): Promise<Transition[]>;
  /** How many transitions `list` would return without a limit (order and limit are ignored). */
  count(query?: TransitionListQuery): Promise<number>;
  /** One entity's transitions counted by kind (kinds it has none of are absent), in [since, until) when given. */
  countByKind(query: {
    entityId: string;
    since?: number;
    until?: number;
  }): Promise<Partial<Record<Transition['kind'], number>>>;
  /**
   * Every entity with transitions in [since, until) (either bound optional): how many, and how many of them are
   * changes (not its creation). Events of the world only: the bookkeeping a sleep records (a summary of transitions
   * already counted, an archival) is not counted, so a sleep changes no count of the past. By entity id.
   */
  countByEntity(query: { since?: number; until?: number }): Promise<EntityTransitionCount[]>;
  /** The transitions with these ids, in the order of `ids` (a repeated id once); unknown ids are left out. */
  getMany(ids: readonly string[]): Promise<Transition[]>;
  /** The `limit` most recent transitions with eventTime < until (all when until is absent), newest first. */
  latest(query: { until?: number; limit: number }): Promise<Transition[]>;
  markResolved(input: { id: string; resolvedBy: string }): Promise<void>;
  /**
   * Moves a transition to another time and conversation with a new summary (full-text search follows). For an
   * entity's bare creation ("First mentioned in …") when an earlier conversation that mentions it is extracted late.
   */
  retime(input: { id: string; eventTime: number; episodeId: string | null; summary: string }): Promise<void>;
}

/** One attribute of one entity with different values at two instants (facts.valuesChangedBetween). */
export interface ValueChange {
  entityId: string;
  attribute: string;
  /** At the earlier instant; null when no fact held then. */
  from: StateValue;
  /** At the later instant; null when no fact holds then. */
  to: StateValue;
}

export interface FactRepo {
  insert(input: Fact): Promise<void>;
  /** Facts with no validTo, by attribute then validFrom. */
  current(entityId: string): Promise<Fact[]>;
  /**
   * current() of several entities in one read: by entity, then as current() orders them (an empty list matches
   * nothing).
   */
  currentOf(entityIds: readonly string[]): Promise<Fact[]>;
  /** Every fact, closed ones included, by validFrom (then recordedAt, id). */
  history(entityId: string, attribute?: string): Promise<Fact[]>;
  /**
   * Facts true at `time`: validFrom <= time and (validTo null or validTo > time); by entity, attribute, then
   * validFrom. With `entityIds`, only theirs (an empty list matches nothing).
   */
  validAt(query: { time: number; entityIds?: readonly string[] }): Promise<Fact[]>;
  /**
   * Every (entity, attribute) whose value at `after` differs from its value at `until`, with both values, sorted by
   * entity then attribute. The value at an instant is that of the latest fact valid then (by validFrom, recordedAt,
   * id: the last of validAt's rows for the pair), null when none was. Values equal as stored (and null against no
   * fact) are left out; values that differ only in case or spacing are not.
   */
  valuesChangedBetween(query: { after: number; until: number }): Promise<ValueChange[]>;
  /** Closes a fact: sets validTo and supersededBy. */
  close(input: { id: string; validTo: number; supersededBy: string | null }): Promise<void>;
  /**
   * Moves a fact's start back to `validFrom` when that is earlier (an older conversation, extracted late, told the
   * value from before); a later time changes nothing. Unknown id → NOT_FOUND.
   */
  backdate(input: { id: string; validFrom: number }): Promise<void>;
  /** How many facts are current (no validTo) and their mean confidence (0 when there are none). */
  currentConfidence(): Promise<{ facts: number; mean: number }>;
}

export interface RelationshipScope {
  includeEnded?: boolean;
  excludeTypes?: readonly string[];
  limit?: number;
}

export interface RelationshipRepo {
  insert(input: Relationship): Promise<void>;
  /**
   * Relationships touching an entity (either end), by validFrom; current only unless `includeEnded`; without the
   * types in `excludeTypes`. With `limit`: the `limit` that come first when open ones lead, typed ones before
   * GENERIC_RELATIONSHIP, and newer ones follow (then returned by validFrom), so a hub's few thousand edges are never
   * all read and its co-mention links do not push out the edges that say what the link is.
   */
  forEntity(entityId: string, options?: RelationshipScope): Promise<Relationship[]>;
  /** The latest open (no validTo) edge of that type from source to target. */
  findOpen(input: { sourceId: string; targetId: string; type: string }): Promise<Relationship | null>;
  /** The latest edge of that type from source to target, open or ended: the one that began last. */
  findLatest(input: { sourceId: string; targetId: string; type: string }): Promise<Relationship | null>;
  /** Every version of that edge, open and ended, by validFrom (then record time, id). */
  versions(input: { sourceId: string; targetId: string; type: string }): Promise<Relationship[]>;
  close(input: { id: string; validTo: number }): Promise<void>;
  /**
   * Moves an edge's start back to `validFrom` when that is earlier (a later telling put its start before the one
   * recorded: "I adopted Luna in 2019" after "my dog Luna" was first said in 2024); a later time changes nothing.
   */
  backdate(input: { id: string; validFrom: number }): Promise<void>;
  /**
   * Deletes one edge that was recorded wrongly (a DURING link to a period the entity was not first seen in, once an
   * older conversation extracted late showed where it was). Unknown id → NOT_FOUND.
   */
  remove(id: string): Promise<void>;
  /**
   * Relationships valid at `time`: validFrom <= time and (validTo null or validTo > time), by validFrom then id.
   * With `entityIds`, only those touching one of them (either end; an empty list matches nothing).
   */
  validAt(query: { time: number; entityIds?: readonly string[]; limit?: number }): Promise<Relationship[]>;
  /**
   * Relationships that began (validFrom) or ended (validTo) in [since, until), each once, ordered by the time of
   * their first change in the window (validFrom when it falls inside, else validTo), then id; without the types in
   * `excludeTypes`.
   */
  changedBetween(query: {
    since: number;
    until: number;
    limit?: number;
    excludeTypes?: readonly string[];
  }): Promise<Relationship[]>;
}

/** An entity named in an episode: provenance for "where did this come up", and for retrieval. */
export interface EntityMention {
  entityId: string;
  episodeId: string;
  /** Event time of the mention (the episode's or the batch's time). */
  time: number;
}

export interface EpisodeEntities {
  episodeId: string;
  /** The earliest mention's time. */
  time: number;
  entityIds: string[];
}

export interface MentionRepo {
  /** Records that the entity is mentioned in the episode; once per pair (a repeat keeps the earlier time). */
  add(input: EntityMention): Promise<void>;
  /** Chronological (time, then episodeId). */
  forEntity(entityId: string): Promise<EntityMention[]>;
  /**
   * The mentions of several entities in one read, each entity's from its own `since` on (time >= since): the
   * entities in the order given, each one's mentions as forEntity lists them.
   */
  forEntitiesSince(wanted: readonly { entityId: string; since: number }[]): Promise<EntityMention[]>;
  /** Chronological (time, then entityId). */
  forEpisode(episodeId: string): Promise<EntityMention[]>;
  /**
   * Every episode that mentions an entity, in episodes.list()'s order, with the time of its earliest mention and the
   * entities it mentions (each once, in no particular order): the whole memory's co-mentions in one read, for
   * co-mention mining (micro dreams), without an object per mention.
   */
  episodeEntities(): Promise<EpisodeEntities[]>;
  /**
   * Entities mentioned in [since, until) with how often and when first/last in that window; most mentioned first
   * (then latest, then entityId).
   */
  activeBetween(query: { since: number; until: number; limit?: number }): Promise<EntityActivity[]>;
}

export interface EntityActivity {
  entityId: string;
  mentions: number;
  first: number;
  last: number;
}

export interface PeriodRepo {
  /** Insert or replace by entityId (the period entity must exist). */
  upsert(input: Period): Promise<void>;
  get(entityId: string): Promise<Period | null>;
  /** Ordered by start. */
  list(): Promise<Period[]>;
}

export interface ProcedureRepo {
  /** Insert or replace by id. */
  upsert(input: Procedure): Promise<void>;
  /** Most observed first (timesObserved desc, then lastObserved desc, id). */
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
  /** Newest first. */
  list(limit?: number): Promise<IngestRun[]>;
  /** Insert or replace a batch record by (runId, key). */
  saveBatch(batch: IngestBatch): Promise<void>;
  /** In the order the batches were first saved. */
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
  /** Insert or replace by key. */
  put(entry: LlmCacheEntry): Promise<void>;
  /** Removes the entry; true when there was one (so of two callers racing, exactly one gets true). */
  delete(key: string): Promise<boolean>;
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

/** One change of an entity's tier that a maintenance run made (a journaled `entities` update whose tier moved). */
export interface TierMove {
  entityId: string;
  /** The tier in the row's image before the change and after it, as stored. */
  from: string;
  to: string;
  /** The clock of the run that made it (its `now`, the journal row's `at`). */
  at: number;
}

export interface JournalRepo {
  /** `before`/`after` are stored as JSON (undefined reads back as null). */
  append(entry: JournalEntry): Promise<void>;
  /** By seq. */
  forRun(runId: string): Promise<JournalEntry[]>;
  /**
   * Every tier move of the runs still in effect (maintenance log status `completed`: not undone, not failed), in the
   * order the runs were recorded (as `maintenance.list` orders them, oldest first), then by seq within a run. Only
   * `update` rows of `entities` whose `tier` differs between the two images count (importance updates, inserts and
   * deletes do not). Read through an index of those rows alone, so its cost follows the number of moves, not the
   * size of the journal.
   */
  tierMoves(): Promise<TierMove[]>;
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
  /**
   * Newest first in the order the runs were recorded (a monotonic sequence), not by `startedAt`: a run given an
   * earlier "now" (--now, PIE_NOW) than the runs before it is still the latest, and undo orders runs this way.
   */
  list(limit?: number): Promise<MaintenanceLogEntry[]>;
  /**
   * The latest (in list()'s order) run of this kind whose status is `completed` and, when given, whose report's
   * `scope` is this one; null when there is none. Reads one entry, however many runs came after it.
   */
  lastCompleted(query: { kind: string; scope?: string }): Promise<MaintenanceLogEntry | null>;
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
  /** BM25 score, lower is better (SQLite's convention); hits are already returned best first. */
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

export interface EntityHit {
  kind: 'entity';
  entityId: string;
  name: string;
  type: string;
  /** Matched text (name, aliases or state values) with the matched terms marked. */
  snippet: string;
  score: number;
}

export interface TransitionHit {
  kind: 'transition';
  transitionId: string;
  entityId: string;
  eventTime: number;
  snippet: string;
  score: number;
}

export interface SearchQuery {
  /** User text, never query syntax. Empty or whitespace-only → INVALID_ARGUMENT. */
  text: string;
  /** 1…1000, default 20. */
  limit?: number;
  /** Markers put around matched terms in snippets; default « and ». */
  highlight?: [string, string];
  /**
   * 'best' (default): the first tier that finds anything — hits with every word, else (three to eight words) with
   * at least two, else with any. 'fill': the tiers in that order, each adding hits the earlier ones missed, up to the
   * limit (better recall for retrieval). In a large index (an adapter's notion; SQLite: 5,000 rows) the any-word
   * tier may leave out words so common that ranking them costs much and tells little (SQLite: in over 5% of rows),
   * the two-word tier may pair only the rarest words, and a tier matching very many rows may rank only those with
   * its rarest words plus the most recently stored of the rest (SQLite: over 3,000 rows).
   */
  mode?: 'best' | 'fill';
  /**
   * false: the caller does not read snippets, and hits may carry an empty one (the SQLite adapter then skips cutting
   * them, which for a common word costs as much as ranking). The hits and their order are the same either way.
   */
  snippets?: boolean;
}

/**
 * Hits contain every word of the query when any such hit exists; otherwise at least two of its words (for three to
 * eight words) when such hits exist; otherwise any word (all BM25-ranked). Text without a searchable word
 * (e.g. "*** --") finds nothing.
 */
export interface SearchRepo {
  /** Full-text search over turn text (BM25). The text is user input: the adapter must escape it safely. */
  turns(query: SearchQuery): Promise<TurnHit[]>;
  /** Full-text search over episode titles and summaries. */
  episodes(query: SearchQuery): Promise<EpisodeHit[]>;
  /**
   * Full-text search over entity names, aliases and current state values (names weigh most). Archived entities
   * are left out unless `includeArchived`.
   */
  entities(query: SearchQuery & { includeArchived?: boolean }): Promise<EntityHit[]>;
  /** Full-text search over transition summaries. */
  transitions(query: SearchQuery): Promise<TransitionHit[]>;
}

// ---------------------------------------------------------------- embeddings

export type EmbeddingOwner = 'entity' | 'episode' | 'transition';

export interface StoredEmbedding {
  ownerKind: EmbeddingOwner;
  ownerId: string;
  /** The embedder's model label; vectors of different models never mix. */
  model: string;
  vector: Float32Array;
}

export interface NearestQuery {
  ownerKind: EmbeddingOwner;
  model: string;
  /** The query vector (an embedder's output). */
  vector: ArrayLike<number>;
  limit: number;
}

export interface NearestHit {
  ownerId: string;
  /** Cosine similarity with the query vector, in [-1, 1]. */
  score: number;
}

/** Vectors go when their owner (entity, episode or transition) is deleted. */
export interface EmbeddingRepo {
  /**
   * Insert or replace by (ownerKind, ownerId, model). An empty or non-Float32Array vector, an empty model label or an
   * unknown ownerKind → INVALID_ARGUMENT.
   */
  put(input: StoredEmbedding & { createdAt: number }): Promise<void>;
  /** Every vector of that kind and model, in ownerId order (backups, checks; searches use `nearest`). */
  all(query: { ownerKind: EmbeddingOwner; model: string }): Promise<StoredEmbedding[]>;
  /**
   * The stored vectors of that kind and model most similar to `vector`: at most `limit`, best first by cosine
   * similarity (`score`, in [-1, 1]), equal scores by ownerId. Only vectors with as many dimensions as `vector` are
   * compared; the others are left out (no error). Vectors of norm zero or with a NaN or infinite value are never
   * returned, and such a query returns nothing. Scores are computed by PIE from the stored float32 values
   * (domain/vectors.ts), so every adapter gives the same score for the same pair.
   *
   * SQLite and PostgreSQL without pgvector scan every vector of that kind, model and size: exact. PostgreSQL with
   * pgvector asks an HNSW index for the candidates, which is approximate: a true neighbour can be missed, and in
   * rare cases fewer than `limit` vectors come back although more exist (see docs/postgres.md).
   *
   * An empty `vector`, an unknown ownerKind or a negative or fractional `limit` → INVALID_ARGUMENT.
   */
  nearest(query: NearestQuery): Promise<NearestHit[]>;
  /** Ids of owners of that kind (entities, episodes or transitions that exist) without a vector of that model. */
  missing(query: { ownerKind: EmbeddingOwner; model: string; limit: number }): Promise<string[]>;
  count(query: { ownerKind: EmbeddingOwner; model: string }): Promise<number>;
  /** Removes every vector not of `model` (after an embedding model change); returns how many. */
  deleteOtherModels(model: string): Promise<number>;
}
