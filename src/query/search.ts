import type { Embedder } from '../ports/embedder.js';
import { recordRetrieval } from '../metabolism/tasks/stale-review.js';
import type { WorldStore } from '../ports/world-store.js';
import { PieError } from '../domain/errors.js';
import { itemKey } from './fusion.js';
import { describeItems, type DescribedItem } from './items.js';
import { planQuery } from './plan.js';
import { PRESETS } from './presets.js';
import { retrieve, summarizeLanes, type LaneSummary } from './retrieve.js';
import type { Entity } from '../domain/world.js';
import type { QueryPlan, RankedItem } from './types.js';

export interface SearchResult {
  plan: QueryPlan;
  /** The entities the text names (the plan's), most specific first. */
  named: Entity[];
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
  /**
   * Whether the entities the text names lead the list (default); the HTTP search shows them as cards above it
   * instead, so its list stays the fused ranking.
   */
  namedFirst?: boolean;
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
  const named = await store.entities.getMany(plan.entityIds);
  const ranked = input.namedFirst === false ? retrieval.items : leadWithNamed(retrieval.items, named, input.limit);
  const items = await describeItems({ store, items: ranked });
  if (input.recordAccess) {
    const entities = items.flatMap((i) => (i.kind === 'entity' ? [i.entity] : []));
    await recordRetrieval({ store, entities, now, onWarning: input.onWarning });
  }
  return {
    plan,
    named,
    items,
    lanes: summarizeLanes(retrieval.lanes),
  };
}

/**
 * The entities the search text names lead the list, in the plan's order (most specific first), then the fused list
 * without them, cut at `limit`: searching "Doctor Who" shows the show first, not ten turns about doctors (the lanes
 * rank an entity that few turns mention below them, and the graph lane brings only its neighbours). Pure.
 */
export function leadWithNamed(items: readonly RankedItem[], named: readonly Entity[], limit: number): RankedItem[] {
  const top = Math.max(0, ...items.map((i) => i.score));
  const lead = named.map((e): RankedItem => {
    const ref = { kind: 'entity', id: e.id } as const;
    return (
      items.find((i) => i.key === itemKey(ref)) ?? {
        key: itemKey(ref),
        ref,
        score: top,
        rrf: 0,
        importance: e.importance,
        time: e.lastSeen,
        recency: 0,
        lanes: ['lexical'],
      }
    );
  });
  const ids = new Set(named.map((e) => e.id));
  const rest = items.filter((i) => !(i.ref.kind === 'entity' && ids.has(i.ref.id)));
  return [...lead, ...rest].slice(0, limit);
}
