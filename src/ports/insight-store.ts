/**
 * Insights from dreaming (deep and mega dreams, pie-architecture "Dreaming Engine"): observations about the world
 * model that no single conversation states. The sleep cycle writes them as journaled rows (`upkeep.putRow` on table
 * `insights`, so `pie undo` removes them); this port only reads them.
 */

export interface Insight {
  id: string;
  /** What made it: 'deep' (one cluster of related entities) or 'mega' (across domains). */
  kind: string;
  text: string;
  /** Ids of the entities it rests on. */
  evidence: string[];
  confidence: number;
  /** 'new' until someone reviews it. */
  status: string;
  /** The sleep run that made it. */
  runId: string | null;
  createdAt: number;
}

export interface InsightRepo {
  /** Newest first (createdAt, then id, descending); optionally one kind or one run. */
  list(query?: { kind?: string; runId?: string; limit?: number }): Promise<Insight[]>;
  count(query?: { kind?: string }): Promise<number>;
}
