/**
 * Storage operations the maintenance (sleep) cycle needs beyond the world repositories: the whole entity graph in
 * one read (for importance), and raw row access so that every mutation can be journaled with its exact before/after
 * image and reverted by `pie undo`.
 */

/**
 * Tables whose rows maintenance may change. Most are keyed by a text `id`; `periods` by its `entity_id`;
 * `entity_aliases` and `entity_mentions` have composite primary keys, addressed by a row id that joins the key
 * columns with U+001F (see `compositeRowId`).
 */
export const MAINTAINED_TABLES = [
  'entities',
  'transitions',
  'facts',
  'relationships',
  'procedures',
  'insights',
  'sleep_tasks',
  'entity_aliases',
  'entity_mentions',
  'periods',
] as const;
export type MaintainedTable = (typeof MAINTAINED_TABLES)[number];

/** The primary-key columns of each maintained table, in the order a composite row id lists them. */
export const ROW_KEYS: Readonly<Record<MaintainedTable, readonly string[]>> = {
  entities: ['id'],
  transitions: ['id'],
  facts: ['id'],
  relationships: ['id'],
  procedures: ['id'],
  insights: ['id'],
  sleep_tasks: ['id'],
  entity_aliases: ['entity_id', 'normalized'],
  entity_mentions: ['entity_id', 'episode_id'],
  periods: ['entity_id'],
};

/** Separates the key values of a composite row id (a control character no name or id contains). */
export const ROW_ID_SEPARATOR = '\u001f';

/** The row id of a composite-key row: its key values in ROW_KEYS order joined by ROW_ID_SEPARATOR. */
export function compositeRowId(parts: readonly string[]): string {
  return parts.join(ROW_ID_SEPARATOR);
}

/** The row id of an alias row: `${entity_id}\u001f${normalized}`. */
export function aliasRowId(entityId: string, normalized: string): string {
  return compositeRowId([entityId, normalized]);
}

/** The row id of a mention row: `${entity_id}\u001f${episode_id}`. */
export function mentionRowId(entityId: string, episodeId: string): string {
  return compositeRowId([entityId, episodeId]);
}

/** A stored row, column name → value, exactly as the adapter keeps it (JSON columns as text). */
export type RawRow = Record<string, string | number | null>;

export interface GraphNode {
  id: string;
  type: string;
  lastSeen: number;
  accessCount: number;
  importance: number;
  tier: string;
  protected: boolean;
  /** How many transitions the entity has, leaving out maintenance's own records (kinds summary and archival). */
  transitions: number;
}

export interface GraphEdge {
  sourceId: string;
  targetId: string;
}

export interface MaintenanceStore {
  /** Every entity not merged into another, ordered by id, with its transition count. */
  graphNodes(): Promise<GraphNode[]>;
  /** Every current (no validTo) relationship between two distinct entities, as (source, target), ordered by id. */
  graphEdges(): Promise<GraphEdge[]>;
  /**
   * Every pair of distinct entities a relationship has ever linked, ended ones too, each direction once as stored
   * (micro dreams: a link that ended still explains why two things were named together). Ordered by source, target.
   */
  linkedPairs(): Promise<GraphEdge[]>;
  /** The stored row with this id (a composite row id for entity_aliases and entity_mentions), or null. */
  getRow(input: { table: MaintainedTable; id: string }): Promise<RawRow | null>;
  /**
   * An entity's rows in a composite-key table (its aliases or its mentions) with their row ids, ordered by key: what
   * a merge moves to another entity, row by row through the journal.
   */
  entityRows(input: {
    table: 'entity_aliases' | 'entity_mentions';
    entityId: string;
  }): Promise<{ id: string; row: RawRow }[]>;
  /**
   * Makes the stored row equal `row` (insert when absent, update every column when present, never delete-and-
   * reinsert, so rows that hang off it stay); `row: null` deletes the row. The key columns come from `id` (key
   * columns in `row` are ignored). An unknown table or column, or a composite row id with the wrong number of
   * parts → INVALID_ARGUMENT.
   */
  putRow(input: { table: MaintainedTable; id: string; row: RawRow | null }): Promise<void>;
}
