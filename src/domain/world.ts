/**
 * The temporal world model (DESIGN.md §2). Times are epoch milliseconds.
 * Event time = when it was true in the user's world; record time = when PIE learned it.
 */

export const CORE_ENTITY_TYPES = [
  'person',
  'project',
  'belief',
  'decision',
  'tool',
  'concept',
  'organization',
  'period',
  'place',
  'event',
  'preference',
  'commitment',
] as const;
export type CoreEntityType = (typeof CORE_ENTITY_TYPES)[number];
/** Custom types are allowed; core types get special treatment. */
export type EntityType = CoreEntityType | (string & {});

export const TIERS = ['active', 'summarized', 'archived'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * The relationship type that says least: two things linked with no kind of link named (co-mentions found by a
 * sleep's micro dreams, a verb no type fits). Lists that must pick a few edges put the typed ones first.
 */
export const GENERIC_RELATIONSHIP = 'RELATED_TO';

/**
 * A KNOWS with no role: two people who know each other and nothing more is said (the offline extractor links the
 * named speakers of a conversation so). Background to nearly every question about either of them: the query's graph
 * lane and the compiled context use it when the question asks who knows whom. Pure.
 */
export function isBareAcquaintance(r: { type: string; properties: Readonly<Record<string, unknown>> }): boolean {
  return r.type === 'KNOWS' && Object.keys(r.properties).length === 0;
}

/** For ordering a list of relationships: 0 for a typed link, 1 for a GENERIC_RELATIONSHIP (it comes after). Pure. */
export function genericLast(r: { type: string }): number {
  return r.type === GENERIC_RELATIONSHIP ? 1 : 0;
}

/**
 * Relationship types that record something done at a time rather than a standing link: a visit, a book read, a film
 * watched. Their start is when it happened, or when it was told when no time was given, so they read "by <date>",
 * never "since".
 */
export const POINT_RELATIONSHIPS: ReadonlySet<string> = new Set([
  'VISITED',
  'READ',
  'WATCHED',
  'LISTENED_TO',
  'PLAYED',
]);

/**
 * Relationship types that hold for good once true: where someone is from, kin, a period of one's life, knowing
 * someone. Their start is when they were first told, hardly ever when they began ("Caroline FROM Sweden, since 27 June
 * 2023" said she came from Sweden only then; two friends talking since 8 May 2023 knew each other before), so they
 * read "by <date>" too.
 */
export const KNOWN_BY_RELATIONSHIPS: ReadonlySet<string> = new Set(['FROM', 'FAMILY_OF', 'HAS_PERIOD', 'KNOWS']);

/**
 * The word before an open relationship's start: "by" for a point relationship (a visit) or one that holds for good
 * (kin), "since" for the rest. Pure.
 */
export function startWord(type: string): 'by' | 'since' {
  return POINT_RELATIONSHIPS.has(type) || KNOWN_BY_RELATIONSHIPS.has(type) ? 'by' : 'since';
}

/** The summary of a creation that says only where an entity was first mentioned (no summary of its own was given). */
export const FIRST_MENTION = 'First mentioned';

/** A creation that says only where the entity came up: its date is the entity's first appearance. Pure. */
export function isBareCreation(t: { kind: string; summary: string }): boolean {
  return t.kind === 'creation' && t.summary.startsWith(FIRST_MENTION);
}

export const TRANSITION_KINDS = ['creation', 'update', 'contradiction', 'resolution', 'archival', 'summary'] as const;
export type TransitionKind = (typeof TRANSITION_KINDS)[number];

/**
 * Transitions a sleep records about its own upkeep, not events of the world: a summary of changes already recorded
 * and an archival (a tier of attention). Counts of changes leave them out, so a sleep changes no count of the past.
 */
export const MAINTENANCE_KINDS: ReadonlySet<TransitionKind> = new Set(['summary', 'archival']);

/** A change of the world after an entity's creation (not its creation, not a maintenance record). Pure. */
export function isWorldChange(kind: TransitionKind): boolean {
  return kind !== 'creation' && !MAINTENANCE_KINDS.has(kind);
}

export type StateValue = string | number | boolean | null;

/**
 * The state attribute a dated personal event sets ("painted that lake sunrise"): the latest thing a person did is
 * their state, each event a transition whose summary says it all.
 */
export const EVENT_ATTRIBUTE = 'latest_event';

/**
 * The state attribute a plan sets ("I'm flying to Paris tomorrow" → "flying to Paris (16 January 2025)"): what a
 * person is doing at a time still to come has not happened, so it is no event; dated the day it was said.
 */
export const PLAN_ATTRIBUTE = 'plan';

/**
 * Attributes whose every value is part of the history, one told late included: an event told after a later one
 * still happened then, and a plan said in a conversation imported after a later plan was still made then. Any other
 * attribute's older value arriving late is only closed history (no transition).
 */
export const DATED_ATTRIBUTES: ReadonlySet<string> = new Set([EVENT_ATTRIBUTE, PLAN_ATTRIBUTE]);

/** A change, not a creation, whose only attribute is `attribute`. Pure. */
function changesOnly(t: { kind: string; toState: Record<string, unknown> }, attribute: string): boolean {
  const keys = Object.keys(t.toState);
  return t.kind !== 'creation' && keys.length > 0 && keys.every((k) => k === attribute);
}

/** A change that only records an event (its one attribute is EVENT_ATTRIBUTE), not a creation. Pure. */
export const isEventChange = (t: { kind: string; toState: Record<string, unknown> }): boolean =>
  changesOnly(t, EVENT_ATTRIBUTE);

/** A change that only records a plan (its one attribute is PLAN_ATTRIBUTE); its summary says the plan and when. Pure. */
export const isPlanChange = (t: { kind: string; toState: Record<string, unknown> }): boolean =>
  changesOnly(t, PLAN_ATTRIBUTE);
/**
 * The user's own entity (the person whose memory it is, the "I" of the conversations): a fixed id, created by the
 * first extraction that refers to the user. It is a person like any other (not protected), named in most episodes.
 */
export const SELF_ID = 'self';

/** The id prefix of the entities KIP's schema bootstrap creates (`kip:<Type>:<name>`, src/kip/bootstrap.ts). */
export const SCHEMA_ID_PREFIX = 'kip:';

/**
 * An entity of the memory's own schema, not of the person's world: KIP's type and predicate definitions and link
 * proxies (types that start with "$") and what KIP's bootstrap creates with fixed ids (the domains CoreSchema,
 * Unsorted and Archived; the agents $self and $system). Importance and health leave them out: the bootstrap's 39
 * belongs_to_domain links had made CoreSchema the most important entity of a world, and the degree share of every
 * real one smaller. Pure.
 */
export function isSchemaEntity(e: { id: string; type: string }): boolean {
  return e.type.startsWith('$') || e.id.startsWith(SCHEMA_ID_PREFIX);
}

export type EntityState = Record<string, StateValue>;

export interface Entity {
  id: string;
  type: EntityType;
  name: string;
  aliases: string[];
  state: EntityState;
  firstSeen: number;
  lastSeen: number;
  importance: number;
  tier: Tier;
  accessCount: number;
  /** Episode where the entity was first extracted. */
  createdFrom: string | null;
  recordedAt: number;
  updatedAt: number;
  version: number;
  protected: boolean;
  meta: Record<string, unknown>;
}

export interface Transition {
  id: string;
  entityId: string;
  kind: TransitionKind;
  fromState: EntityState | null;
  toState: EntityState;
  summary: string;
  eventTime: number;
  recordedAt: number;
  confidence: number;
  episodeId: string | null;
  batchId: string | null;
  /** For contradictions: the resolution transition that closed it, if any. */
  resolvedBy: string | null;
}

export interface Fact {
  id: string;
  entityId: string;
  attribute: string;
  value: StateValue;
  validFrom: number;
  validTo: number | null;
  supersededBy: string | null;
  episodeId: string | null;
  recordedAt: number;
  confidence: number;
}

export interface Relationship {
  id: string;
  type: string;
  sourceId: string;
  targetId: string;
  properties: Record<string, StateValue>;
  validFrom: number;
  validTo: number | null;
  confidence: number;
  episodeId: string | null;
  recordedAt: number;
  /** Set when the edge was discovered by dreaming rather than extracted. */
  discoveredBy: string | null;
}

export interface Period {
  entityId: string;
  name: string;
  start: number;
  end: number | null;
}

export interface Procedure {
  id: string;
  description: string;
  pattern: string[];
  evidence: string[];
  timesObserved: number;
  firstObserved: number;
  lastObserved: number;
  domain: string | null;
  confidence: number;
}

export type ExtractionStatus = 'pending' | 'extracted' | 'failed';

/** A stored conversation or note. */
export interface Episode {
  id: string;
  source: string;
  externalId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  model: string | null;
  contentHash: string;
  turnCount: number;
  summary: string | null;
  significance: number | null;
  userState: string | null;
  extraction: ExtractionStatus;
  recordedAt: number;
  meta: Record<string, unknown>;
}

export interface StoredTurn {
  episodeId: string;
  seq: number;
  role: 'user' | 'assistant';
  text: string;
  time: number | null;
  speaker: string | null;
  externalId: string | null;
  meta: Record<string, unknown>;
}

export interface WorldStats {
  episodes: number;
  turns: number;
  episodesPendingExtraction: number;
  entities: number;
  entitiesByType: Record<string, number>;
  entitiesByTier: Record<string, number>;
  transitions: number;
  facts: number;
  currentFacts: number;
  relationships: number;
  periods: number;
  procedures: number;
  firstEpisodeAt: number | null;
  lastEpisodeAt: number | null;
}

/**
 * Periods PIE knows of: the period entities, dated or not (the store's period list holds only the dated ones: a
 * period said in talk, "Jon's childhood", has no start). Pure.
 */
export function periodCount(s: Pick<WorldStats, 'periods' | 'entitiesByType'>): number {
  return Math.max(s.periods, s.entitiesByType.period ?? 0);
}
