/**
 * Response shapes of /api/diff, /api/snapshot and /api/search (the parts the UI reads). The server's zod schemas
 * (src/serve/mcp/tools/history-shapes.ts, src/serve/http/routes/search.ts) are the source; /api/openapi.json has them.
 */
import type { Entity, EntityRef } from './api.js';

export type StateValue = string | number | boolean | null;
export type State = Record<string, StateValue>;
export type Tier = 'active' | 'summarized' | 'archived';
export interface TieredRef extends EntityRef {
  tier: Tier;
}
export interface Bounded<T> {
  total: number;
  items: T[];
}
export interface SpanOut {
  kind: 'period' | 'range' | 'date' | 'now';
  label: string;
  start: string;
  end: string;
  at: string;
  ongoing: boolean;
}
export interface EdgeChange {
  type: string;
  source: TieredRef;
  target: TieredRef;
  properties: State;
  time: string;
  since: string;
  until: string | null;
}
export interface ContradictionChange {
  transitionId: string;
  entity: TieredRef;
  from: State | null;
  to: State;
  summary: string;
  time: string;
  resolved: boolean;
}
export interface ActivityChange {
  entity: TieredRef;
  mentionsA: number;
  mentionsB: number;
  time: string;
}
export interface DiffOut {
  a: SpanOut;
  b: SpanOut;
  swapped: boolean;
  entities: { before: number; after: number };
  created: Bounded<TieredRef & { firstSeen: string; state: State }>;
  attributesChanged: Bounded<{ entity: TieredRef; attribute: string; from: StateValue; to: StateValue }>;
  relationshipsBegun: Bounded<EdgeChange>;
  relationshipsEnded: Bounded<EdgeChange>;
  beliefsReversed: Bounded<ContradictionChange>;
  contradictions: Bounded<ContradictionChange>;
  goneQuiet: Bounded<ActivityChange>;
  newlyActive: Bounded<ActivityChange>;
}
export interface SnapshotEntity extends TieredRef {
  importance: number;
  firstSeen: string;
  state: State;
  changes: number;
  activity: { mentions: number; changes: number } | null;
}
export interface SnapshotEdge {
  type: string;
  source: TieredRef;
  target: TieredRef;
  properties: State;
  since: string;
  until: string | null;
}
export interface SnapshotOut {
  at: string;
  span: SpanOut | null;
  type: string | null;
  total: number;
  byType: Record<string, number>;
  byTier: Record<Tier, number>;
  transitions: number;
  active: number | null;
  entities: SnapshotEntity[];
  relationships: SnapshotEdge[];
}

export interface SearchItemOut {
  kind: 'entity' | 'transition' | 'episode' | 'turn';
  title: string;
  snippet: string | null;
  time: string | null;
  lanes: string[];
  entity: EntityRef | null;
  episodeId: string | null;
  seq: number | null;
}
export interface EntityCard extends Entity {
  matched: string;
  exact: boolean;
  changes: number;
  latestChange: {
    kind: string;
    summary: string;
    time: string;
    episodeId: string | null;
    episodeTitle: string | null;
  } | null;
}
export interface ConversationHit {
  episodeId: string;
  title: string;
  time: string;
  snippet: string | null;
  turns: { seq: number; snippet: string | null; time: string | null }[];
}
export interface LaneOut {
  lane: string;
  hits: number;
  skipped?: string;
}
export interface SearchOut {
  query: string;
  items: SearchItemOut[];
  entities: EntityCard[];
  conversations: ConversationHit[];
  reading: {
    intent: string;
    entities: EntityRef[];
    timeRanges: { text: string; kind: string; start: string; end: string; label: string }[];
    wantsHistory: boolean;
    lanes: LaneOut[];
  };
}
