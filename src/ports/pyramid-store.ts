/**
 * Storage for pyramid memory (`store.pyramid`, spec/pyramid-memory.md): observations (first-person facts with an
 * importance 1–10), the mental models they are grouped into, and per-model summaries in time tiers.
 */

export interface Observation {
  id: string;
  text: string;
  /** 1 trivial … 5 normal … 7 notable … 10 critical. */
  importance: number;
  /** The mental model it is assigned to; null until assigned. */
  modelId: string | null;
  entityId: string | null;
  episodeId: string | null;
  /** When it was true / observed (event time). */
  eventTime: number;
  recordedAt: number;
  /** Where it came from: 'manual' (pie observe), 'world' (derived from a transition), 'llm' … */
  source: string;
}

export interface MentalModel {
  id: string;
  /** Unique, lower case, hyphenated: self, user, system, or a discovered topic such as "maya-chen". */
  name: string;
  /** Derived from its highest-tier summary; empty until summarized. */
  description: string;
  isBase: boolean;
  updatedAt: number;
}

export interface Summary {
  id: string;
  modelId: string;
  tier: number;
  /** Window start (inclusive) and end (exclusive). */
  start: number;
  end: number;
  /** Lines of the form "[N] text". */
  text: string;
  /** The observations (tier 0) or summaries (tier N+1) it was made from. */
  sourceIds: string[];
  createdAt: number;
  /** 'llm:<provider:model>' or 'deterministic' (selection of the most important lines, no model). */
  method: string;
  /** A hash of the sources' content: an unchanged window is not summarized again. */
  sourceHash: string;
}

export interface ObservationQuery {
  modelId?: string;
  unassigned?: boolean;
  since?: number;
  until?: number;
  order?: 'asc' | 'desc';
  limit?: number;
}

export interface PyramidStore {
  /** Inserts an observation; one with the same id is left as it is (returns false then). */
  addObservation(input: Observation): Promise<boolean>;
  observations(query?: ObservationQuery): Promise<Observation[]>;
  countObservations(query?: Pick<ObservationQuery, 'modelId' | 'unassigned'>): Promise<number>;
  assign(input: { observationIds: readonly string[]; modelId: string }): Promise<void>;
  /** Inserts or updates (by name) a model; returns the stored one (its id is kept when the name exists). */
  putModel(input: MentalModel): Promise<MentalModel>;
  model(name: string): Promise<MentalModel | null>;
  models(): Promise<MentalModel[]>;
  /** Inserts or replaces the summary of (model, tier, start). */
  putSummary(input: Summary): Promise<void>;
  summaries(query?: { modelId?: string; tier?: number; order?: 'asc' | 'desc'; limit?: number }): Promise<Summary[]>;
  /** The latest `perTier` summaries of each tier of a model (pyramid retrieval), tier ascending, newest first. */
  recentByTier(input: { modelId: string; perTier: number }): Promise<Summary[]>;
}
