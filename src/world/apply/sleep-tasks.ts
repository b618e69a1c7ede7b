import type { NewSleepTask } from '../../ports/sleep-task-store.js';
import type { Mutation } from './mutations.js';

/** Facts recorded below this confidence are left for the sleep cycle to review. */
export const LOW_CONFIDENCE = 0.5;

export interface AmbiguousMention {
  /** The entity the mention became (new), and the existing ones it was close to. */
  entityId: string;
  name: string;
  candidateIds: string[];
}

/**
 * The work an applied extraction leaves for the next sleep cycle (KIP sleep spec, phase 2): each contradiction it
 * recorded, each new entity that was close to an existing one without being merged, and each fact it stored with
 * low confidence. Pure: the caller stores them (one open task per action and subject).
 */
export function sleepTasksFromApply(input: {
  mutations: readonly Mutation[];
  ambiguous: readonly AmbiguousMention[];
  now: number;
  newId: () => string;
}): NewSleepTask[] {
  const tasks: NewSleepTask[] = [];
  const inserted = new Set<string>();
  for (const m of input.mutations) if (m.op === 'entity.insert') inserted.add(m.entity.id);
  for (const m of input.mutations) {
    if (m.op === 'transition.insert' && m.transition.kind === 'contradiction') {
      tasks.push({
        id: input.newId(),
        action: 'resolve_contradiction',
        subjectIds: [m.transition.entityId],
        payload: { transitionId: m.transition.id },
        dedupeKey: `resolve_contradiction:${m.transition.id}`,
        priority: 70,
        source: 'ingest',
        reason: `Contradiction recorded: ${m.transition.summary}`,
        createdAt: input.now,
      });
    } else if (m.op === 'fact.insert' && m.fact.confidence < LOW_CONFIDENCE) {
      tasks.push({
        id: input.newId(),
        action: 'review_low_confidence',
        subjectIds: [m.fact.entityId],
        payload: { factId: m.fact.id, attribute: m.fact.attribute },
        dedupeKey: `review_low_confidence:${m.fact.id}`,
        priority: 30,
        source: 'ingest',
        reason: `${m.fact.attribute} recorded with confidence ${m.fact.confidence.toFixed(2)}`,
        createdAt: input.now,
      });
    }
  }
  for (const a of input.ambiguous) {
    if (!inserted.has(a.entityId)) continue;
    for (const other of a.candidateIds) {
      if (other === a.entityId) continue;
      tasks.push({
        id: input.newId(),
        action: 'merge_duplicates',
        subjectIds: [a.entityId, other],
        payload: { name: a.name },
        priority: 60,
        source: 'ingest',
        reason: `"${a.name}" was close to an existing entity but not merged`,
        createdAt: input.now,
      });
    }
  }
  return tasks;
}
