import { isBareCreation, type Entity, type Transition } from '../../domain/world.js';
import { keyCoverage, matchKeys, questionKeywords } from '../keywords.js';
import type { QueryPlan } from '../types.js';

/** What else the context shows: the entities with a block, and the names of those the question names. */
export interface LooseContext {
  blocks: ReadonlySet<string>;
  namedNames: readonly string[];
}

/**
 * The fused changes shown apart from any entity block ("Other relevant changes"). A creation's summary says where
 * the entity was first mentioned, not what it is ("First mentioned in “session 10”"), so it leads with the entity's
 * name and type; and a bare one is kept only for an entity the question names (resolved, or a word of its name or
 * alias in the question) whose block is not shown: the first mention of a place or a period the question never names
 * says nothing about it, and on LoCoMo's small budgets those lines took the room of a turn that held the answer; an
 * entity's block already gives the date it first appeared. A word of the name of an entity the question names does
 * not name another ("Jon's childhood" for "What did Jon say about Gina's store?"). Every other change names its
 * entity too (`whose`). Pure.
 */
export function looseEvents(
  events: readonly Transition[],
  entities: ReadonlyMap<string, Entity>,
  plan: Pick<QueryPlan, 'question' | 'entityIds'>,
  context: LooseContext = { blocks: new Set(), namedNames: [] },
): Transition[] {
  const theirs = new Set(matchKeys(context.namedNames.flatMap((n) => n.split(/\s+/))));
  const asked = matchKeys(questionKeywords(plan.question)).filter((k) => !theirs.has(k));
  const named = (e: Entity) =>
    plan.entityIds.includes(e.id) || [e.name, ...e.aliases].some((n) => keyCoverage(n, asked) > 0);
  return events.flatMap((t) => {
    const e = entities.get(t.entityId);
    if (!e) return t.kind === 'creation' && isBareCreation(t) ? [] : [t];
    if (t.kind !== 'creation') return [{ ...t, summary: whose(e, t.summary) }];
    if (isBareCreation(t) && (!named(e) || context.blocks.has(e.id))) return [];
    return [{ ...t, summary: `${e.name} (${e.type}): ${t.summary}` }];
  });
}

/**
 * A change said with the entity it happened to ("Lucy: Went to see Jay Chou's concert"): shown apart from its
 * entity's block, a line without it leaves the reader to guess whose it is, in a memory where two people talk or
 * where a project and a person both change. A summary that starts with the name or an alias keeps its own words.
 */
function whose(e: Entity, summary: string): string {
  const lower = summary.toLowerCase();
  const starts = [e.name, ...e.aliases].some((n) => n !== '' && lower.startsWith(n.toLowerCase()));
  return starts ? summary : `${e.name}: ${summary}`;
}
