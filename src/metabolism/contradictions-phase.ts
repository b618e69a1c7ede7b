import { groupBy } from '../domain/collections.js';
import { errorMessage } from '../domain/errors.js';
import type { Entity, StateValue, Transition } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import {
  DEFAULT_CONTRADICTION_RULES,
  isSettled,
  judgeContradiction,
  resolutionSummary,
  resolutionTime,
  sameValue,
  verdictReason,
  type ContradictionRules,
  type ContradictionVerdict,
} from './contradictions.js';
import type { RunJournal } from './journal.js';
import { capIssues } from './issues.js';
import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';
import { CONTRADICTION_VERDICTS } from './prompts.js';
import { utcDate } from '../domain/time.js';

/** Unresolved contradictions looked at per run; the model sees at most MODEL_ITEMS of those the rules leave open. */
const MAX_CONTRADICTIONS = 2_000;
const MODEL_BATCH = 20;
const MODEL_ITEMS = 40;

interface Case {
  c: Transition;
  entity: Entity;
  history: Transition[];
  verdict: ContradictionVerdict;
}

/**
 * Closes a contradiction on one attribute with a resolution transition, every row journaled. By default (what the
 * cycle decides) the newer value stands: the resolution goes from the older value to the newer one and an open fact
 * of the older value is closed at the contradiction's time. With `keep: 'old'` (a person's call) the resolution goes
 * the other way; the caller has already made the older value current again (journaledStateChange). Returns the
 * resolution.
 */
export async function resolveContradiction(input: {
  tx: WorldStore;
  journal: RunJournal;
  newId: () => string;
  now: number;
  c: Transition;
  attribute: string;
  why: string;
  time: number;
  confidence: number;
  keep?: 'new' | 'old';
  /** The resolution's summary when not the cycle's "x superseded y … : why". */
  summary?: string;
}): Promise<Transition> {
  const { tx, journal, c, attribute } = input;
  const older: StateValue = c.fromState?.[attribute] ?? null;
  const newer: StateValue = c.toState[attribute] ?? null;
  const keepOld = input.keep === 'old';
  const resolution: Transition = {
    id: input.newId(),
    entityId: c.entityId,
    kind: 'resolution',
    fromState: { [attribute]: keepOld ? newer : older },
    toState: { [attribute]: keepOld ? older : newer },
    summary: input.summary ?? resolutionSummary(c, attribute, input.why),
    eventTime: Math.max(input.time, c.eventTime),
    recordedAt: input.now,
    confidence: input.confidence,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  };
  await journal.change('transitions', resolution.id, () => tx.transitions.insert(resolution));
  await journal.change('transitions', c.id, () => tx.transitions.markResolved({ id: c.id, resolvedBy: resolution.id }));
  if (keepOld) return resolution;
  // The superseded value's fact, if something left it open, is closed at the contradiction's time.
  const facts = await tx.facts.history(c.entityId, attribute);
  const winner = facts.find((f) => f.validTo === null && sameValue(f.value, newer));
  for (const f of facts) {
    if (f.validTo !== null || !sameValue(f.value, c.fromState?.[attribute]) || f.validFrom > c.eventTime) continue;
    await journal.change('facts', f.id, () =>
      tx.facts.close({ id: f.id, validTo: c.eventTime, supersededBy: winner?.id ?? null }),
    );
  }
  return resolution;
}

function describe(k: Case): string {
  const attribute = k.verdict.attribute;
  return `${k.entity.name} (${attribute}: ${String(k.c.fromState?.[attribute] ?? '?')} → ${String(k.c.toState[attribute] ?? '?')}, ${utcDate(k.c.eventTime)})`;
}

function modelItem(key: string, k: Case): string {
  const later = k.history.filter((t) => t.eventTime >= k.c.eventTime && t.id !== k.c.id).slice(-8);
  return [
    `[${key}] ${k.entity.name} (${k.entity.type}) on ${utcDate(k.c.eventTime)}: ${k.c.summary}`,
    `  ${k.verdict.attribute}: ${JSON.stringify(k.c.fromState?.[k.verdict.attribute] ?? null)} → ${JSON.stringify(k.c.toState[k.verdict.attribute] ?? null)}`,
    `  current state: ${JSON.stringify(k.entity.state)}; last referenced ${utcDate(k.entity.lastSeen)}`,
    ...later.map((t) => `  later, ${utcDate(t.eventTime)} (${t.kind}): ${t.summary}`),
  ].join('\n');
}

interface EntityContext {
  entity: Entity;
  history: Transition[];
  current: Map<string, StateValue>;
  refs: number[];
}

const perEntity = <T extends { entityId: string }>(rows: readonly T[]): Map<string, T[]> =>
  groupBy(rows, (row) => row.entityId);

/**
 * The entities of the open contradictions (those that still exist) with their history, current facts and mention
 * times: four reads in all, not four per entity (a large memory has hundreds of entities with open contradictions),
 * the lists transitions.forEntity and mentions.forEntity (from the entity's earliest open contradiction on) and
 * facts.current give one entity at a time.
 */
async function readContexts(store: WorldStore, open: readonly Transition[]): Promise<Map<string, EntityContext>> {
  // Each entity's history and mentions from its earliest open contradiction on: what the rules and the model read
  // (the changes and references after a contradiction), without the years before it.
  const since = new Map<string, number>();
  for (const c of open) since.set(c.entityId, Math.min(since.get(c.entityId) ?? c.eventTime, c.eventTime));
  const entities = await store.entities.getMany([...since.keys()]);
  const found = entities.map((e) => e.id);
  const history = perEntity(
    await store.transitions.forEntitiesSince(found.map((id) => ({ entityId: id, since: since.get(id) ?? 0 }))),
  );
  const facts = perEntity(await store.facts.currentOf(found));
  const mentions = perEntity(
    await store.mentions.forEntitiesSince(found.map((id) => ({ entityId: id, since: since.get(id) ?? 0 }))),
  );
  return new Map(
    entities.map((entity) => [
      entity.id,
      {
        entity,
        history: history.get(entity.id) ?? [],
        current: new Map((facts.get(entity.id) ?? []).map((f) => [f.attribute, f.value])),
        refs: (mentions.get(entity.id) ?? []).map((m) => m.time),
      },
    ]),
  );
}

/** Phase 9: contradictions whose newer state has won get a resolution; flip-flops stay open as issues. */
export function contradictionSupersessionPhase(rules: ContradictionRules = DEFAULT_CONTRADICTION_RULES): SleepPhase {
  return {
    name: 'contradiction supersession',
    scopes: ['full'],
    async run(input: PhaseInput): Promise<PhaseResult> {
      const { store, journal, now } = input;
      const open = await store.transitions.list({ unresolved: true, until: now + 1, limit: MAX_CONTRADICTIONS });
      const byEntity = await readContexts(store, open);
      const cases: Case[] = [];
      for (const c of open) {
        const ctx = byEntity.get(c.entityId);
        if (ctx === undefined) continue;
        const verdict = judgeContradiction({
          contradiction: c,
          history: ctx.history,
          current: ctx.current,
          referenceTimes: ctx.refs,
          now,
          rules,
        });
        cases.push({ c, entity: ctx.entity, history: ctx.history, verdict });
      }
      const counts: Record<string, number> = { open: cases.length };
      for (const k of cases) counts[k.verdict.kind] = (counts[k.verdict.kind] ?? 0) + 1;
      const issues = cases
        .filter((k) => k.verdict.kind === 'flip-flop')
        .map((k) => `Unsettled contradiction: ${describe(k)} went back and forth`);
      let changes = 0;
      for (const k of cases) {
        if (!isSettled(k.verdict)) continue;
        changes += 1;
        if (journal === null) continue;
        await resolveContradiction({
          tx: store,
          journal,
          newId: input.newId,
          now,
          c: k.c,
          attribute: k.verdict.attribute,
          why: verdictReason(k.verdict),
          time: resolutionTime(k.verdict, now),
          confidence: k.verdict.kind === 'stood' ? 0.7 : 0.8,
        });
      }
      const undecided = cases.filter((k) => k.verdict.kind === 'undecided' && k.verdict.attribute !== '');
      const details: Record<string, unknown> = { ...counts, resolved: changes };
      if (undecided.length > 0 && input.llm === null) {
        details.leftOpen = undecided.length;
        details.model = 'skipped: no model configured, so the contradictions the rules could not settle stay open';
      } else if (undecided.length > 0 && journal === null) {
        details.model = `would ask the model about ${Math.min(undecided.length, MODEL_ITEMS)}`;
      } else if (undecided.length > 0 && input.llm !== null && journal !== null) {
        const asked = undecided.slice(0, MODEL_ITEMS);
        let byModel = 0;
        for (let i = 0; i < asked.length; i += MODEL_BATCH) {
          const batch = asked.slice(i, i + MODEL_BATCH);
          const keys = new Map(batch.map((k, j) => [`C${i + j + 1}`, k]));
          let verdicts;
          try {
            const items = [...keys].map(([key, k]) => modelItem(key, k)).join('\n\n');
            verdicts = (await input.llm.generate({ prompt: CONTRADICTION_VERDICTS, input: { items } })).object.verdicts;
          } catch (error) {
            issues.push(`The model could not judge ${batch.length} contradictions: ${errorMessage(error)}`);
            continue;
          }
          for (const v of verdicts) {
            const k = keys.get(v.key);
            if (k === undefined) continue;
            keys.delete(v.key);
            if (v.verdict === 'unsettled') {
              issues.push(`Unsettled contradiction (model): ${describe(k)}: ${v.reason}`);
              continue;
            }
            byModel += 1;
            await resolveContradiction({
              tx: store,
              journal,
              newId: input.newId,
              now,
              c: k.c,
              attribute: k.verdict.attribute,
              why: `judged by the model: ${v.reason}`,
              time: now,
              confidence: 0.6,
            });
          }
        }
        changes += byModel;
        details.resolvedByModel = byModel;
        details.leftOpen = undecided.length - byModel;
      }
      return { changes, details, issues: capIssues(issues) };
    },
  };
}
