import { isBareCreation, type Entity, type Transition } from '../../domain/world.js';
import { keyCoverage, matchKeys, questionKeywords } from '../keywords.js';
import type { QueryPlan } from '../types.js';

/**
 * The fused changes shown apart from any entity block ("Other relevant changes"). A creation's summary says where
 * the entity was first mentioned, not what it is ("First mentioned in “session 10”"), so it leads with the entity's
 * name and type; and a bare one is kept only for an entity the question names (resolved, or a word of its name or
 * alias in the question): the first mention of a place or a period the question never names says nothing about it,
 * and on LoCoMo's small budgets those lines took the room of a turn that held the answer. Pure.
 */
export function looseEvents(
  events: readonly Transition[],
  entities: ReadonlyMap<string, Entity>,
  plan: Pick<QueryPlan, 'question' | 'entityIds'>,
): Transition[] {
  const asked = matchKeys(questionKeywords(plan.question));
  const named = (e: Entity) =>
    plan.entityIds.includes(e.id) || [e.name, ...e.aliases].some((n) => keyCoverage(n, asked) > 0);
  return events.flatMap((t) => {
    if (t.kind !== 'creation') return [t];
    const e = entities.get(t.entityId);
    if (!e) return isBareCreation(t) ? [] : [t];
    if (isBareCreation(t) && !named(e)) return [];
    return [{ ...t, summary: `${e.name} (${e.type}): ${t.summary}` }];
  });
}
