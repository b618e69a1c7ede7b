import { PieError } from '../domain/errors.js';
import type { Entity } from '../domain/world.js';
import { chooseCanonical, KEPT_APART_KEY, keptApartIds } from '../metabolism/duplicates.js';
import { mergeEntities } from '../metabolism/merge-entities.js';
import type { WorldStore } from '../ports/world-store.js';
import { inboxRun, liveEntity, settleTasks, type DecisionInput, type InboxDecision } from './run.js';

export type MergeChoice = 'merge' | 'keep-apart';

/**
 * Which of two entities a merge keeps: the sleep cycle's rule (a person's fuller name, then the longer history, then
 * importance, then the older).
 */
export async function suggestedCanonical(store: WorldStore, a: Entity, b: Entity): Promise<Entity> {
  const profile = async (e: Entity) => ({
    id: e.id,
    transitions: Object.values(await store.transitions.countByKind({ entityId: e.id })).reduce((n, k) => n + k, 0),
    importance: e.importance,
    firstSeen: e.firstSeen,
    name: e.name,
    type: e.type,
  });
  const { canonical } = chooseCanonical(await profile(a), await profile(b));
  return canonical.id === a.id ? a : b;
}

const pairTask = (a: string, b: string) => (t: { action: string; subjectIds: string[] }) =>
  t.action === 'merge_duplicates' && t.subjectIds.includes(a) && t.subjectIds.includes(b);

/**
 * A person's answer to a pair that may be one entity, in one journaled run. Merge: `mergeEntities`, the sleep
 * cycle's merge (both histories kept; the merged-away entity stays, archived, pointing at the other), into `into`
 * or else the entity the cycle's rule keeps. Keep apart: each entity records the other in its meta, so neither the
 * merge phase nor the audit proposes the pair again. Either way the pair's merge_duplicates tasks are finished.
 */
export async function decideMerge(
  input: DecisionInput & { a: string; b: string; choice: MergeChoice; into?: string | undefined },
): Promise<InboxDecision> {
  if (input.a === input.b) throw new PieError('INVALID_ARGUMENT', 'A pair needs two different entities.');
  if (input.into !== undefined && input.into !== input.a && input.into !== input.b) {
    throw new PieError('INVALID_ARGUMENT', '"into" must be one of the two entities of the pair.');
  }
  return inboxRun({
    ...input,
    action: `merge:${input.choice}`,
    work: async (tx, journal) => {
      const a = await liveEntity(tx, input.a);
      const b = await liveEntity(tx, input.b);
      const done = (status: 'completed' | 'dismissed', result: string) =>
        settleTasks({ tx, journal, now: input.now, match: pairTask(a.id, b.id), outcome: { status, result } });
      if (input.choice === 'keep-apart') {
        for (const [e, other] of [
          [a, b],
          [b, a],
        ] as const) {
          const ids = keptApartIds(e.meta);
          if (ids.includes(other.id)) continue;
          await journal.change('entities', e.id, async () => {
            await tx.entities.update(e.id, {
              meta: { ...e.meta, [KEPT_APART_KEY]: [...ids, other.id] },
              updatedAt: input.now,
            });
          });
        }
        await done('dismissed', 'Kept apart by a person.');
        return `"${a.name}" and "${b.name}" are kept apart.`;
      }
      const canonical = input.into === undefined ? await suggestedCanonical(tx, a, b) : input.into === a.id ? a : b;
      const duplicate = canonical === a ? b : a;
      await mergeEntities({
        store: tx,
        journal,
        canonical,
        duplicate,
        now: input.now,
        newId: input.newId,
        reason: 'a person confirmed they are one',
      });
      await done('completed', `Merged "${duplicate.name}" into "${canonical.name}" (a person).`);
      return `"${duplicate.name}" merged into "${canonical.name}".`;
    },
  });
}
