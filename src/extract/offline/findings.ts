/**
 * The offline extractor's internal vocabulary: sentences, mentions, and the findings each pattern family returns.
 * Findings are merged, deduplicated and turned into an ExtractionResult by ./assemble.ts.
 */
import type { EntityState } from '../../domain/world.js';

/** One sentence of a user turn, cleaned of code, URLs and pasted material. */
export interface Sentence {
  episodeId: string;
  /** Index of the turn in its episode. */
  turn: number;
  /** Position of the sentence in its episode (over all user turns). */
  index: number;
  text: string;
  /** When it was said (epoch ms): the turn's time, else the episode's. */
  time: number;
  /** Who "I" is: the turn's speaker when the source names one, else the user. */
  self: string;
}

export type MentionOrigin = 'known' | 'gazetteer' | 'batch';

/** A span of a sentence that names an entity. */
export interface Mention {
  start: number;
  end: number;
  surface: string;
  /** Canonical name. */
  name: string;
  type: string;
  origin: MentionOrigin;
}

/** A sentence with its mentions; `masked` replaces each mention by ⟦i⟧ (i = index in `mentions`). */
export interface AnalyzedSentence extends Sentence {
  mentions: Mention[];
  masked: string;
}

export interface EntityFinding {
  name: string;
  type: string;
  aliases: string[];
  state: EntityState;
  episodeId: string;
  /** Set when the name is a preamble entity's name. */
  matchesExisting?: string;
  eventTime?: string;
}

export interface RelationshipFinding {
  source: string;
  target: string;
  type: string;
  properties: EntityState;
  ended: boolean;
  confidence: number;
  episodeId: string;
  eventTime?: string;
}

export interface StateChangeFinding {
  entityName: string;
  whatChanged: string;
  attribute?: string;
  oldStateAspect?: string;
  newStateAspect: string;
  isContradiction: boolean;
  confidence: number;
  episodeId: string;
  eventTime?: string;
}

export interface BeliefFinding {
  statement: string;
  domain?: string;
  confidence: number;
  replaces?: string;
  episodeId: string;
}

export interface DecisionFinding {
  summary: string;
  reasoning?: string;
  alternatives: string[];
  relatedEntities: string[];
  episodeId: string;
  /** Turn the decision was stated in: "The alternatives were …" in the same turn attaches to it. */
  turn: number;
  eventTime?: string;
}

export interface ActionFinding {
  actor: string;
  verb: string;
  object: string;
  episodeId: string;
  eventTime?: string;
}

/** 'past': a period told about as over ("when I was a kid"), never the current one. */
export type PeriodCue = 'start' | 'ongoing' | 'end' | 'planned' | 'past';

export interface PeriodFinding {
  name: string;
  cue: PeriodCue;
  /** The period's status as of the sentence: active, planned, ending (soon) or ended. */
  status: 'active' | 'planned' | 'ending' | 'ended';
  episodeId: string;
  /** A date stated with the cue ("classes started August 26"), YYYY-MM-DD. */
  date?: string;
  /** Whose period it is when not the user's (a named speaker of a chat between people). */
  owner?: string;
}

/** A sentence of the speaker about themselves, for pyramid memory. */
export interface ObservationFinding {
  text: string;
  importance: number;
  about: string;
  episodeId: string;
  eventTime: string;
}

/** Alternatives stated after a decision ("The alternatives were A, or B"). */
export interface AlternativesFinding {
  episodeId: string;
  turn: number;
  items: string[];
}

export interface Findings {
  entities: EntityFinding[];
  relationships: RelationshipFinding[];
  stateChanges: StateChangeFinding[];
  beliefs: BeliefFinding[];
  decisions: DecisionFinding[];
  actions: ActionFinding[];
  locations: { name: string; episodeId: string }[];
  periods: PeriodFinding[];
  alternatives: AlternativesFinding[];
  observations: ObservationFinding[];
}

export function emptyFindings(): Findings {
  return {
    entities: [],
    relationships: [],
    stateChanges: [],
    beliefs: [],
    decisions: [],
    actions: [],
    locations: [],
    periods: [],
    alternatives: [],
    observations: [],
  };
}

/** Appends every list of `more` to `into` (mutates `into`, returns it). */
export function mergeFindings(into: Findings, more: Partial<Findings>): Findings {
  into.entities.push(...(more.entities ?? []));
  into.relationships.push(...(more.relationships ?? []));
  into.stateChanges.push(...(more.stateChanges ?? []));
  into.beliefs.push(...(more.beliefs ?? []));
  into.decisions.push(...(more.decisions ?? []));
  into.actions.push(...(more.actions ?? []));
  into.locations.push(...(more.locations ?? []));
  into.periods.push(...(more.periods ?? []));
  into.alternatives.push(...(more.alternatives ?? []));
  into.observations.push(...(more.observations ?? []));
  return into;
}
