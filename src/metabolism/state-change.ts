import type { Entity, Fact, StateValue, Transition } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import { describeChange } from '../world/apply/plan-state.js';
import type { RunJournal } from './journal.js';

/**
 * Changes one attribute of an entity the way applying an extraction does, every row journaled: a new current fact,
 * the old current fact closed and superseded by it, an 'update' transition from the old value to the new one, and
 * the entity's state. Returns the transition.
 */
export async function journaledStateChange(input: {
  tx: WorldStore;
  journal: RunJournal;
  newId: () => string;
  entity: Entity;
  attribute: string;
  value: StateValue;
  /** Event time of the change. */
  time: number;
  /** Record time (the cycle's now). */
  now: number;
  /** Why, in words (prefixed with "attribute: old → new"). */
  reason: string;
  confidence: number;
  episodeId: string | null;
}): Promise<Transition> {
  const { tx, journal, entity, attribute, value } = input;
  const previous = (await tx.facts.current(entity.id)).find((f) => f.attribute === attribute) ?? null;
  const fromValue: StateValue = previous?.value ?? entity.state[attribute] ?? null;
  const fact: Fact = {
    id: input.newId(),
    entityId: entity.id,
    attribute,
    value,
    validFrom: input.time,
    validTo: null,
    supersededBy: null,
    episodeId: input.episodeId,
    recordedAt: input.now,
    confidence: input.confidence,
  };
  await journal.change('facts', fact.id, () => tx.facts.insert(fact));
  if (previous !== null) {
    await journal.change('facts', previous.id, () =>
      tx.facts.close({ id: previous.id, validTo: Math.max(input.time, previous.validFrom), supersededBy: fact.id }),
    );
  }
  const transition: Transition = {
    id: input.newId(),
    entityId: entity.id,
    kind: 'update',
    fromState: { [attribute]: fromValue },
    toState: { [attribute]: value },
    summary: `${describeChange(attribute, fromValue, value)} (${input.reason})`,
    eventTime: input.time,
    recordedAt: input.now,
    confidence: input.confidence,
    episodeId: input.episodeId,
    batchId: null,
    resolvedBy: null,
  };
  await journal.change('transitions', transition.id, () => tx.transitions.insert(transition));
  await journal.change('entities', entity.id, async () => {
    await tx.entities.update(entity.id, { state: { ...entity.state, [attribute]: value }, updatedAt: input.now });
  });
  return transition;
}
