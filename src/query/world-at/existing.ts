import type { Tier, Transition } from '../../domain/world.js';
import type { EntityBrief, WorldStore } from '../../ports/world-store.js';
import { explainsCurrent, movesByEntity, tierAt } from './tier-history.js';

/** An entity as it stood at an instant: its tier then (archiving later does not reach back). */
export interface EntityAt {
  entity: EntityBrief;
  tier: Tier;
}

/**
 * The entities that existed at `at` (first seen by then), of `type` when given, each with the tier it had then.
 * Archived is a tier of attention, not non-existence: an archived entity is in every snapshot from its first mention
 * on, shown as archived from its archival on and with its earlier tier before (so archiving something today changes
 * no snapshot of the past, and a snapshot of now still counts it); summarized likewise, from when it was summarized.
 * When is read from the journaled tier moves (every sleep, merge, audit fix or KIP write that moved a tier, in one
 * read: see tier-history.ts), so a snapshot of now gives every entity its own tier. Entities merged into another are
 * not separate things: their names and history live on in the entity they were merged into.
 */
export async function entitiesAt(input: { store: WorldStore; at: number; type?: string }): Promise<EntityAt[]> {
  const [only] = await entitiesAtEach({ ...input, times: [input.at] });
  return only ?? [];
}

/**
 * entitiesAt for several instants from one read of the entities (a diff's two ends): the list for each of `times`,
 * in that order, each most important first.
 */
export async function entitiesAtEach(input: {
  store: WorldStore;
  times: readonly number[];
  type?: string;
}): Promise<EntityAt[][]> {
  const { store, times } = input;
  if (times.length === 0) return [];
  const latest = Math.max(...times);
  const all = await store.entities.listBriefs({
    firstSeenAtOrBefore: latest,
    excludeMerged: true,
    ...(input.type === undefined ? {} : { type: input.type }),
  });
  const moves = movesByEntity(await store.journal.tierMoves());
  // Only entities whose journaled moves do not end at their tier (set outside a journaled run) need their records.
  const unexplained = all.filter((e) => !explainsCurrent({ current: e.tier, moves: moves.get(e.id) })).map((e) => e.id);
  const [archivals, summaries] =
    unexplained.length === 0
      ? [[], []]
      : await Promise.all([
          store.transitions.list({ entityIds: unexplained, kind: 'archival' }),
          store.transitions.list({ entityIds: unexplained, kind: 'summary' }),
        ]);
  const archivedAt = extremeTimes(archivals, (t) => t.eventTime, Math.max);
  // Summarized from the first sleep that summarized it (recordedAt), not from the last change it summarizes (its
  // event time, where the timeline lists it); never before that last change, though: a sleep run with a clock set
  // in the past summarized nothing before it.
  const summarizedAt = extremeTimes(summaries, (t) => Math.max(t.recordedAt, t.eventTime), Math.min);
  return times.map((at) =>
    all
      .filter((entity) => entity.firstSeen <= at)
      .map((entity) => ({
        entity,
        tier: tierAt({
          current: entity.tier,
          moves: moves.get(entity.id),
          recorded: {
            archivedSince: archivedAt.get(entity.id),
            summarizedSince: summarizedAt.get(entity.id),
            updatedAt: entity.updatedAt,
          },
          at,
        }),
      })),
  );
}

/** Per entity, the latest (pick = Math.max) or earliest (Math.min) of its transitions' times. */
function extremeTimes(
  transitions: readonly Transition[],
  time: (t: Transition) => number,
  pick: (a: number, b: number) => number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of transitions) {
    const seen = out.get(t.entityId);
    out.set(t.entityId, seen === undefined ? time(t) : pick(seen, time(t)));
  }
  return out;
}
