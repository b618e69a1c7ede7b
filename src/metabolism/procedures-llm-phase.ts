import { errorMessage } from '../domain/errors.js';
import type { LlmResult } from '../llm/index.js';
import { readLifecycles } from './lifecycles.js';
import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';
import {
  EXTRACT_PROCEDURES_PROMPT,
  pickLifecycles,
  proceduresFromAnswer,
  renderLifecycles,
  type ExtractedProcedures,
  type NamedLifecycle,
} from './procedures-llm.js';

async function lifecycles(input: PhaseInput): Promise<NamedLifecycle[]> {
  const candidates = (await readLifecycles(input.store, input.salience)).map((l) => ({
    entityId: l.entityId,
    name: '',
    type: l.entityType,
    transitions: l.transitions,
  }));
  const picked = pickLifecycles(candidates);
  const names = new Map((await input.store.entities.getMany(picked.map((l) => l.entityId))).map((e) => [e.id, e.name]));
  return picked.map((l) => ({ ...l, name: names.get(l.entityId) ?? l.entityId }));
}

/**
 * pie-paper §4.4 with a model: the longest lifecycles go to the model, which names the recurring procedures; each
 * becomes a stored procedure (upserted by a hash of domain and steps, journaled). The deterministic miner runs in
 * every full cycle regardless; this phase adds what only a model sees (patterns across differently-worded steps).
 */
async function run(input: PhaseInput): Promise<PhaseResult> {
  if (input.llm === null) return { changes: 0, skipped: 'needs a model (pie sleep --llm provider:model)' };
  const shown = await lifecycles(input);
  if (shown.length < 2) return { changes: 0, details: { lifecycles: shown.length, reason: 'fewer than 2 histories' } };
  if (input.journal === null) {
    return {
      changes: 0,
      details: { model: input.llm.label, lifecycles: shown.length, note: 'a dry run calls no model' },
    };
  }
  let answer: LlmResult<ExtractedProcedures>;
  try {
    answer = await input.llm.generate({
      prompt: EXTRACT_PROCEDURES_PROMPT,
      input: { lifecycles: renderLifecycles(shown) },
    });
  } catch (error) {
    // One model failure never costs the whole cycle its other work: the phase is reported, the rest goes on.
    return { changes: 0, skipped: `the model could not answer: ${errorMessage(error)}` };
  }
  const { object, usage, cached } = answer;
  const found = proceduresFromAnswer({ answer: object, lifecycles: shown });
  const stored = new Map((await input.store.procedures.list()).map((p) => [p.id, JSON.stringify(p)]));
  const changed = found.filter((p) => stored.get(p.id) !== JSON.stringify(p));
  if (input.journal !== null) {
    for (const p of changed) await input.journal.change('procedures', p.id, () => input.store.procedures.upsert(p));
  }
  return {
    changes: changed.length,
    details: {
      model: input.llm.label,
      lifecycles: shown.length,
      proposed: object.procedures.length,
      kept: found.length,
      upserted: changed.map((p) => p.id),
      tokensIn: usage.inputTokens,
      tokensOut: usage.outputTokens,
      cached,
    },
  };
}

export const llmProceduresPhase: SleepPhase = { name: 'procedures (model)', scopes: ['full'], run };
