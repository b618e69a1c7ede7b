import type { Embedder } from '../ports/embedder.js';
import { recordRetrieval } from '../metabolism/tasks/stale-review.js';
import type { WorldStore } from '../ports/world-store.js';
import { PieError } from '../domain/errors.js';
import { describeItems, type DescribedItem } from './items.js';
import { planQuery } from './plan.js';
import { PRESETS } from './presets.js';
import { retrieve, summarizeLanes, type LaneSummary } from './retrieve.js';
import type { QueryPlan } from './types.js';

export interface SearchResult {
  plan: QueryPlan;
  items: DescribedItem[];
  lanes: LaneSummary[];
}

/**
 * Hybrid search (DESIGN.md §5) without compiling a context: the general preset's lanes over entities,
 * transitions, episodes and turns, fused and re-scored, best first.
 */
export async function searchWorld(input: {
  store: WorldStore;
  text: string;
  limit: number;
  now: number;
  tz: string;
  embedder?: Embedder | undefined;
  recordAccess?: boolean;
  /** Says what could not be recorded (access counts on a busy database); the search still answers. */
  onWarning?: (message: string) => void;
}): Promise<SearchResult> {
  const { store, now } = input;
  if (input.text.trim() === '')
    throw new PieError('INVALID_ARGUMENT', 'The search text is empty; give at least one word.');
  const periods = await store.periods.list();
  const plan = await planQuery({ store, question: input.text, now, tz: input.tz, periods, format: 'hybrid' });
  // The recent lane is a safety net for questions; a search lists only what matches.
  const general = PRESETS.general;
  const preset = { ...general, topK: input.limit, lanes: { ...general.lanes, recent: { limit: 0, weight: 0 } } };
  const retrieval = await retrieve({ store, plan, preset, now, embedder: input.embedder });
  const items = await describeItems({ store, items: retrieval.items });
  if (input.recordAccess) {
    const entities = items.flatMap((i) => (i.kind === 'entity' ? [i.entity] : []));
    await recordRetrieval({ store, entities, now, onWarning: input.onWarning });
  }
  return {
    plan,
    items,
    lanes: summarizeLanes(retrieval.lanes),
  };
}
