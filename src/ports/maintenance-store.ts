/**
 * Storage operations the maintenance (sleep) cycle needs beyond the world repositories: the whole entity graph in
 * one read (for importance), and raw row access so that every mutation can be journaled with its exact before/after
 * image and reverted by `pie undo`.
 */

/** Tables whose rows maintenance may change (each keyed by a text `id`). */
export const MAINTAINED_TABLES = [
  'entities',
  'transitions',
  'facts',
  'relationships',
  'procedures',
  'insights',
  'sleep_tasks',
] as const;
export type MaintainedTable = (typeof MAINTAINED_TABLES)[number];

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
  /** The stored row with this id, or null. */
  getRow(input: { table: MaintainedTable; id: string }): Promise<RawRow | null>;
  /**
   * Makes the stored row equal `row` (insert when absent, update every column when present, never delete-and-
   * reinsert, so rows that hang off it stay); `row: null` deletes the row. An unknown table → INVALID_ARGUMENT.
   */
  putRow(input: { table: MaintainedTable; id: string; row: RawRow | null }): Promise<void>;
}
