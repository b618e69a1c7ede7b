import { errorMessage } from '../domain/errors.js';
import type { Entity } from '../domain/world.js';
import type { GraphNode } from '../ports/maintenance-store.js';
import { sleepTaskKey } from '../ports/sleep-task-store.js';
import type { WorldStore } from '../ports/world-store.js';
import {
  chooseCanonical,
  findDuplicateCandidates,
  UNAMBIGUOUS,
  withoutKeptApart,
  type DedupEntity,
  type DuplicateCandidate,
} from './duplicates.js';
import { mergeEntities, plannedMergeCounts } from './merge-entities.js';
import { CONFIRM_MERGE_PROMPT, mergeSide } from './merge-prompt.js';
import type { RunJournal } from './journal.js';
import { recordTaskOutcome } from './tasks/finish.js';
import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';

/** Model confirmations per cycle; candidates beyond it are left for review (and the next cycle). */
export const CONFIRMATIONS_PER_CYCLE = 100;
/** Open merge tasks read per cycle as extra candidates. */
const TASKS_READ = 1000;
/** Priority of the review task left for a pair the cycle could not decide. */
const REVIEW_PRIORITY = 50;
const PAGE = 5000;
/** Pairs left for review listed one by one among the cycle's issues (the rest are counted). */
const ISSUES_LISTED = 20;
/** Review tasks left per cycle (the strongest candidates first); later cycles find the rest again. */
export const REVIEW_TASKS_PER_CYCLE = 100;
/** Pairs listed per outcome in the report (the counts cover all). */
const REPORT_LISTED = 100;

const WHY: Record<DuplicateCandidate['reason'], string> = {
  exact: 'the same name',
  alias: "one's name is an alias of the other",
  acronym: "one's name is an acronym of the other's",
  fuzzy: 'nearly the same spelling',
  contained: "one's name is part of the other's",
  task: 'ingestion found them close but did not merge them',
};

/** Entities a merge may touch: not merged already, not protected, not periods, not deleted through KIP. */
async function eligible(store: WorldStore, nodes: ReadonlyMap<string, GraphNode>): Promise<Entity[]> {
  const out: Entity[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.entities.list({ limit: PAGE, offset, orderBy: 'name' });
    for (const e of page) {
      const node = nodes.get(e.id);
      const kip = e.meta.kip as { deleted?: unknown } | undefined;
      if (node === undefined || node.protected || e.protected || e.type === 'period' || kip?.deleted !== undefined) {
        continue;
      }
      out.push(e);
    }
    if (page.length < PAGE) return out;
  }
}

interface Outcome {
  pair: [string, string];
  names: [string, string];
  reason: DuplicateCandidate['reason'];
  why?: string;
}

interface Decision {
  verdict: 'merge' | 'reject' | 'review';
  why: string;
  /** Whether the model was asked (counts against the cycle's confirmations). */
  asked: boolean;
  error?: string;
}

/** Merge, keep apart, or leave for review: the model's answer when there is one, else the reason's strength. */
async function decide(o: {
  input: PhaseInput;
  pair: [Entity, Entity];
  reason: DuplicateCandidate['reason'];
  asked: number;
}): Promise<Decision> {
  const { llm, store } = o.input;
  if (llm === null) {
    return UNAMBIGUOUS.has(o.reason)
      ? { verdict: 'merge', why: WHY[o.reason], asked: false }
      : { verdict: 'review', why: 'needs a model or a person to confirm', asked: false };
  }
  if (o.asked >= CONFIRMATIONS_PER_CYCLE) {
    return { verdict: 'review', why: `over the ${CONFIRMATIONS_PER_CYCLE} confirmations of one cycle`, asked: false };
  }
  const [a, b] = o.pair;
  try {
    const { object } = await llm.generate({
      prompt: CONFIRM_MERGE_PROMPT,
      input: {
        a: mergeSide(a, await store.transitions.forEntity(a.id)),
        b: mergeSide(b, await store.transitions.forEntity(b.id)),
        why: WHY[o.reason],
      },
    });
    return object.same
      ? { verdict: 'merge', why: `${WHY[o.reason]}; confirmed by ${llm.label}`, asked: true }
      : { verdict: 'reject', why: object.reason ?? 'not the same', asked: true };
  } catch (error) {
    return { verdict: 'review', why: 'the model could not answer', asked: true, error: errorMessage(error) };
  }
}

/** A merge_duplicates task for a pair the cycle could not decide (journaled: undo removes it). */
async function leaveTask(o: {
  input: PhaseInput;
  journal: RunJournal;
  pair: [Entity, Entity];
  candidate: DuplicateCandidate;
}): Promise<void> {
  const [a, b] = o.pair;
  const id = o.input.newId();
  await o.journal.change('sleep_tasks', id, async () => {
    await o.input.store.tasks.leave({
      id,
      action: 'merge_duplicates',
      subjectIds: [a.id, b.id],
      payload: { reason: o.candidate.reason, score: o.candidate.score },
      priority: REVIEW_PRIORITY,
      source: 'sleep',
      reason: `"${a.name}" and "${b.name}" may be one ${a.type} (${WHY[o.candidate.reason]})`,
      createdAt: o.input.now,
    });
  });
}

/**
 * KIP sleep phase 6, duplicate detection and merging (full scope). Candidates are same-type pairs that entity
 * resolution's checks match (duplicates.ts) plus the pairs open merge_duplicates tasks name. With a model each pair
 * is confirmed (confirm-merge@1) and only confirmed pairs merge; without one only unambiguous pairs (the same name,
 * or one's name an alias of the other) merge and the rest are left for review with a merge_duplicates task. Merges
 * run in the cycle's transaction, every row journaled (merge-entities.ts); a dry run reports the plan.
 */
async function run(input: PhaseInput): Promise<PhaseResult> {
  const { store, journal, llm } = input;
  const nodes = new Map(input.salience.nodes.map((n) => [n.id, n]));
  const importance = new Map(input.salience.importance.map((c) => [c.entityId, c.to]));
  const pool = await eligible(store, nodes);
  const byId = new Map(pool.map((e) => [e.id, e]));
  const found = findDuplicateCandidates(pool.map((e): DedupEntity => e));
  const candidates = withoutKeptApart(found.candidates, byId);
  const known = new Set(candidates.map((c) => `${c.a}\u0000${c.b}`));
  const tasks = (await store.tasks.list({ statuses: ['pending', 'in_progress'], limit: TASKS_READ })).filter(
    (t) => t.action === 'merge_duplicates',
  );
  const openTasks = new Set(tasks.map((t) => t.dedupeKey));
  // Pairs whose review task the cycle gave up on (left for a person, shown in the inbox until it expires): leaving
  // a new task for them would start the same three cycles again, so a sleep never settled.
  const givenUp = new Set(
    (await store.tasks.list({ statuses: ['failed'], limit: TASKS_READ }))
      .filter((t) => t.action === 'merge_duplicates')
      .map((t) => t.dedupeKey),
  );
  for (const t of tasks) {
    const [x = '', y = ''] = t.subjectIds;
    const [a, b] = x < y ? [x, y] : [y, x];
    if (known.has(`${a}\u0000${b}`) || !byId.has(a) || !byId.has(b)) continue;
    if (byId.get(a)?.type !== byId.get(b)?.type) continue;
    if (withoutKeptApart([{ a, b }], byId).length === 0) continue;
    known.add(`${a}\u0000${b}`);
    candidates.push({ a, b, reason: 'task', score: 0 });
  }

  // Entities merged away this cycle point to the one that absorbed them.
  const mergedInto = new Map<string, string>();
  const root = (id: string): string => {
    let r = id;
    while (mergedInto.has(r)) r = mergedInto.get(r) as string;
    return r;
  };
  const history = new Map(pool.map((e) => [e.id, nodes.get(e.id)?.transitions ?? 0]));
  const merged: (Outcome & { into: string; moved: Record<string, unknown> })[] = [];
  const rejected: Outcome[] = [];
  const left: Outcome[] = [];
  const issues: string[] = [];
  let asked = 0;
  let changes = 0;
  let tasksLeft = 0;

  for (const c of candidates) {
    const a = root(c.a);
    const b = root(c.b);
    if (a === b) continue;
    const ea = journal === null ? byId.get(a) : await store.entities.get(a);
    const eb = journal === null ? byId.get(b) : await store.entities.get(b);
    if (ea === undefined || eb === undefined || ea === null || eb === null || ea.type !== eb.type) continue;
    const outcome: Outcome = { pair: [a, b], names: [ea.name, eb.name], reason: c.reason };

    const decision = await decide({ input, pair: [ea, eb], reason: c.reason, asked });
    if (decision.asked) asked++;
    if (decision.error !== undefined) issues.push(`Could not confirm "${ea.name}" / "${eb.name}": ${decision.error}`);
    if (decision.verdict === 'reject') {
      rejected.push({ ...outcome, why: decision.why });
      const task = tasks.find((t) => t.dedupeKey === sleepTaskKey('merge_duplicates', [a, b]));
      if (journal !== null && task !== undefined) {
        const result = `Kept apart: ${decision.why}${llm ? ` (${llm.label})` : ''}.`;
        await recordTaskOutcome({
          store,
          journal,
          taskId: task.id,
          outcome: { status: 'dismissed', result },
          now: input.now,
        });
        changes++;
      }
      continue;
    }
    if (decision.verdict === 'review') {
      left.push({ ...outcome, why: decision.why });
      const key = sleepTaskKey('merge_duplicates', [a, b]);
      // A dry run counts the task it would leave, so its plan matches the real run's.
      if (!openTasks.has(key) && !givenUp.has(key) && tasksLeft < REVIEW_TASKS_PER_CYCLE) {
        if (journal !== null) await leaveTask({ input, journal, pair: [ea, eb], candidate: c });
        openTasks.add(key);
        tasksLeft++;
        changes++;
      }
      continue;
    }

    const profile = (e: Entity) => ({
      id: e.id,
      transitions: history.get(e.id) ?? 0,
      importance: importance.get(e.id) ?? e.importance,
      firstSeen: e.firstSeen,
      name: e.name,
      type: e.type,
    });
    const pick = chooseCanonical(profile(ea), profile(eb));
    const canonical = pick.canonical.id === a ? ea : eb;
    const duplicate = canonical === ea ? eb : ea;
    const moved =
      journal === null
        ? await plannedMergeCounts({ store, duplicate })
        : await mergeEntities({
            store,
            journal,
            canonical,
            duplicate,
            now: input.now,
            newId: input.newId,
            reason: decision.why,
          });
    mergedInto.set(duplicate.id, canonical.id);
    history.set(canonical.id, (history.get(canonical.id) ?? 0) + (history.get(duplicate.id) ?? 0));
    merged.push({ ...outcome, names: [duplicate.name, canonical.name], into: canonical.id, moved: { ...moved } });
    changes++;
  }

  for (const o of left.slice(0, ISSUES_LISTED)) {
    issues.push(`Left for review: "${o.names[0]}" / "${o.names[1]}" (${WHY[o.reason]}; ${o.why})`);
  }
  if (left.length > ISSUES_LISTED) issues.push(`… and ${left.length - ISSUES_LISTED} more pairs left for review.`);
  return {
    changes,
    details: {
      note: `${merged.length} merged, ${rejected.length} kept apart, ${left.length} left for review`,
      entities: pool.length,
      candidates: candidates.length,
      compared: found.compared,
      skippedBlocks: found.skippedBlocks,
      fromTasks: candidates.filter((c) => c.reason === 'task').length,
      model: llm?.label ?? null,
      confirmationsAsked: asked,
      merged: merged
        .slice(0, REPORT_LISTED)
        .map((m) => ({ from: m.names[0], into: m.names[1], reason: m.reason, ...m.moved })),
      rejected: rejected.slice(0, REPORT_LISTED).map((r) => ({ names: r.names, reason: r.reason, why: r.why })),
      leftForReview: left.slice(0, REPORT_LISTED).map((l) => ({ names: l.names, reason: l.reason, why: l.why })),
      counts: { merged: merged.length, rejected: rejected.length, leftForReview: left.length, tasksLeft },
    },
    issues,
  };
}

export const mergeDuplicatesPhase: SleepPhase = { name: 'merge duplicates', scopes: ['full'], run };
