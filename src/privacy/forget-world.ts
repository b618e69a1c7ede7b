import { isDeepStrictEqual } from 'node:util';
import { compositeRowId, type MaintainedTable } from '../ports/maintenance-store.js';
import type { ForgetRepairs, ForgetScan, ForgetSeeds, ScannedEntity } from '../ports/forget-store.js';
import { SELF_ID } from '../world/apply-batch.js';
import { repairFacts, stateAfter, type FactRepair } from './forget-facts.js';

/**
 * What a forget does to the world model, decided from the rows a scan read (pure): which entities go because
 * everything they came from goes, which stay because another source holds them, and how what stays is re-derived.
 */

type EntityRepair = ForgetRepairs['entities'][number];

export interface KeptEntity {
  entity: ScannedEntity;
  /** Conversations (and a hand-made record, counted as one) that still hold it. */
  otherSources: number;
}

export interface WorldPlan {
  gone: ScannedEntity[];
  /** Entities that lose something and stay. */
  kept: KeptEntity[];
  transitionIds: string[];
  factIds: string[];
  relationshipIds: string[];
  mentions: { entityId: string; episodeId: string }[];
  aliases: { entityId: string; normalized: string; alias: string }[];
  repairs: { facts: FactRepair[]; reopenedTransitions: string[]; entities: EntityRepair[] };
  /** Rows removed or changed, as the undo journal names them. */
  touched: { table: MaintainedTable; rowId: string }[];
  /** Conversations that stay and still name an entity that goes (an entity forget leaves their words alone). */
  stillNamedIn: number;
}

/** The scan's facts about what goes regardless of entities: conversations, and rows holding the text. */
interface Context {
  episodes: ReadonlySet<string>;
  transitions: ReadonlySet<string>;
  facts: ReadonlySet<string>;
  relationships: ReadonlySet<string>;
}

function contextOf(seeds: ForgetSeeds, scan: ForgetScan): Context {
  return {
    episodes: new Set(seeds.episodeIds),
    transitions: new Set(scan.text.transitions),
    facts: new Set(scan.text.facts),
    relationships: new Set(scan.text.relationships),
  };
}

/** Never removed as a consequence: the user (SELF_ID) and the protected structures of KIP's core schema. */
export function keptAlways(e: Pick<ScannedEntity, 'id' | 'protected'>): boolean {
  return e.id === SELF_ID || e.protected;
}

/** The conversations that still hold the entity once the forget is done (+1 when it was written by hand). */
function otherSources(e: ScannedEntity, c: Context): number {
  const stays = (episodeId: string | null, id: string, removed: ReadonlySet<string>): boolean =>
    episodeId !== null && !c.episodes.has(episodeId) && !removed.has(id);
  const episodes = new Set<string>();
  for (const m of e.mentions) if (!c.episodes.has(m.episodeId)) episodes.add(m.episodeId);
  for (const t of e.transitions) if (stays(t.episodeId, t.id, c.transitions)) episodes.add(t.episodeId ?? '');
  for (const f of e.facts) if (stays(f.episodeId, f.id, c.facts)) episodes.add(f.episodeId ?? '');
  for (const r of e.relationships) if (stays(r.episodeId, r.id, c.relationships)) episodes.add(r.episodeId ?? '');
  return episodes.size + (e.madeByHand ? 1 : 0);
}

/** Whether anything the entity came from goes: a forgotten conversation, or a row holding the forgotten text. */
function linked(e: ScannedEntity, c: Context): boolean {
  const from = (episodeId: string | null): boolean => episodeId !== null && c.episodes.has(episodeId);
  return (
    from(e.createdFrom) ||
    e.mentions.some((m) => from(m.episodeId)) ||
    e.transitions.some((t) => from(t.episodeId) || c.transitions.has(t.id)) ||
    e.facts.some((f) => from(f.episodeId) || c.facts.has(f.id)) ||
    e.relationships.some((r) => from(r.episodeId) || c.relationships.has(r.id))
  );
}

/**
 * The entities that go: those named (a seed, or a name holding the forgotten text), those linked to what goes and
 * held by nothing else, and those merged into an entity that goes (their names live on as its aliases).
 */
export function entitiesGone(seeds: ForgetSeeds, scan: ForgetScan): Set<string> {
  const c = contextOf(seeds, scan);
  const named = new Set([...seeds.entityIds, ...scan.text.entities]);
  const gone = new Set<string>();
  for (const e of scan.entities) {
    if (keptAlways(e)) continue;
    if (named.has(e.id) || (linked(e, c) && otherSources(e, c) === 0)) gone.add(e.id);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const e of scan.entities) {
      if (gone.has(e.id) || keptAlways(e) || e.mergedInto === null || !gone.has(e.mergedInto)) continue;
      gone.add(e.id);
      grew = true;
    }
  }
  return gone;
}

/**
 * Every world row the forget removes and every repair of what stays. `dropAliases` are aliases of entities that
 * stay which only the forgotten text held ("entityId\u001fnormalized").
 */
export function planWorld(input: {
  seeds: ForgetSeeds;
  scan: ForgetScan;
  gone: ReadonlySet<string>;
  dropAliases: ReadonlySet<string>;
}): WorldPlan {
  const { seeds, scan, gone } = input;
  const c = contextOf(seeds, scan);
  const plan: WorldPlan = {
    gone: [],
    kept: [],
    transitionIds: [],
    factIds: [],
    relationshipIds: [...scan.text.relationships],
    mentions: [],
    aliases: [],
    repairs: { facts: [], reopenedTransitions: [], entities: [] },
    touched: [],
    stillNamedIn: 0,
  };
  const relationships = new Set(plan.relationshipIds);
  const textAliases = new Set(scan.text.aliases.map((a) => compositeRowId([a.entityId, a.normalized])));
  const stillNaming = new Set<string>();
  const removals = scan.entities.map((e) => {
    const all = gone.has(e.id);
    const removal = {
      e,
      all,
      transitions: e.transitions.filter((t) => all || fromForgotten(t.episodeId, c) || c.transitions.has(t.id)),
      facts: e.facts.filter((f) => all || fromForgotten(f.episodeId, c) || c.facts.has(f.id)),
      mentions: e.mentions.filter((m) => all || c.episodes.has(m.episodeId)),
      aliases: e.aliases.filter((a) => {
        const key = compositeRowId([e.id, a.normalized]);
        return all || textAliases.has(key) || input.dropAliases.has(key);
      }),
    };
    for (const r of e.relationships) if (all || fromForgotten(r.episodeId, c)) relationships.add(r.id);
    plan.transitionIds.push(...removal.transitions.map((t) => t.id));
    plan.factIds.push(...removal.facts.map((f) => f.id));
    plan.mentions.push(...removal.mentions.map((m) => ({ entityId: e.id, episodeId: m.episodeId })));
    plan.aliases.push(...removal.aliases.map((a) => ({ entityId: e.id, normalized: a.normalized, alias: a.alias })));
    return removal;
  });
  const removedTransitions = new Set(plan.transitionIds);
  for (const { e, all, transitions, facts, mentions, aliases } of removals) {
    if (all) {
      plan.gone.push(e);
      for (const m of e.mentions) if (!c.episodes.has(m.episodeId)) stillNaming.add(m.episodeId);
      continue;
    }
    const repair = repairEntity(e, { c, removedFacts: new Set(facts.map((f) => f.id)), removedTransitions });
    plan.repairs.facts.push(...repair.facts);
    plan.repairs.reopenedTransitions.push(...repair.reopened);
    if (repair.entity) plan.repairs.entities.push(repair.entity);
    const loses = transitions.length + facts.length + mentions.length + aliases.length > 0;
    if (loses || repair.entity || e.relationships.some((r) => relationships.has(r.id))) {
      plan.kept.push({ entity: e, otherSources: otherSources(e, c) });
    }
  }
  plan.relationshipIds = [...relationships];
  plan.stillNamedIn = stillNaming.size;
  plan.touched = touchedRows(plan);
  return plan;
}

const fromForgotten = (episodeId: string | null, c: Context): boolean =>
  episodeId !== null && c.episodes.has(episodeId);

/** An entity that stays, re-derived from what remains: facts re-linked, state, when it was seen, where it began. */
function repairEntity(
  e: ScannedEntity,
  input: { c: Context; removedFacts: ReadonlySet<string>; removedTransitions: ReadonlySet<string> },
): { facts: FactRepair[]; reopened: string[]; entity: EntityRepair | null } {
  const facts = repairFacts(e.facts, input.removedFacts);
  const reopened = e.transitions
    .filter((t) => !input.removedTransitions.has(t.id) && t.resolvedBy !== null)
    .filter((t) => input.removedTransitions.has(t.resolvedBy ?? ''))
    .map((t) => t.id);
  const state = stateAfter({ state: e.state, facts: e.facts, removed: input.removedFacts, repairs: facts });
  const remaining = e.mentions.filter((m) => !input.c.episodes.has(m.episodeId));
  const lostMention = remaining.length < e.mentions.length;
  const times = remaining.map((m) => m.time);
  const firstSeen = lostMention && times.length > 0 ? Math.min(...times) : e.firstSeen;
  const lastSeen = lostMention && times.length > 0 ? Math.max(...times) : e.lastSeen;
  const createdFrom = fromForgotten(e.createdFrom, input.c) ? (remaining[0]?.episodeId ?? null) : e.createdFrom;
  const changed =
    !isDeepStrictEqual(state, e.state) ||
    firstSeen !== e.firstSeen ||
    lastSeen !== e.lastSeen ||
    createdFrom !== e.createdFrom;
  return { facts, reopened, entity: changed ? { id: e.id, state, firstSeen, lastSeen, createdFrom } : null };
}

function touchedRows(plan: WorldPlan): WorldPlan['touched'] {
  const rows: WorldPlan['touched'] = [];
  const add = (table: MaintainedTable, ids: readonly string[]): void => {
    for (const rowId of ids) rows.push({ table, rowId });
  };
  add('entities', [...plan.gone.map((e) => e.id), ...plan.repairs.entities.map((e) => e.id)]);
  add(
    'periods',
    plan.gone.map((e) => e.id),
  );
  add('transitions', [...plan.transitionIds, ...plan.repairs.reopenedTransitions]);
  add('facts', [...plan.factIds, ...plan.repairs.facts.map((f) => f.id)]);
  add('relationships', plan.relationshipIds);
  add(
    'entity_mentions',
    plan.mentions.map((m) => compositeRowId([m.entityId, m.episodeId])),
  );
  add(
    'entity_aliases',
    plan.aliases.map((a) => compositeRowId([a.entityId, a.normalized])),
  );
  return rows;
}
