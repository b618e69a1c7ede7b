import { forgottenKey } from './forgotten-key.js';
import { createHash } from 'node:crypto';
import { PieError } from '../domain/errors.js';
import { lowerAscii, markForgotten, textForms } from '../domain/text-match.js';
import type { ForgetDependents, ForgetScan, ForgetWrite, TurnRef } from '../ports/forget-store.js';
import { compositeRowId } from '../ports/maintenance-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { modelSlug } from '../pyramid/models.js';
import { buildNeedles, candidateWords } from './forget-needles.js';
import { seedsOf, type ForgetTarget } from './forget-target.js';
import { entitiesGone, planWorld, type WorldPlan } from './forget-world.js';

/** What a forget removes, by kind; the same names in text, JSON and the MCP tool. */
export interface ForgetCounts {
  episodes: number;
  turns: number;
  mentions: number;
  facts: number;
  transitions: number;
  relationships: number;
  aliases: number;
  periods: number;
  observations: number;
  summaries: number;
  mentalModels: number;
  insights: number;
  sleepTasks: number;
  procedures: number;
  embeddings: number;
  ftsRows: number;
  cachedAnswers: number;
  journalRows: number;
  ingestRecords: number;
}

export interface EntityRef {
  id: string;
  name: string;
  type: string;
}

export type ForgetTargetView =
  | { kind: 'entity'; asked: string; entity: EntityRef }
  | { kind: 'conversation'; asked: string; conversations: { id: string; title: string; time: number }[] }
  | { kind: 'text'; asked: string; turns: number; conversations: number };

/** A forget, planned: shown before anything goes, applied only while it is still exactly this plan (`id`). */
export interface ForgetPlan {
  /** A digest of everything the plan writes: a plan made on a changed memory gets another id. */
  id: string;
  target: ForgetTargetView;
  counts: ForgetCounts;
  entities: { deleted: EntityRef[]; kept: (EntityRef & { otherSources: number })[] };
  /** What stays and is re-derived. */
  repairs: { facts: number; contradictionsReopened: number; entities: number; conversations: number };
  /** Conversations that stay and still name a forgotten entity (their words are theirs; forget them by text). */
  stillNamedIn: number;
  write: ForgetWrite;
}

const PLAN_ID = /^forget-[0-9a-f]{24}$/;

/** Plans the forget of a resolved target, reading through `store` (the transaction that applies it, or the store). */
export async function buildForgetPlan(input: { store: WorldStore; target: ForgetTarget }): Promise<ForgetPlan> {
  const { store, target } = input;
  const seeds = seedsOf(target);
  const scan = await store.forget.scan(seeds);
  const gone = entitiesGone(seeds, scan);
  const inside: TurnRef[] = scan.turns.map(({ episodeId, seq }) => ({ episodeId, seq }));
  const keptAliases = scan.entities.filter((e) => !gone.has(e.id)).flatMap((e) => e.aliases);
  const words = candidateWords([...scan.turns.map((t) => t.text), ...scan.episodes.map((e) => e.title)]);
  const onlyHere =
    inside.length === 0
      ? []
      : await store.forget.foundOnlyIn({ phrases: [...keptAliases.map((a) => a.alias), ...words], inside });
  const distinct = new Set(onlyHere.filter((p) => p.inside).map((p) => p.phrase));
  const dropAliases = new Set(
    scan.entities
      .filter((e) => !gone.has(e.id))
      .flatMap((e) => e.aliases.filter((a) => distinct.has(a.alias)).map((a) => compositeRowId([e.id, a.normalized]))),
  );
  const world = planWorld({ seeds, scan, gone, dropAliases });
  const needles = buildNeedles({
    ids: [
      ...seeds.episodeIds,
      ...world.gone.map((e) => e.id),
      ...world.transitionIds,
      ...world.factIds,
      ...world.relationshipIds,
    ],
    texts: [
      target.kind === 'text' ? target.asked : null,
      ...world.gone.flatMap((e) => [e.name, ...e.aliases.map((a) => a.alias)]),
      ...world.aliases.map((a) => a.alias),
      ...onlyHere.map((p) => p.phrase),
      ...scan.turns.map((t) => t.text),
    ],
  });
  const reembed = {
    entityIds: world.repairs.entities.map((e) => e.id),
    episodeIds: scan.partial.map((e) => e.id),
  };
  const deps = await store.forget.dependents({
    episodeIds: seeds.episodeIds,
    entityIds: world.gone.map((e) => e.id),
    transitionIds: world.transitionIds,
    observationIds: scan.text.observations,
    summaryIds: scan.text.summaries,
    modelNames: world.gone.map((e) => modelSlug(e.name)),
    needles,
    touched: world.touched,
    reembed,
  });
  const write = writeOf({
    seeds,
    scan,
    world,
    deps,
    needles,
    reembed,
    text: target.kind === 'text' ? target.asked : null,
  });
  const plan: Omit<ForgetPlan, 'id'> = {
    target: viewOf(target),
    counts: countsOf(scan, world, deps, write),
    entities: {
      deleted: world.gone.map(refOf),
      kept: world.kept.map((k) => ({ ...refOf(k.entity), otherSources: k.otherSources })),
    },
    repairs: {
      facts: write.repairs.facts.length,
      contradictionsReopened: write.repairs.reopenedTransitions.length,
      entities: write.repairs.entities.length,
      conversations: write.repairs.episodes.length,
    },
    stillNamedIn: world.stillNamedIn,
    write,
  };
  return { id: planId(plan), ...plan };
}

/** The plan's identity: a digest of its target and of everything it writes. */
function planId(plan: Omit<ForgetPlan, 'id'>): string {
  const digest = createHash('sha256').update(JSON.stringify(plan)).digest('hex').slice(0, 24);
  return `forget-${digest}`;
}

/** A plan id as the confirming caller gave it; a malformed one is INVALID_ARGUMENT. */
export function checkPlanId(id: string): string {
  const trimmed = id.trim();
  if (!PLAN_ID.test(trimmed)) {
    throw new PieError('INVALID_ARGUMENT', `"${id}" is not a forget plan id; ask for the plan first and pass its id.`);
  }
  return trimmed;
}

function writeOf(input: {
  seeds: ReturnType<typeof seedsOf>;
  scan: ForgetScan;
  world: WorldPlan;
  deps: ForgetDependents;
  needles: ForgetWrite['needles'];
  reembed: ForgetWrite['reembed'];
  text: string | null;
}): ForgetWrite {
  const { seeds, scan, world, deps } = input;
  const removed = new Set([...seeds.episodeIds, ...world.gone.map((e) => e.id)]);
  const stripped = deps.procedures.map((p) => ({ id: p.id, evidence: p.evidence.filter((x) => !removed.has(x)) }));
  const textProcedures = new Set(scan.text.procedures);
  const journalByRun = new Map<string, number>();
  for (const j of deps.journal) journalByRun.set(j.runId, (journalByRun.get(j.runId) ?? 0) + 1);
  for (const id of deps.logs) if (!journalByRun.has(id)) journalByRun.set(id, 0);
  const removedTurns = new Map<string, number>();
  for (const t of seeds.turns) removedTurns.set(t.episodeId, (removedTurns.get(t.episodeId) ?? 0) + 1);
  return {
    episodeIds: seeds.episodeIds,
    forgottenKeys: seeds.episodeIds.map(forgottenKey),
    turns: seeds.turns,
    entityIds: world.gone.map((e) => e.id),
    transitionIds: world.transitionIds,
    factIds: world.factIds,
    relationshipIds: world.relationshipIds,
    mentions: world.mentions,
    aliases: world.aliases.map(({ entityId, normalized }) => ({ entityId, normalized })),
    observationIds: deps.observations,
    summaryIds: deps.summaries,
    modelIds: deps.models,
    modelsToReset: deps.modelsToReset,
    insightIds: unique([...deps.insights, ...scan.text.insights]),
    sleepTaskIds: unique([...deps.sleepTasks, ...scan.text.sleepTasks]),
    procedures: {
      deleted: unique([...stripped.filter((p) => p.evidence.length === 0).map((p) => p.id), ...textProcedures]),
      evidence: stripped.filter((p) => p.evidence.length > 0 && !textProcedures.has(p.id)),
    },
    cacheKeys: deps.cacheKeys,
    journal: deps.journal,
    logs: [...journalByRun].map(([runId, journalRowsRemoved]) => ({ runId, journalRowsRemoved })),
    needles: input.needles,
    batches: deps.batches,
    reembed: input.reembed,
    repairs: {
      ...world.repairs,
      episodes: scan.partial.map((e) => ({
        id: e.id,
        title: input.text === null ? e.title : markForgotten(e.title, textForms(input.text)),
        summary: e.summary !== null && input.text !== null && holds(e.summary, input.text) ? null : e.summary,
        turnCount: Math.max(0, e.turnCount - (removedTurns.get(e.id) ?? 0)),
      })),
    },
  };
}

function countsOf(scan: ForgetScan, world: WorldPlan, deps: ForgetDependents, write: ForgetWrite): ForgetCounts {
  return {
    episodes: write.episodeIds.length,
    turns: scan.turns.length,
    mentions: write.mentions.length,
    facts: write.factIds.length,
    transitions: write.transitionIds.length,
    relationships: write.relationshipIds.length,
    aliases: write.aliases.length,
    periods: world.gone.filter((e) => e.type === 'period').length,
    observations: write.observationIds.length,
    summaries: write.summaryIds.length,
    mentalModels: write.modelIds.length,
    insights: write.insightIds.length,
    sleepTasks: write.sleepTaskIds.length,
    procedures: write.procedures.deleted.length + write.procedures.evidence.length,
    embeddings: deps.embeddings,
    ftsRows: scan.turns.length + write.episodeIds.length + write.entityIds.length + write.transitionIds.length,
    cachedAnswers: write.cacheKeys.length,
    journalRows: write.journal.length,
    ingestRecords: write.batches.length,
  };
}

function viewOf(target: ForgetTarget): ForgetTargetView {
  switch (target.kind) {
    case 'entity':
      return { kind: 'entity', asked: target.asked, entity: refOf(target.entity) };
    case 'conversation':
      return {
        kind: 'conversation',
        asked: target.asked,
        conversations: target.episodes.map((e) => ({ id: e.id, title: e.title, time: e.createdAt })),
      };
    case 'text':
      return {
        kind: 'text',
        asked: target.asked,
        turns: target.turns.length,
        conversations: new Set(target.turns.map((t) => t.episodeId)).size,
      };
  }
}

const refOf = (e: EntityRef): EntityRef => ({ id: e.id, name: e.name, type: e.type });
const holds = (text: string, part: string): boolean => lowerAscii(text).includes(lowerAscii(part));
const unique = <T>(list: readonly T[]): T[] => [...new Set(list)];
