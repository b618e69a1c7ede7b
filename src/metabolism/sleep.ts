import { errorMessage, PieError } from '../domain/errors.js';
import { SLEEP_LEASE } from '../ingest/lease-rules.js';
import type { Procedure, Transition } from '../domain/world.js';
import type { LlmClient } from '../llm/index.js';
import type { WorldStore } from '../ports/world-store.js';
import { archivalTransition, summaryTransition } from './consolidate.js';
import { planDecay, type DecayChange } from './decay-plan.js';
import type { DecayRules } from './decay.js';
import { computeHealth, type HealthReport } from './health.js';
import type { ImportanceWeights } from './importance.js';
import { RunJournal } from './journal.js';
import { planSalience, type SalienceResult, type SleepScope } from './plan.js';
import { readLifecycleSteps } from './lifecycles.js';
import { MINED_ID_PREFIX, mineProcedures } from './procedures.js';
import type { SleepPhase } from './phase.js';
import { decayReport, proceduresReport, salienceReports } from './plan-reports.js';
import { PHASES } from './phases.js';
import { runPhases, type PhaseReport } from './run-phases.js';
import { withSharedReads } from './shared-reads.js';
import { withSleepLease, type SleepLeaseOptions } from './sleep-lease.js';
import type { TierThresholds } from './tiers.js';

export const SLEEP_LOG_KIND = 'sleep';

export type { PhaseReport } from './run-phases.js';

export interface SleepReport {
  runId: string;
  scope: SleepScope;
  dryRun: boolean;
  now: number;
  phases: PhaseReport[];
  /** What was applied again after the phases so the run ends at its fixed point (null in a dry run). */
  settled: PhaseReport | null;
  health: HealthReport;
  /** Rows journaled (0 in a dry run). */
  journaled: number;
}

export interface SleepOptions {
  store: WorldStore;
  scope: SleepScope;
  dryRun: boolean;
  now: number;
  runId: string;
  newId: () => string;
  weights?: ImportanceWeights;
  thresholds?: TierThresholds;
  decay?: DecayRules;
  /**
   * The configured model for the model-only work (merge confirmation, dreams …); null or absent: none. A dry run
   * never calls it (its reports say a real run would).
   */
  llm?: LlmClient | null;
  /** The phases after salience/tiers/decay/procedures (default: PHASES). */
  phases?: readonly SleepPhase[];
  onProgress?: (text: string) => void;
  /**
   * A dry run calls it with each line of its report as soon as that phase is planned, in the report's order (the
   * order of sleepPhaseNames), and waits for it before planning the next: a caller can show the preview phase by
   * phase, or stop it by throwing. Not called by a real run.
   */
  onPhase?: ((report: PhaseReport) => Promise<void> | void) | undefined;
  /**
   * How a real run claims the memory (a dry run takes nothing): the sleep lease, refused while another sleep holds
   * it, and the extraction lease (see sleep-lease.ts). Default: `{ via: 'pie', extraction: 'refuse' }`.
   */
  lease?: SleepLeaseOptions | undefined;
}

interface Plan {
  salience: SalienceResult;
  procedures: { upsert: Procedure[]; retire: string[] };
  decay: DecayChange[];
}

/** Mined procedures that are new or differ from the stored ones, and mined ones no longer found (to retire). */
async function changedProcedures(
  store: WorldStore,
  mined: Procedure[],
): Promise<{ upsert: Procedure[]; retire: string[] }> {
  const list = await store.procedures.list();
  const stored = new Map(list.map((p) => [p.id, JSON.stringify(p)]));
  const found = new Set(mined.map((p) => p.id));
  return {
    upsert: mined.filter((p) => stored.get(p.id) !== JSON.stringify(p)),
    retire: list.filter((p) => p.id.startsWith(MINED_ID_PREFIX) && !found.has(p.id)).map((p) => p.id),
  };
}

async function makePlan(o: SleepOptions): Promise<Plan> {
  // A dry run hands each line of its report on as soon as it is planned (a real run reports after applying).
  const planned = async (reports: PhaseReport[]): Promise<void> => {
    if (!o.dryRun || !o.onPhase) return;
    for (const r of reports) await o.onPhase(r);
  };
  o.onProgress?.('salience: scoring importance');
  const salience = await planSalience({
    store: o.store,
    now: o.now,
    ...(o.weights ? { weights: o.weights } : {}),
    ...(o.thresholds ? { thresholds: o.thresholds } : {}),
  });
  await planned(salienceReports(o, salience, 0));
  let procedures: Plan['procedures'] = { upsert: [], retire: [] };
  let decay: DecayChange[] = [];
  if (o.scope === 'full') {
    o.onProgress?.('decay: weighing unreinforced facts');
    decay = await planDecay({
      store: o.store,
      now: o.now,
      salience,
      logKind: SLEEP_LOG_KIND,
      ...(o.decay ? { rules: o.decay } : {}),
    });
    await planned([decayReport(o, decay)]);
    o.onProgress?.('procedures: mining lifecycles');
    procedures = await changedProcedures(o.store, mineProcedures(await readLifecycleSteps(o.store, salience)));
    await planned([proceduresReport(o, procedures)]);
  } else {
    await planned([decayReport(o, decay), proceduresReport(o, procedures)]);
  }
  return { salience, procedures, decay };
}

async function applyPlan(o: SleepOptions, tx: WorldStore, plan: Plan, journal: RunJournal): Promise<number> {
  const added = await applySalience(o, tx, plan.salience, journal);
  for (const [i, c] of plan.decay.entries()) {
    if (i % 500 === 0) o.onProgress?.(`decay: ${i}/${plan.decay.length} facts`);
    await journal.change('facts', c.factId, async () => {
      const row = await tx.upkeep.getRow({ table: 'facts', id: c.factId });
      if (row !== null) await tx.upkeep.putRow({ table: 'facts', id: c.factId, row: { ...row, confidence: c.to } });
    });
  }
  await applyProcedures(tx, plan.procedures, journal);
  return added;
}

async function applyProcedures(tx: WorldStore, procedures: Plan['procedures'], journal: RunJournal): Promise<void> {
  for (const p of procedures.upsert) await journal.change('procedures', p.id, () => tx.procedures.upsert(p));
  for (const id of procedures.retire) {
    await journal.change('procedures', id, () => tx.upkeep.putRow({ table: 'procedures', id, row: null }));
  }
}

/** Importance changes, and (beyond a daydream) tier moves with their summary or archival transitions. */
async function applySalience(
  o: SleepOptions,
  tx: WorldStore,
  salience: SalienceResult,
  journal: RunJournal,
): Promise<number> {
  let added = 0;
  const { importance, tiers } = salience;
  for (const [i, c] of importance.entries()) {
    if (i % 500 === 0) o.onProgress?.(`salience: ${i}/${importance.length} importance updates`);
    await journal.change('entities', c.entityId, async () => {
      await tx.entities.update(c.entityId, { importance: c.to, updatedAt: o.now });
    });
  }
  if (o.scope !== 'daydream') {
    for (const [i, c] of tiers.entries()) {
      if (i % 100 === 0) o.onProgress?.(`tiers: ${i}/${tiers.length}`);
      const entity = await tx.entities.get(c.entityId);
      if (entity === null) continue;
      let transition: Transition | null = null;
      if (c.to === 'summarized') {
        transition = summaryTransition({
          newId: o.newId,
          entity,
          history: await tx.transitions.forEntity(entity.id),
          now: o.now,
        });
      } else if (c.to === 'archived') {
        transition = archivalTransition({ id: o.newId(), entity, change: c, now: o.now });
      }
      if (transition !== null) {
        const t = transition;
        await journal.change('transitions', t.id, () => tx.transitions.insert(t));
        added += 1;
      }
      await journal.change('entities', c.entityId, async () => {
        await tx.entities.update(c.entityId, { tier: c.to, updatedAt: o.now });
      });
    }
  }
  return added;
}

/**
 * After the phases (merges, new links, resolved contradictions change the graph), importance, tiers and mined
 * procedures are computed again and applied in the same run, so a sleep at a fixed instant reaches its fixed point
 * in one run: a second sleep at the same "now" changes nothing.
 */
async function settle(o: SleepOptions, tx: WorldStore, journal: RunJournal): Promise<PhaseReport> {
  o.onProgress?.('settle: scoring importance again after the phases');
  const salience = await planSalience({
    store: tx,
    now: o.now,
    ...(o.weights ? { weights: o.weights } : {}),
    ...(o.thresholds ? { thresholds: o.thresholds } : {}),
  });
  const tiers = o.scope === 'daydream' ? 0 : salience.tiers.length;
  await applySalience(o, tx, salience, journal);
  let procedures = 0;
  if (o.scope === 'full') {
    const changed = await changedProcedures(tx, mineProcedures(await readLifecycleSteps(tx, salience)));
    procedures = changed.upsert.length + changed.retire.length;
    await applyProcedures(tx, changed, journal);
  }
  return {
    name: 'settle',
    status: 'done',
    changes: salience.importance.length + tiers + procedures,
    details: { importance: salience.importance.length, tiers, procedures },
  };
}

function phases(o: SleepOptions, plan: Plan, added: number): PhaseReport[] {
  return [
    ...salienceReports(o, plan.salience, added),
    decayReport(o, plan.decay),
    proceduresReport(o, plan.procedures),
  ];
}

function phaseInput(
  o: SleepOptions,
  store: WorldStore,
  journal: RunJournal | null,
  salience: SalienceResult,
): Parameters<typeof runPhases>[0] {
  return {
    phases: o.phases ?? PHASES,
    scope: o.scope,
    store,
    journal,
    now: o.now,
    runId: o.runId,
    newId: o.newId,
    llm: o.llm ?? null,
    salience,
    onProgress: o.onProgress,
    ...(o.dryRun && o.onPhase ? { onReport: o.onPhase } : {}),
  };
}

/**
 * One sleep cycle. A dry run reads only. A real run first claims the memory (`lease`: refused with CONFLICT while
 * another sleep runs, and nothing is logged then), makes all its changes in one transaction, each journaled under
 * the run id with its row before and after, and records a maintenance log entry with the report (a failed run
 * rolls back and leaves only a log entry with status "failed"). The log's report also holds the run's wall time
 * (`durationMs`).
 */
export async function runSleep(o: SleepOptions): Promise<SleepReport> {
  if (o.dryRun) return sleepCycle(o);
  return withSleepLease(o.store, o.lease ?? { via: 'pie', extraction: 'refuse' }, () => sleepCycle(o));
}

/**
 * Inside the run's transaction: a sleep whose lease expired while it ran (it cannot renew it during its one long
 * transaction) still excludes a second sleep, which stops here before reading anything.
 */
async function lockSleep(tx: WorldStore): Promise<void> {
  if (await tx.leases.lockForTransaction(SLEEP_LEASE)) return;
  throw new PieError('CONFLICT', 'Another sleep is running on this database; run again when it has finished.');
}

async function sleepCycle(o: SleepOptions): Promise<SleepReport> {
  // Wall time of the run for the log (the configured clock may be fixed: `now` is data, not a stopwatch).
  const started = performance.now();
  if (o.dryRun) {
    // Reads only: the whole-memory reads several steps make are made once (see shared-reads.ts).
    const store = withSharedReads(o.store);
    const plan = await makePlan({ ...o, store });
    const extra = await runPhases(phaseInput(o, store, null, plan.salience));
    const health = await computeHealth({ store, salience: plan.salience, now: o.now });
    return {
      runId: o.runId,
      scope: o.scope,
      dryRun: true,
      now: o.now,
      phases: [...phases(o, plan, 0), ...extra],
      settled: null,
      health,
      journaled: 0,
    };
  }
  try {
    return await o.store.transaction(async (tx) => {
      await lockSleep(tx);
      const plan = await makePlan({ ...o, store: tx });
      const journal = new RunJournal(tx, o.runId, o.now);
      await tx.maintenance.append({
        id: o.runId,
        kind: SLEEP_LOG_KIND,
        startedAt: o.now,
        finishedAt: null,
        status: 'running',
        report: { scope: o.scope },
      });
      const added = await applyPlan(o, tx, plan, journal);
      const extra = await runPhases(phaseInput(o, tx, journal, plan.salience));
      const settled = await settle(o, tx, journal);
      o.onProgress?.('health: measuring');
      const after = await planSalience({ store: tx, now: o.now });
      const health = await computeHealth({ store: tx, salience: after, now: o.now });
      const report: SleepReport = {
        runId: o.runId,
        scope: o.scope,
        dryRun: false,
        now: o.now,
        phases: [...phases(o, plan, added), ...extra],
        settled,
        health,
        journaled: journal.entries,
      };
      const durationMs = Math.round(performance.now() - started);
      await tx.maintenance.update({
        id: o.runId,
        finishedAt: o.now,
        status: 'completed',
        report: { ...report, durationMs },
      });
      return report;
    });
  } catch (error) {
    await o.store.maintenance.append({
      id: o.runId,
      kind: SLEEP_LOG_KIND,
      startedAt: o.now,
      finishedAt: o.now,
      status: 'failed',
      report: { scope: o.scope, error: errorMessage(error) },
    });
    throw error;
  }
}
