import type { WorldStore } from '../ports/world-store.js';
import { decayedConfidence, weeksToCharge, type DecayRules } from './decay.js';
import type { SalienceResult } from './plan.js';
import { activityNow, recencyDays } from './tiers.js';

export interface DecayChange {
  factId: string;
  entityId: string;
  from: number;
  to: number;
}

/** When the last completed full run (the one that decays) ran, from the maintenance log. */
async function lastDecayAt(store: WorldStore, kind: string): Promise<number | null> {
  // One entry, not the recent log: each full run's report holds its tier moves (hundreds of KB on a large memory).
  return (await store.maintenance.lastCompleted({ kind, scope: 'full' }))?.startedAt ?? null;
}

/** The current facts whose confidence decays in this cycle (protected entities' facts never do). */
export async function planDecay(input: {
  store: WorldStore;
  now: number;
  salience: SalienceResult;
  logKind: string;
  rules?: DecayRules;
}): Promise<DecayChange[]> {
  const since = await lastDecayAt(input.store, input.logKind);
  const importance = new Map(input.salience.importance.map((c) => [c.entityId, c.to]));
  const nodes = new Map(input.salience.nodes.map((n) => [n.id, n]));
  const changes: DecayChange[] = [];
  // Neglect is measured against the memory's own activity (see activityNow), not the wall clock.
  const now = activityNow({ now: input.now, latestEpisodeAt: (await input.store.stats()).lastEpisodeAt });
  for (const fact of await input.store.facts.validAt({ time: input.now })) {
    const node = nodes.get(fact.entityId);
    if (node === undefined || node.protected) continue;
    const to = decayedConfidence(
      {
        confidence: fact.confidence,
        importance: importance.get(node.id) ?? node.importance,
        recencyDays: recencyDays(node.lastSeen, now),
        weeks: weeksToCharge({ now, lastDecayAt: since, lastSeen: node.lastSeen }),
      },
      input.rules,
    );
    if (to !== null) changes.push({ factId: fact.id, entityId: fact.entityId, from: fact.confidence, to });
  }
  return changes;
}
