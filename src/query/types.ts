import type { TimeFormat } from '../compile/time-format.js';
import type { Entity, Episode, Procedure, Relationship, Transition } from '../domain/world.js';
import type { TimeRange } from './time/index.js';

export const INTENTS = [
  'temporal_diff',
  'current_state',
  'entity_lookup',
  'procedural',
  'relationship',
  'contradiction',
  'general',
] as const;
export type Intent = (typeof INTENTS)[number];

/** `auto` picks one of the other three from the question (see chooseTimeFormat). */
export type TimeFormatChoice = TimeFormat | 'auto';

/** What a question asks for, decided by rules (and by a model when one is configured). */
export interface QueryPlan {
  question: string;
  intent: Intent;
  /** Entities named in the question, resolved to ids (most specific first). */
  entityIds: string[];
  /** Names the classifier saw that match no entity (reported, not fatal). */
  unknownNames: string[];
  /** Time references found in the question, in order. */
  timeRanges: TimeRange[];
  /** Superseded history is included when true; otherwise current state only. */
  wantsHistory: boolean;
  /** The format the context is written in (never 'auto' here). */
  timeFormat: TimeFormat;
  /** Who decided the intent. */
  decidedBy: 'rules' | 'model';
}

/** Something retrieval can return. `key` is unique across kinds (e.g. "entity:abc"). */
export type ItemRef =
  | { kind: 'entity'; id: string }
  | { kind: 'episode'; id: string }
  | { kind: 'transition'; id: string }
  | { kind: 'turn'; episodeId: string; seq: number };

export type LaneName = 'recent' | 'temporal' | 'lexical' | 'vector' | 'graph';

export interface LaneHit {
  ref: ItemRef;
  /** When it happened (for recency), null when unknown. */
  time: number | null;
  /** 0…1: entity importance, episode significance, transition confidence × its entity's importance. */
  importance: number;
  /** Text shown for the hit (a snippet for lexical hits). */
  snippet?: string;
}

export interface LaneResult {
  lane: LaneName;
  /** Best first. */
  hits: LaneHit[];
  /** Why a lane returned nothing on purpose ("no embedder configured"). */
  skipped?: string;
}

/** One fused result with the evidence of where it came from. */
export interface RankedItem {
  key: string;
  ref: ItemRef;
  score: number;
  rrf: number;
  importance: number;
  /** When the item happened (null when unknown). */
  time: number | null;
  recency: number;
  lanes: LaneName[];
  snippet?: string;
}

/** The part of the world a question needs: what the context compiler writes out. */
export interface Subgraph {
  /** Entities in the order they should be presented, with how much of their history to show. */
  entities: SubgraphEntity[];
  procedures: Procedure[];
  contradictions: Transition[];
  /** Paths between two named entities (relationship intent): each a list of hops. */
  paths: PathHop[][];
  /** Conversation evidence: episodes with the matching turn snippets. */
  excerpts: Excerpt[];
  /** Transitions retrieved on their own (temporal lane and lexical hits), chronological. */
  events: Transition[];
}

export interface SubgraphEntity {
  entity: Entity;
  /** Transitions to show (already filtered to the question's range and to history/current mode). */
  transitions: Transition[];
  /** Total number of transitions the entity has. */
  transitionCount: number;
  /** Changes of the world after its creation (isWorldChange): the count velocity is computed from. */
  changeCount: number;
  /** Transitions the question's scope (history or current, time range) covers that are not shown. */
  hiddenCount: number;
  /** A person's latest events beyond the transitions shown (what they did lately), newest first; current mode only. */
  recentEvents?: Transition[];
  relationships: { relationship: Relationship; other: Pick<Entity, 'id' | 'name' | 'type'>; direction: 'out' | 'in' }[];
}

export interface PathHop {
  from: Pick<Entity, 'id' | 'name' | 'type'>;
  to: Pick<Entity, 'id' | 'name' | 'type'>;
  relationship: Relationship;
}

export interface Excerpt {
  episode: Episode;
  /** Matching or representative turns (snippets). */
  lines: { role: 'user' | 'assistant'; speaker: string | null; text: string; seq: number; time: number | null }[];
}
