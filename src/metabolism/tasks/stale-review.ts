import type { Entity } from '../../domain/world.js';
import type { NewSleepTask } from '../../ports/sleep-task-store.js';
import type { WorldStore } from '../../ports/world-store.js';
import { DAY_MS } from '../../domain/time.js';
import { errorMessage } from '../../domain/errors.js';

/** An entity this important that has not been referenced for this long is worth a look when a query brings it up. */
export const STALE_REVIEW = { minImportance: 0.6, minDaysUnseen: 90 } as const;

/**
 * Review tasks for the retrieved entities that are important but stale (pure). Queries call this through
 * `recordRetrieval`; the sleep cycle then records what it finds (still stale, moved to a tier, referenced again).
 */
export function staleReviewTasks(input: { entities: readonly Entity[]; now: number }): NewSleepTask[] {
  const out: NewSleepTask[] = [];
  for (const e of input.entities) {
    if (e.protected || e.type === 'period' || e.tier === 'archived') continue;
    const days = Math.floor((input.now - e.lastSeen) / DAY_MS);
    if (e.importance < STALE_REVIEW.minImportance || days < STALE_REVIEW.minDaysUnseen) continue;
    out.push({
      id: `stale-${e.id}-${input.now}`,
      action: 'review_stale_entity',
      subjectIds: [e.id],
      payload: { importance: e.importance, daysUnseen: days },
      priority: Math.round(20 + 40 * e.importance),
      source: 'query',
      reason: `"${e.name}" (importance ${e.importance.toFixed(2)}) was retrieved but not referenced for ${days} days`,
      createdAt: input.now,
    });
  }
  return out;
}

/**
 * What a query does with the entities it retrieved: their access counts go up (importance uses them) and the
 * important-but-stale ones are left for the next sleep cycle to review. Bookkeeping, not content: when it cannot be
 * written (the database busy with another process's writes beyond the busy timeout), the query still answers and
 * `onWarning` says what was not recorded, as the MCP tools do.
 */
export async function recordRetrieval(input: {
  store: WorldStore;
  entities: readonly Entity[];
  now: number;
  onWarning?: ((message: string) => void) | undefined;
}): Promise<void> {
  if (input.entities.length === 0) return;
  try {
    await input.store.entities.incrementAccess(input.entities.map((e) => e.id));
    for (const task of staleReviewTasks(input)) await input.store.tasks.leave(task);
  } catch (error) {
    input.onWarning?.(`access counts not recorded: ${errorMessage(error)}`);
  }
}
