import { isBareCreation, SELF_ID, type Fact, type Period, type Relationship } from '../domain/world.js';
import type { ExtractionResult } from '../extract/result.js';
import type { WorldStore } from '../ports/world-store.js';
import type { NameIndex } from '../resolve/name-index.js';
import type { Resolver, ResolutionLayer } from '../resolve/resolver.js';
import type { PlanInput } from './apply/context.js';
import { executeMutations } from './apply/execute.js';
import { countByOp, type Mutation, type MutationOp } from './apply/mutations.js';
import { planApply } from './apply/plan.js';
import type { EntitySnapshot, NameRef, WorldSlice } from './apply/working-set.js';
import { sleepTasksFromApply } from './apply/sleep-tasks.js';
import { resolveNames } from './resolve-names.js';
import { resolvedRef } from './apply/context.js';
import { keyOf } from './apply/plan-relationships.js';
import { periodsToldLate, planLateDuring } from './apply/plan-period.js';

/** The user's own entity: fixed id (SELF_ID, in the domain), created on first reference. */
export { SELF_ID };
export const SELF_NAME = 'User';

export interface ApplyReport {
  mutations: Partial<Record<MutationOp, number>>;
  resolution: Partial<Record<ResolutionLayer, number>>;
  ambiguous: { name: string; candidates: string[] }[];
  bareEpisodes: number;
}

/**
 * Applies one ExtractionResult to the world: resolves every name (outside the write transaction, since the last
 * layer may ask a model), then in one transaction makes sure its episodes exist, reads the slice of the world it
 * touches, plans the mutations (pure rules), writes them and the caller's checkpoint.
 */
export async function applyExtraction(input: {
  store: WorldStore;
  result: ExtractionResult;
  resolver: Resolver;
  index: NameIndex;
  recordedAt: number;
  newId: () => string;
  /** Writes that must commit together with the result (the batch checkpoint), given what the batch changed. */
  checkpoint?: (
    tx: WorldStore,
    applied: { mutations: readonly Mutation[]; episodeTimes: ReadonlyMap<string, number> },
  ) => Promise<void>;
}): Promise<ApplyReport> {
  const { result } = input;
  // Resolution may ask a model (the verifier): it runs before the write transaction, never inside it.
  const names = await resolveNames({ result, resolver: input.resolver, index: input.index, newId: input.newId });
  return input.store.transaction(async (tx) => {
    const bareEpisodes = await ensureEpisodes(tx, result, input.recordedAt);
    const self = await tx.entities.get(SELF_ID);
    const selfRef: NameRef = { id: SELF_ID, type: 'person', name: self?.name ?? SELF_NAME, isNew: !self, aliases: [] };
    const episodeTimes = new Map<string, number>();
    const episodeTitles = new Map<string, string>();
    for (const id of result.batch.episodeIds) {
      const episode = await tx.episodes.get(id);
      if (episode) {
        episodeTimes.set(id, episode.createdAt);
        episodeTitles.set(id, episode.title);
      }
    }
    const open = await loadSlice(tx, [...names.refs.values(), selfRef]);
    const earliest = Math.min(...episodeTimes.values());
    const during = await loadLateCreations(tx, open, earliest);
    const reported = reportedEdges(result, (name) => resolvedRef(name, names.refs, selfRef));
    const ended = await loadEndedEdges(tx, reported, open);
    const closed = await loadClosedFacts(tx, open, earliest);
    const history = await loadEdgeHistory(tx, reported, { ...open, ended }, earliest);
    const slice: WorldSlice = { ...open, ended, closed, history, during };
    const planInput: PlanInput = {
      result,
      refs: names.refs,
      episodeTimes,
      episodeTitles,
      batchTime: Date.parse(result.batch.date),
      recordedAt: input.recordedAt,
      selfRef,
      newId: input.newId,
    };
    const planned = planApply(planInput, slice);
    await executeMutations({ tx, mutations: planned, recordedAt: input.recordedAt });
    const late = await planPeriodsToldLate(tx, planned, open.periods, input);
    await executeMutations({ tx, mutations: late, recordedAt: input.recordedAt });
    const mutations = [...planned, ...late];
    for (const task of sleepTasksFromApply({
      mutations,
      ambiguous: names.ambiguous,
      now: input.recordedAt,
      newId: input.newId,
    })) {
      await tx.tasks.leave(task);
    }
    await input.checkpoint?.(tx, { mutations, episodeTimes });
    if (selfRef.isNew && mutations.some((m) => m.op === 'entity.insert' && m.entity.id === SELF_ID)) {
      input.index.add({ id: SELF_ID, type: 'person', name: SELF_NAME, aliases: [], fixedName: true });
    }
    return {
      mutations: countByOp(mutations),
      resolution: names.layers,
      ambiguous: names.ambiguous.map((a) => ({ name: a.name, candidates: a.candidates })),
      bareEpisodes,
    };
  });
}

/**
 * After the batch is written: the DURING links a period it made (or started earlier) owes the entities first seen
 * inside it before it was known (none read when no period row is new or starts earlier: in date order, rarely).
 */
async function planPeriodsToldLate(
  tx: WorldStore,
  planned: readonly Mutation[],
  known: ReadonlyMap<string, Period>,
  input: { recordedAt: number; newId: () => string },
): Promise<Mutation[]> {
  const upserts = planned.flatMap((m) => (m.op === 'period.upsert' ? [m.period] : []));
  const told = periodsToldLate(upserts, known);
  if (told.length === 0) return [];
  const found = new Map<string, { id: string; firstSeen: number }>();
  for (const t of told) {
    for (const e of await tx.entities.withoutEdge({ edgeType: 'DURING', since: t.since, until: t.until })) {
      found.set(e.id, e);
    }
  }
  if (found.size === 0) return [];
  const creations = await tx.transitions.list({ entityIds: [...found.keys()], kind: 'creation' });
  const episodeOf = new Map(creations.map((c) => [c.entityId, c.episodeId]));
  return planLateDuring({
    told,
    periods: await tx.periods.list(),
    unlinked: [...found.values()].map((e) => ({ ...e, episodeId: episodeOf.get(e.id) ?? null })),
    recordedAt: input.recordedAt,
    newId: input.newId,
  });
}

/** Episodes a result names that PIE has not imported are created as bare episodes at the batch date. */
async function ensureEpisodes(tx: WorldStore, result: ExtractionResult, recordedAt: number): Promise<number> {
  let created = 0;
  const time = Date.parse(result.batch.date);
  for (const id of result.batch.episodeIds) {
    if (await tx.episodes.get(id)) continue;
    const annotation = result.episodes.find((e) => e.id === id);
    await tx.episodes.upsert({
      conversation: {
        source: 'apply',
        externalId: id.startsWith('apply:') ? id.slice('apply:'.length) : id,
        title: annotation?.summary ?? result.summary ?? `Episode ${id}`,
        createdAt: time,
        updatedAt: time,
        model: null,
        turns: [],
      },
      contentHash: `bare:${id}`,
      recordedAt,
      id,
    });
    created++;
  }
  return created;
}

/** An edge the result reports between two known entities. */
interface ReportedEdge {
  sourceId: string;
  type: string;
  targetId: string;
}

/** The result's relationships between two known entities, each edge once, in the order reported. */
function reportedEdges(result: ExtractionResult, refOfName: (name: string) => NameRef | undefined): ReportedEdge[] {
  const edges = new Map<string, ReportedEdge>();
  for (const r of result.relationships) {
    const source = refOfName(r.source);
    const target = refOfName(r.target);
    if (!source || !target || source.isNew || target.isNew) continue;
    const edge = { sourceId: source.id, type: r.type, targetId: target.id };
    if (!edges.has(keyOf(edge))) edges.set(keyOf(edge), edge);
  }
  return [...edges.values()];
}

/**
 * For each reported edge with no open version in the slice: its latest version, when that has ended, so the planner
 * can tell an ending told again from a new one, and an edge told late from before its ending from a new opening.
 */
async function loadEndedEdges(
  tx: WorldStore,
  reported: readonly ReportedEdge[],
  slice: WorldSlice,
): Promise<Relationship[]> {
  const open = new Set(slice.relationships.map(keyOf));
  const ended: Relationship[] = [];
  for (const edge of reported) {
    if (open.has(keyOf(edge))) continue;
    const latest = await tx.relationships.findLatest(edge);
    if (latest && latest.validTo !== null) ended.push(latest);
  }
  return ended;
}

/**
 * The ended versions of each reported edge whose open or latest ended version lies after the batch's earliest
 * conversation (none when extracting new conversations in date order), so the planner knows history told again
 * (recordHistory in plan-relationships.ts).
 */
async function loadEdgeHistory(
  tx: WorldStore,
  reported: readonly ReportedEdge[],
  slice: WorldSlice,
  earliest: number,
): Promise<Relationship[]> {
  const after = new Set<string>();
  for (const r of slice.relationships) if (r.validTo === null && r.validFrom > earliest) after.add(keyOf(r));
  for (const r of slice.ended ?? []) if (r.validTo !== null && r.validTo > earliest) after.add(keyOf(r));
  const out: Relationship[] = [];
  for (const edge of reported) {
    if (!after.has(keyOf(edge))) continue;
    for (const v of await tx.relationships.versions(edge)) if (v.validTo !== null) out.push(v);
  }
  return out;
}

/**
 * The bare creations of the slice's entities recorded after the batch's earliest conversation (one read, and none
 * in date order: an entity is only seen after that conversation when the batch is older than its first mention),
 * so the planner can move them to an earlier mention (WorkingSet.moveCreation); and the DURING links of those
 * entities, which a moved first mention takes along (planPeriod).
 */
async function loadLateCreations(tx: WorldStore, slice: WorldSlice, earliest: number): Promise<Relationship[]> {
  const later = [...slice.entities.values()].filter((e) => e.lastSeen > earliest);
  if (later.length === 0) return [];
  const creations = await tx.transitions.list({
    entityIds: later.map((e) => e.id),
    kind: 'creation',
    since: earliest + 1,
  });
  const late: string[] = [];
  for (const c of creations) {
    const e = slice.entities.get(c.entityId);
    if (e === undefined || e.creation !== undefined || !isBareCreation(c)) continue;
    e.creation = { id: c.id, eventTime: c.eventTime, episodeId: c.episodeId, summary: c.summary };
    late.push(e.id);
  }
  if (late.length === 0) return [];
  const during: Relationship[] = [];
  const periods = await tx.periods.list();
  for (const sourceId of late) {
    for (const p of periods) {
      const d = await tx.relationships.findOpen({ sourceId, targetId: p.entityId, type: 'DURING' });
      if (d) during.push(d);
    }
  }
  return during;
}

/**
 * The closed facts of the slice's entities with a current fact that began after the batch's earliest conversation
 * (none when extracting new conversations in date order): a value an older conversation tells again is then known
 * as history already recorded (WorkingSet.setAttribute).
 */
async function loadClosedFacts(tx: WorldStore, slice: WorldSlice, earliest: number): Promise<Fact[]> {
  const out: Fact[] = [];
  for (const e of slice.entities.values()) {
    if (!e.facts.some((f) => f.validFrom > earliest)) continue;
    for (const f of await tx.facts.history(e.id)) if (f.validTo !== null) out.push(f);
  }
  return out;
}

async function loadSlice(tx: WorldStore, refs: NameRef[]): Promise<WorldSlice> {
  const entities = new Map<string, EntitySnapshot>();
  const ids = new Set<string>();
  for (const ref of refs) {
    if (ref.isNew || ids.has(ref.id)) continue;
    ids.add(ref.id);
    const e = await tx.entities.get(ref.id);
    if (!e) continue;
    const facts = await tx.facts.current(e.id);
    entities.set(e.id, {
      id: e.id,
      type: e.type,
      name: e.name,
      aliases: e.aliases,
      firstSeen: e.firstSeen,
      lastSeen: e.lastSeen,
      state: e.state,
      facts,
    });
  }
  const relationships: Relationship[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    for (const r of await tx.relationships.forEntity(id)) {
      if (seen.has(r.id) || !ids.has(r.sourceId) || !ids.has(r.targetId)) continue;
      seen.add(r.id);
      relationships.push(r);
    }
  }
  const periods = new Map<string, Period>();
  for (const ref of refs) {
    if (ref.type !== 'period' || ref.isNew) continue;
    const p = await tx.periods.get(ref.id);
    if (p) periods.set(ref.id, p);
  }
  return { entities, relationships, periods };
}
