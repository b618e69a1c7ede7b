import type { Entity, Procedure, Transition } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import { questionKeywords } from '../keywords.js';
import type { QueryPlan, RankedItem, Subgraph, SubgraphEntity } from '../types.js';
import { DEFAULT_BLOCK, loadEntityBlock, type BlockOptions } from './entity-block.js';
import { loadExcerpts } from './excerpts.js';
import { looseEvents, type LooseContext } from './loose-events.js';
import { findPaths } from './paths.js';

export interface SubgraphLimits {
  entities: number;
  excerpts: number;
  linesPerExcerpt: number;
  events: number;
  procedures: number;
  contradictions: number;
}

export const DEFAULT_LIMITS: SubgraphLimits = {
  entities: 8,
  excerpts: 8,
  linesPerExcerpt: 3,
  events: 20,
  procedures: 8,
  contradictions: 20,
};

/**
 * The part of the world a question needs (pie-architecture "Query Layer"): each intent retrieves its own
 * subgraph — transitions in range, current state with neighbours, procedures, paths between two entities,
 * contradictions — and the fused hybrid retrieval fills in the evidence around it (or is all of it, for general
 * questions).
 */
export async function buildSubgraph(input: {
  store: WorldStore;
  plan: QueryPlan;
  items: readonly RankedItem[];
  limits?: SubgraphLimits;
}): Promise<Subgraph> {
  const { store, plan, items } = input;
  const limits = input.limits ?? DEFAULT_LIMITS;
  const range = spanOf(plan);
  const options: BlockOptions = { ...DEFAULT_BLOCK, history: plan.wantsHistory, range };
  const sub: Subgraph = { entities: [], procedures: [], contradictions: [], paths: [], excerpts: [], events: [] };

  // Independent reads run side by side (a server store's pool runs them at once).
  const [named, fusedEntities] = await Promise.all([
    store.entities.getMany(plan.entityIds),
    store.entities.getMany(items.flatMap((i) => (i.ref.kind === 'entity' ? [i.ref.id] : []))),
  ]);
  const focus: Entity[] = [...named];
  if (plan.intent === 'contradiction') {
    sub.contradictions = await store.transitions.list({
      unresolved: true,
      ...(named.length > 0 ? { entityIds: named.map((e) => e.id) } : {}),
      order: 'desc',
      limit: limits.contradictions,
    });
    focus.push(...(await store.entities.getMany(sub.contradictions.map((t) => t.entityId))));
  }
  if (plan.intent === 'procedural') sub.procedures = pickProcedures(await store.procedures.list(), plan, limits);
  if (plan.intent === 'relationship' && named.length >= 2) {
    const [a, b] = inQuestionOrder(plan.question, named) as [Entity, Entity];
    const search = { store, from: a.id, to: b.id, maxHops: 4, maxPaths: 3, includeEnded: true };
    // Periods connect everything that happened in them: a path through one is the fallback, not the answer.
    sub.paths = await findPaths({ ...search, avoidTypes: ['period'] });
    if (sub.paths.length === 0) sub.paths = await findPaths(search);
  }

  const shownEntities = uniqueById([...focus, ...fusedEntities])
    .filter((entity) => !(entity.tier === 'archived' && !plan.entityIds.includes(entity.id)))
    // Periods anchor every time in the context already; they are not things the question is about.
    .filter((entity) => entity.type !== 'period')
    .slice(0, limits.entities);
  // Loaded together: on a server store each block is a few round trips, and the pool runs them side by side, with
  // the fused events and the excerpts, which do not depend on the blocks.
  const [blocks, events, excerpts] = await Promise.all([
    Promise.all(shownEntities.map((entity) => loadEntityBlock({ store, entity, options }))),
    store.transitions.getMany(items.flatMap((i) => (i.ref.kind === 'transition' ? [i.ref.id] : []))),
    loadExcerpts({
      store,
      items: range ? preferInRange(items, range) : items,
      maxEpisodes: limits.excerpts,
      maxLines: limits.linesPerExcerpt,
    }),
  ]);
  sub.entities.push(...blocks);

  const shown = new Set(sub.entities.flatMap((b) => b.transitions.map((t) => t.id)));
  sub.events = events
    .filter((t) => !shown.has(t.id) && (!range || (t.eventTime >= range.start && t.eventTime < range.end)))
    .filter((t) => plan.wantsHistory || isCurrent(t, sub.entities))
    .slice(0, limits.events)
    .sort((a, b) => a.eventTime - b.eventTime);
  sub.events = await namedLooseEvents(store, sub.events, plan, {
    blocks: new Set(sub.entities.map((b) => b.entity.id)),
    namedNames: named.map((e) => e.name),
  });
  sub.excerpts = excerpts;
  return sub;
}

async function namedLooseEvents(
  store: WorldStore,
  events: Transition[],
  plan: QueryPlan,
  context: LooseContext,
): Promise<Transition[]> {
  // Every change's entity: a creation leads with its name and type, any other change names whose it is.
  const ids = events.map((t) => t.entityId);
  if (ids.length === 0) return events;
  const entities = new Map((await store.entities.getMany([...new Set(ids)])).map((e) => [e.id, e]));
  return looseEvents(events, entities, plan, context);
}

/**
 * Evidence inside the question's time span comes first; outside it only when the span has too little (fewer than
 * three items), so a question about "last spring" is not answered from last winter's conversations.
 */
function preferInRange(items: readonly RankedItem[], range: { start: number; end: number }): RankedItem[] {
  const inside = items.filter((i) => i.time !== null && i.time >= range.start && i.time < range.end);
  return inside.length >= 3 ? inside : [...inside, ...items.filter((i) => !inside.includes(i))];
}

/** Entities in the order the question names them (by first name or alias occurrence). */
function inQuestionOrder(question: string, entities: readonly Entity[]): Entity[] {
  const q = question.toLowerCase();
  const at = (e: Entity) => {
    const found = [e.name, ...e.aliases].map((n) => q.indexOf(n.toLowerCase())).filter((i) => i >= 0);
    return found.length > 0 ? Math.min(...found) : Number.MAX_SAFE_INTEGER;
  };
  return [...entities].sort((x, y) => at(x) - at(y));
}

/** The smallest span covering every time reference, or none. */
function spanOf(plan: QueryPlan): { start: number; end: number } | undefined {
  if (plan.timeRanges.length === 0) return undefined;
  return {
    start: Math.min(...plan.timeRanges.map((r) => r.start)),
    end: Math.max(...plan.timeRanges.map((r) => r.end)),
  };
}

function uniqueById(entities: readonly Entity[]): Entity[] {
  const seen = new Set<string>();
  return entities.filter((e) => (seen.has(e.id) ? false : (seen.add(e.id), true)));
}

/**
 * In current mode a transition stands on its own only if no later change of its entity is already shown
 * (a superseded change is history).
 */
function isCurrent(t: Transition, blocks: readonly SubgraphEntity[]): boolean {
  const block = blocks.find((b) => b.entity.id === t.entityId);
  return !block || !block.transitions.some((o) => o.eventTime > t.eventTime);
}

/** Procedures whose domain or description shares words with the question; all when none does. */
function pickProcedures(all: readonly Procedure[], plan: QueryPlan, limits: SubgraphLimits): Procedure[] {
  const words = questionKeywords(plan.question).map((w) => w.toLowerCase());
  const scored = all.map((p) => {
    const text = `${p.domain ?? ''} ${p.description} ${p.pattern.join(' ')}`.toLowerCase();
    return { p, s: words.filter((w) => text.includes(w)).length };
  });
  const matching = scored.filter((x) => x.s > 0);
  const pool = matching.length > 0 ? matching : scored;
  return pool
    .sort((a, b) => b.s - a.s || b.p.timesObserved - a.p.timesObserved)
    .slice(0, limits.procedures)
    .map((x) => x.p);
}
