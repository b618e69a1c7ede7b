import type { PhaseInput, PhaseResult, SleepPhase } from '../phase.js';

/** At most this many expired items are deleted per cycle (KIP sleep spec, phase 12). */
export const TTL_CAP = 500;

/**
 * KIP sleep phase 12, the only hard delete of the cycle: finished sleep tasks past their expiry. Each deletion is
 * journaled with the whole row, so `pie undo` brings the tasks back. World records (entities, transitions, facts,
 * relationships) have no expiry and are never deleted here: they are archived or superseded instead.
 */
async function runTtl(input: PhaseInput): Promise<PhaseResult> {
  const expired = await input.store.tasks.expired({ now: input.now, limit: TTL_CAP });
  if (input.journal !== null) {
    for (const task of expired) {
      await input.journal.change('sleep_tasks', task.id, () =>
        input.store.upkeep.putRow({ table: 'sleep_tasks', id: task.id, row: null }),
      );
    }
  }
  return { changes: expired.length, details: { sleepTasksDeleted: expired.length, cap: TTL_CAP } };
}

export const ttlPhase: SleepPhase = { name: 'TTL cleanup', scopes: ['full'], run: runTtl };
