import { PieError } from '../domain/errors.js';
import { utcDate } from '../domain/time.js';
import type { Relationship, StateValue, Transition } from '../domain/world.js';
import { sameValue } from '../metabolism/contradictions.js';
import { resolveContradiction } from '../metabolism/contradictions-phase.js';
import type { RunJournal } from '../metabolism/journal.js';
import { journaledStateChange } from '../metabolism/state-change.js';
import type { WorldStore } from '../ports/world-store.js';
import { inboxRun, liveEntity, quoted, settleTasks, type DecisionInput, type InboxDecision } from './run.js';

/**
 * A person's answer to an open contradiction: keep the newer claim, keep the older one, or say both were true at
 * different times (a change, not a conflict).
 */
export type ContradictionChoice = 'new' | 'old' | 'both';

const CONTRADICTS = 'CONTRADICTS';
/** A person's word is certain. */
const BY_PERSON = 1;

/** Makes `value` the attribute's current value again when the current one is `unless` (journaled, as an update). */
async function restore(input: {
  tx: WorldStore;
  journal: RunJournal;
  d: DecisionInput;
  entityId: string;
  attribute: string;
  value: StateValue;
  unless: StateValue;
  since: number;
  reason: string;
}): Promise<boolean> {
  const { tx, attribute } = input;
  const entity = await liveEntity(tx, input.entityId);
  const fact = (await tx.facts.current(entity.id)).find((f) => f.attribute === attribute);
  const current = fact?.value ?? entity.state[attribute];
  if (!sameValue(current, input.unless)) return false;
  await journaledStateChange({
    tx,
    journal: input.journal,
    newId: input.d.newId,
    entity,
    attribute,
    value: input.value,
    // From when the set-aside value started: the value it replaced is what held since.
    time: Math.max(input.since, fact?.validFrom ?? input.since),
    now: input.d.now,
    reason: input.reason,
    confidence: BY_PERSON,
    episodeId: null,
  });
  return true;
}

/** The CONTRADICTS edge ingestion recorded with a state contradiction ("B replaces A"), if still open. */
async function companionEdge(tx: WorldStore, c: Transition): Promise<Relationship | null> {
  const edges = await tx.relationships.forEntity(c.entityId);
  return (
    edges.find(
      (r) => r.type === CONTRADICTS && r.targetId === c.entityId && r.episodeId === c.episodeId && r.validTo === null,
    ) ?? null
  );
}

function summaryOf(c: Transition, attribute: string, keep: ContradictionChoice): string {
  const older = quoted(c.fromState?.[attribute]);
  const newer = quoted(c.toState[attribute]);
  const day = utcDate(c.eventTime);
  if (keep === 'new') return `${newer} superseded ${older} (${attribute}) on ${day}: a person kept the newer claim`;
  if (keep === 'old') return `${older} stands (${attribute}): a person set aside ${newer}, stated on ${day}`;
  return `${older} until ${day}, then ${newer} (${attribute}): both true at different times, a person said`;
}

async function decideState(
  tx: WorldStore,
  journal: RunJournal,
  d: DecisionInput,
  c: Transition,
  keep: ContradictionChoice,
) {
  if (c.resolvedBy !== null) {
    throw new PieError('CONFLICT', 'This contradiction has already been resolved; reload the inbox.');
  }
  const entity = await liveEntity(tx, c.entityId);
  const restored: string[] = [];
  for (const attribute of Object.keys(c.toState)) {
    const older = c.fromState?.[attribute] ?? null;
    const newer = c.toState[attribute] ?? null;
    const [value, unless] = keep === 'old' ? [older, newer] : [newer, older];
    // "Both" keeps the state as it is: the older value held until the change, the newer one since.
    if (keep !== 'both') {
      const why = `a person kept the ${keep === 'old' ? 'older' : 'newer'} claim of a contradiction (${utcDate(c.eventTime)})`;
      const changed = await restore({
        tx,
        journal,
        d,
        entityId: entity.id,
        attribute,
        value,
        unless,
        since: c.eventTime,
        reason: why,
      });
      if (changed) restored.push(`${attribute} is ${quoted(value)} again`);
    }
    await resolveContradiction({
      tx,
      journal,
      newId: d.newId,
      now: d.now,
      c,
      attribute,
      why: 'a person decided',
      time: d.now,
      confidence: BY_PERSON,
      keep: keep === 'old' ? 'old' : 'new',
      summary: summaryOf(c, attribute, keep),
    });
  }
  const edge = await companionEdge(tx, c);
  if (edge !== null) {
    await journal.change('relationships', edge.id, () =>
      tx.relationships.close({ id: edge.id, validTo: Math.max(d.now, edge.validFrom) }),
    );
  }
  const verdict =
    keep === 'new' ? 'kept the newer claim' : keep === 'old' ? 'kept the older claim' : 'both true at different times';
  await settleTasks({
    tx,
    journal,
    now: d.now,
    match: (t) => t.action === 'resolve_contradiction' && t.payload.transitionId === c.id,
    outcome: { status: 'completed', result: `Resolved by a person: ${verdict}.` },
  });
  return `${entity.name}: ${verdict}${restored.length > 0 ? ` (${restored.join(', ')})` : ''}.`;
}

/** A CONTRADICTS edge between two beliefs: the set-aside one is no longer held; the edge ends either way. */
async function decideEdge(
  tx: WorldStore,
  journal: RunJournal,
  d: DecisionInput,
  r: Relationship,
  keep: ContradictionChoice,
) {
  if (r.validTo !== null)
    throw new PieError('CONFLICT', 'This contradiction has already been resolved; reload the inbox.');
  const newer = await liveEntity(tx, r.sourceId);
  const older = await liveEntity(tx, r.targetId);
  const loser = keep === 'new' ? older : keep === 'old' ? newer : null;
  const winner = loser === older ? newer : older;
  if (loser !== null && loser.type === 'belief') {
    await restore({
      tx,
      journal,
      d,
      entityId: loser.id,
      attribute: 'stance',
      value: 'abandoned',
      unless: loser.state.stance ?? null,
      since: r.validFrom,
      reason: `a person kept "${winner.name}" instead`,
    });
  }
  await journal.change('relationships', r.id, () =>
    tx.relationships.close({ id: r.id, validTo: Math.max(d.now, r.validFrom) }),
  );
  return loser === null
    ? `"${newer.name}" and "${older.name}": both true at different times.`
    : `Kept "${winner.name}" over "${loser.name}".`;
}

/**
 * Settles one open contradiction as a person chose, in one journaled run: a resolution transition (the same the
 * sleep cycle writes) closes it; keeping the older claim first makes the older value current again (an update
 * from when the newer one started); the CONTRADICTS edge recorded with it ends; its resolve_contradiction task is
 * completed. `id` is a contradiction transition or, for two conflicting beliefs, a CONTRADICTS relationship.
 */
export async function decideContradiction(
  input: DecisionInput & { id: string; keep: ContradictionChoice },
): Promise<InboxDecision> {
  return inboxRun({
    ...input,
    action: `contradiction:${input.keep}`,
    work: async (tx, journal) => {
      const [c] = await tx.transitions.getMany([input.id]);
      if (c !== undefined && c.kind === 'contradiction') return decideState(tx, journal, input, c, input.keep);
      const edge = await findEdge(tx, input.id);
      if (edge !== null) return decideEdge(tx, journal, input, edge, input.keep);
      throw new PieError('NOT_FOUND', `No contradiction "${input.id}"; reload the inbox.`);
    },
  });
}

async function findEdge(tx: WorldStore, id: string): Promise<Relationship | null> {
  const row = await tx.upkeep.getRow({ table: 'relationships', id });
  if (row === null || row.type !== CONTRADICTS) return null;
  const edges = await tx.relationships.forEntity(String(row.source_id), { includeEnded: true });
  return edges.find((r) => r.id === id) ?? null;
}
