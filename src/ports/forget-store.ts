/**
 * Forgetting on request (`store.forget`, `pie forget`): reads what hangs off the things a person asks PIE to forget,
 * removes exactly what a plan names in one write, and rewrites the file so the removed bytes are gone. What goes and
 * what stays is decided by core code (src/privacy/forget-*.ts); the adapter only reads and writes rows.
 */
import type { EntityState, Fact, TransitionKind } from '../domain/world.js';

/** A turn by its place: the conversation and its position in it. */
export interface TurnRef {
  episodeId: string;
  seq: number;
}

/** A turn whose text contains a searched text, with how many turns its conversation holds. */
export interface TurnMatch extends TurnRef {
  turnCount: number;
}

/**
 * What copies of forgotten things are recognized by in caches, journals and logs. `texts` are compared as
 * substrings, case-insensitively for ASCII letters: each is given lower-cased (ASCII letters only), and its
 * JSON-escaped form too where that differs, since JSON columns keep quotes, backslashes and line breaks escaped.
 * `ids` are the ids of removed rows, matched as whole JSON values.
 */
export interface Needles {
  ids: readonly string[];
  texts: readonly string[];
}

/** Where a forget starts. */
export interface ForgetSeeds {
  /** Conversations removed whole. */
  episodeIds: readonly string[];
  /** Turns removed from conversations that keep their other turns. */
  turns: readonly TurnRef[];
  /** Entities removed whole. */
  entityIds: readonly string[];
  /** The forms of a text whose every stored copy goes (a text-query forget; see Needles.texts), or empty. */
  text: readonly string[];
}

export interface ScannedEpisode {
  id: string;
  title: string;
  summary: string | null;
  createdAt: number;
  turnCount: number;
}

export interface ScannedTurn extends TurnRef {
  text: string;
}

/** An entity the seeds touch, with every row that says where it comes from. */
export interface ScannedEntity {
  id: string;
  name: string;
  type: string;
  state: EntityState;
  firstSeen: number;
  lastSeen: number;
  createdFrom: string | null;
  mergedInto: string | null;
  protected: boolean;
  /** Written by hand through KIP (its meta has a `kip` record): a source of its own. */
  madeByHand: boolean;
  aliases: { alias: string; normalized: string }[];
  mentions: { episodeId: string; time: number }[];
  transitions: {
    id: string;
    kind: TransitionKind;
    summary: string;
    episodeId: string | null;
    resolvedBy: string | null;
  }[];
  /** Every fact, closed ones included. */
  facts: Fact[];
  /** Edges touching it (either end). */
  relationships: { id: string; episodeId: string | null; discoveredBy: string | null }[];
}

/** Rows whose own text holds the forgotten text (a text-query forget); empty lists otherwise. */
export interface TextMatches {
  transitions: string[];
  facts: string[];
  relationships: string[];
  observations: string[];
  summaries: string[];
  insights: string[];
  procedures: string[];
  sleepTasks: string[];
  /** Entities whose name holds it. */
  entities: string[];
  /** Aliases that hold it. */
  aliases: { entityId: string; normalized: string }[];
}

/** No row holds a text (every forget but a text one). */
export function noTextMatches(): TextMatches {
  return {
    transitions: [],
    facts: [],
    relationships: [],
    observations: [],
    summaries: [],
    insights: [],
    procedures: [],
    sleepTasks: [],
    entities: [],
    aliases: [],
  };
}

export interface ForgetScan {
  /** The conversations removed whole. */
  episodes: ScannedEpisode[];
  /** Conversations that lose some turns and keep the others. */
  partial: ScannedEpisode[];
  /** Every turn that goes (of both). */
  turns: ScannedTurn[];
  /**
   * Entities linked to the seeds (a mention, creation, transition, fact or relationship from a forgotten
   * conversation; named as a seed; owning a row that holds the text; named or aliased with the text), and the
   * entities merged into any of them.
   */
  entities: ScannedEntity[];
  text: TextMatches;
}

/** What else goes with the world rows a plan removes: the pyramid, bookkeeping and caches. */
export interface DependentsQuery {
  episodeIds: readonly string[];
  entityIds: readonly string[];
  transitionIds: readonly string[];
  /** Observations and summaries found by text, besides those that hang off the rows above. */
  observationIds: readonly string[];
  summaryIds: readonly string[];
  /** Names of the mental models that were about a removed entity (topic models). */
  modelNames: readonly string[];
  /** Ids and texts whose copies go from caches, journals and logs. */
  needles: Needles;
  /** Rows the plan removes or changes, whose journal entries go too (`table` as the journal names it). */
  touched: readonly { table: string; rowId: string }[];
  /** Owners whose vectors go: changed entities and conversations that lose turns. */
  reembed: { entityIds: readonly string[]; episodeIds: readonly string[] };
}

export interface ForgetDependents {
  observations: string[];
  /** Summaries made from removed observations or summaries, up the tiers. */
  summaries: string[];
  /** Topic models of removed entities. */
  models: string[];
  /** Models that keep going but lose a summary: their description is derived from summaries, so it is cleared. */
  modelsToReset: string[];
  insights: string[];
  sleepTasks: string[];
  /** Procedures whose evidence cites a removed conversation or entity, with their evidence. */
  procedures: { id: string; evidence: string[] }[];
  /** How many vectors go (of removed owners and of `reembed`). */
  embeddings: number;
  cacheKeys: string[];
  journal: { runId: string; seq: number }[];
  /** Maintenance runs whose report quotes a needle. */
  logs: string[];
  /** Ingest batch records that list a removed conversation. */
  batches: { ord: number; episodeIds: string[] }[];
}

/** Exactly what one forget writes (every list may be empty). */
export interface ForgetWrite {
  episodeIds: readonly string[];
  /**
   * Digests of the conversations forgotten whole (privacy/forgotten-key.ts), kept so that importing them again
   * leaves them out.
   */
  forgottenKeys: readonly string[];
  turns: readonly TurnRef[];
  entityIds: readonly string[];
  transitionIds: readonly string[];
  factIds: readonly string[];
  relationshipIds: readonly string[];
  mentions: readonly { entityId: string; episodeId: string }[];
  aliases: readonly { entityId: string; normalized: string }[];
  observationIds: readonly string[];
  summaryIds: readonly string[];
  modelIds: readonly string[];
  modelsToReset: readonly string[];
  insightIds: readonly string[];
  sleepTaskIds: readonly string[];
  procedures: { deleted: readonly string[]; evidence: readonly { id: string; evidence: string[] }[] };
  cacheKeys: readonly string[];
  journal: readonly { runId: string; seq: number }[];
  /** Reports of these runs get every needle replaced by "[forgotten]" and a count of the journal rows removed. */
  logs: readonly { runId: string; journalRowsRemoved: number }[];
  needles: Needles;
  batches: readonly { ord: number; episodeIds: string[] }[];
  reembed: { entityIds: readonly string[]; episodeIds: readonly string[] };
  repairs: ForgetRepairs;
}

/** Rows that stay but change, because part of what they were derived from goes. */
export interface ForgetRepairs {
  /** Facts whose successor goes: they are closed by the next remaining one, or current again. */
  facts: readonly { id: string; validTo: number | null; supersededBy: string | null }[];
  /** Contradictions whose resolution goes: open again. */
  reopenedTransitions: readonly string[];
  entities: readonly {
    id: string;
    state: EntityState;
    firstSeen: number;
    lastSeen: number;
    createdFrom: string | null;
  }[];
  /** Conversations that lose turns (text-query forget): new turn count, and title/summary without the text. */
  episodes: readonly { id: string; title: string; summary: string | null; turnCount: number }[];
}

export interface CompactReport {
  /** Bytes of the database file before and after. */
  bytesBefore: number;
  bytesAfter: number;
  /** False when another connection kept the write-ahead log from being emptied (its old pages stay until then). */
  walTruncated: boolean;
  /**
   * 'file' (SQLite, the default when absent): the file was rewritten as described above. 'server' (PostgreSQL):
   * the rows are deleted and VACUUM made their space reusable, but old row versions can stay in unused table
   * space until reused, and in the server's write-ahead log, replicas and backups until those are recycled.
   */
  storage?: 'file' | 'server';
}

export interface ForgetStore {
  /** Conversations with this title, exactly (after trimming). */
  episodesTitled(title: string): Promise<ScannedEpisode[]>;
  /** Turns whose text contains one of the forms of a text (see Needles.texts), in conversation order. */
  turnsContaining(text: readonly string[]): Promise<TurnMatch[]>;
  /** Everything stored that hangs off the seeds (see ForgetScan). */
  scan(seeds: ForgetSeeds): Promise<ForgetScan>;
  /**
   * Of `phrases`, those that a full-text phrase search finds in no turn but the turns `inside` (words and names only
   * the forgotten text holds), each with whether it is found in those. Phrases without a word are left out.
   */
  foundOnlyIn(input: {
    phrases: readonly string[];
    inside: readonly TurnRef[];
  }): Promise<{ phrase: string; inside: boolean }[]>;
  dependents(query: DependentsQuery): Promise<ForgetDependents>;
  /** Of `keys` (see ForgetWrite.forgottenKeys), those of conversations forgotten earlier. */
  forgottenAmong(keys: readonly string[]): Promise<string[]>;
  /** Stops leaving these conversations out of imports (an import told to include forgotten ones). */
  clearForgotten(keys: readonly string[]): Promise<void>;
  /**
   * Carries out a plan, all or nothing; use inside a transaction that re-read the plan. `at` is the record time of
   * the repairs. Full-text indexes are merged so no segment keeps a removed word.
   */
  apply(input: { write: ForgetWrite; at: number }): Promise<void>;
  /**
   * Rewrites the database file so that nothing removed survives in free pages or in the write-ahead log (VACUUM,
   * then a truncating checkpoint). Cannot run inside a transaction.
   */
  compact(): Promise<CompactReport>;
}
