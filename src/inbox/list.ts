import { auditWorld } from '../audit/audit.js';
import type { Finding } from '../audit/detectors.js';
import type { Entity, EntityState, Transition } from '../domain/world.js';
import { sameValue } from '../metabolism/contradictions.js';
import { keptApartIds } from '../metabolism/duplicates.js';
import type { SleepTask } from '../ports/sleep-task-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { listContradictions, type Contradiction } from '../query/world-at/contradictions.js';
import { loadSources, refOf, type EntityRef, type SourceRef } from '../query/world-at/refs.js';
import { ACTIONABLE_TASK_STATUSES } from './run.js';
import { suggestedCanonical } from './merge.js';

/** One side of a contradiction: what was claimed, when, and in which conversation. */
export interface Claim {
  /** The attribute values claimed (state contradictions). */
  state: EntityState | null;
  /** The belief that claims it (two conflicting beliefs). */
  entity: EntityRef | null;
  time: number | null;
  source: SourceRef | null;
  summary: string | null;
}

export interface InboxContradiction {
  /** state: a contradiction transition (`id`); edge: two beliefs linked by CONTRADICTS (`id` is the edge). */
  kind: 'state' | 'edge';
  id: string;
  entity: EntityRef;
  /** The belief recorded as contradicting it, when there is one. */
  other: EntityRef | null;
  summary: string;
  older: Claim;
  newer: Claim;
}

export interface PairSide extends EntityRef {
  aliases: string[];
  state: EntityState;
  firstSeen: number;
  lastSeen: number;
  source: SourceRef | null;
}

export interface InboxMerge {
  a: PairSide;
  b: PairSide;
  /** The entity a merge keeps (the sleep cycle's rule); the other becomes its alias. */
  into: string;
  why: string;
  taskId: string;
  status: SleepTask['status'];
  attempts: number;
  since: number;
}

export interface InboxTask {
  id: string;
  action: SleepTask['action'];
  reason: string;
  status: SleepTask['status'];
  attempts: number;
  result: string | null;
  priority: number;
  createdAt: number;
  subjects: EntityRef[];
}

/** A page of a section: `limit` items from `offset`. */
export interface PageInput {
  store: WorldStore;
  offset: number;
  limit: number;
}

export interface Section<T> {
  total: number;
  items: T[];
}

/** The actions whose tasks the inbox shows in their own sections (contradictions and merge pairs). */
const OWN_SECTIONS = new Set<SleepTask['action']>(['merge_duplicates', 'resolve_contradiction']);
const TASKS_READ = 10_000;

async function actionableTasks(store: WorldStore): Promise<SleepTask[]> {
  return store.tasks.list({ statuses: ACTIONABLE_TASK_STATUSES, limit: TASKS_READ });
}

/** The change that stated a value before `c`: the latest earlier change (or fact) of the entity that set it. */
async function olderClaim(store: WorldStore, c: Transition, history: readonly Transition[]): Promise<Claim> {
  const state =
    c.fromState === null ? null : Object.fromEntries(Object.keys(c.toState).map((k) => [k, c.fromState?.[k] ?? null]));
  const [attribute] = Object.keys(c.toState);
  const value = attribute === undefined ? undefined : c.fromState?.[attribute];
  const index = history.findIndex((t) => t.id === c.id);
  const earlier = (
    index < 0 ? history.filter((t) => t.eventTime <= c.eventTime && t.id !== c.id) : history.slice(0, index)
  )
    .filter(
      (t) =>
        t.kind !== 'resolution' &&
        attribute !== undefined &&
        attribute in t.toState &&
        sameValue(t.toState[attribute], value),
    )
    .at(-1);
  const fact =
    earlier === undefined && attribute !== undefined
      ? (await store.facts.history(c.entityId, attribute))
          .filter((f) => f.validFrom <= c.eventTime && sameValue(f.value, value))
          .at(-1)
      : undefined;
  // Neither a change nor a fact stated it (the extraction inferred the older value): where the entity was first seen.
  const creation = earlier === undefined && fact === undefined ? history.find((t) => t.kind === 'creation') : undefined;
  const from = earlier ?? creation;
  const time = from?.eventTime ?? fact?.validFrom ?? null;
  const episodeId = from?.episodeId ?? fact?.episodeId ?? null;
  const source = episodeId === null ? null : ((await loadSources({ store, ids: [episodeId] })).get(episodeId) ?? null);
  return { state, entity: null, time, source, summary: from?.summary ?? null };
}

async function contradictionItem(store: WorldStore, c: Contradiction): Promise<InboxContradiction | null> {
  if (c.kind === 'state') {
    const [t] = await store.transitions.getMany([c.transitionId]);
    if (t === undefined) return null;
    const history = await store.transitions.forEntity(t.entityId);
    return {
      kind: 'state',
      id: c.transitionId,
      entity: c.entity,
      other: c.contradictedBy,
      summary: c.summary,
      older: await olderClaim(store, t, history),
      newer: { state: c.to, entity: null, time: c.time, source: c.source, summary: c.summary },
    };
  }
  const [older] = await store.entities.getMany([c.target.id]);
  const source = older?.createdFrom
    ? ((await loadSources({ store, ids: [older.createdFrom] })).get(older.createdFrom) ?? null)
    : null;
  return {
    kind: 'edge',
    id: c.relationshipId,
    entity: c.target,
    other: c.source,
    summary: `"${c.source.name}" contradicts "${c.target.name}"`,
    older: { state: null, entity: c.target, time: older?.firstSeen ?? null, source, summary: null },
    newer: { state: null, entity: c.source, time: c.time, source: c.episode, summary: null },
  };
}

/** Open contradictions, newest first (listContradictions), each with both claims and their sources. */
export async function inboxContradictions(input: PageInput): Promise<Section<InboxContradiction>> {
  const open = await listContradictions({ store: input.store });
  const items: InboxContradiction[] = [];
  for (const c of open.slice(input.offset, input.offset + input.limit)) {
    const item = await contradictionItem(input.store, c);
    if (item !== null) items.push(item);
  }
  return { total: open.length, items };
}

async function side(store: WorldStore, e: Entity): Promise<PairSide> {
  const episodeId = e.createdFrom ?? (await store.mentions.forEntity(e.id))[0]?.episodeId ?? null;
  const source = episodeId === null ? null : ((await loadSources({ store, ids: [episodeId] })).get(episodeId) ?? null);
  return { ...refOf(e), aliases: e.aliases, state: e.state, firstSeen: e.firstSeen, lastSeen: e.lastSeen, source };
}

/** The two live (not merged, not kept apart) entities of a merge task, or null. */
async function livePair(store: WorldStore, task: SleepTask): Promise<[Entity, Entity] | null> {
  const [x, y] = task.subjectIds;
  if (x === undefined || y === undefined) return null;
  const pair = await store.entities.getMany([x, y]);
  if (pair.length !== 2) return null;
  for (const e of pair) {
    const row = await store.upkeep.getRow({ table: 'entities', id: e.id });
    if (row?.merged_into !== null && row?.merged_into !== undefined) return null;
  }
  const [a, b] = pair as [Entity, Entity];
  if (keptApartIds(a.meta).includes(b.id) || keptApartIds(b.meta).includes(a.id)) return null;
  return [a, b];
}

/** Merge pairs left for review: merge_duplicates tasks (open, or given up by the cycle) whose two entities are live. */
export async function inboxMerges(input: PageInput): Promise<Section<InboxMerge>> {
  const { store } = input;
  const live: [SleepTask, [Entity, Entity]][] = [];
  for (const task of await actionableTasks(store)) {
    if (task.action !== 'merge_duplicates') continue;
    const pair = await livePair(store, task);
    if (pair !== null) live.push([task, pair]);
  }
  const items: InboxMerge[] = [];
  for (const [task, [a, b]] of live.slice(input.offset, input.offset + input.limit)) {
    items.push({
      a: await side(store, a),
      b: await side(store, b),
      into: (await suggestedCanonical(store, a, b)).id,
      why: task.result !== null && task.status === 'failed' ? `${task.reason}. ${task.result}` : task.reason,
      taskId: task.id,
      status: task.status,
      attempts: task.attempts,
      since: task.createdAt,
    });
  }
  return { total: live.length, items };
}

/** The other sleep tasks waiting (review a low-confidence fact, a stale entity), highest priority first. */
export async function inboxTasks(input: PageInput): Promise<Section<InboxTask>> {
  const { store } = input;
  const tasks = (await actionableTasks(store)).filter((t) => !OWN_SECTIONS.has(t.action));
  const items: InboxTask[] = [];
  for (const t of tasks.slice(input.offset, input.offset + input.limit)) {
    items.push({
      id: t.id,
      action: t.action,
      reason: t.reason,
      status: t.status,
      attempts: t.attempts,
      result: t.result,
      priority: t.priority,
      createdAt: t.createdAt,
      subjects: (await store.entities.getMany(t.subjectIds)).map((e) => refOf(e)),
    });
  }
  return { total: tasks.length, items };
}

/** The audit's findings, less the likely duplicates already listed as merge pairs. */
export async function inboxAudit(input: PageInput & { now: number }): Promise<Section<Finding> & { entities: number }> {
  const { store } = input;
  const report = await auditWorld({ store, now: input.now });
  const pairs = new Set<string>();
  for (const t of await actionableTasks(store)) {
    if (t.action === 'merge_duplicates') pairs.add([...t.subjectIds].sort().join('|'));
  }
  const findings = report.findings.filter(
    (f) => f.other === undefined || !pairs.has([f.entity.id, f.other.id].sort().join('|')),
  );
  return {
    entities: report.entities,
    total: findings.length,
    items: findings.slice(input.offset, input.offset + input.limit),
  };
}

/** The counts of the three sections (what the navigation shows; the audit, which reads every entity, is left out). */
export async function inboxCounts(
  store: WorldStore,
): Promise<{ contradictions: number; merges: number; tasks: number }> {
  const tasks = await actionableTasks(store);
  const merges = tasks.filter((t) => t.action === 'merge_duplicates');
  let live = 0;
  for (const t of merges) if ((await livePair(store, t)) !== null) live += 1;
  return {
    contradictions: (await listContradictions({ store })).length,
    merges: live,
    tasks: tasks.filter((t) => !OWN_SECTIONS.has(t.action)).length,
  };
}
