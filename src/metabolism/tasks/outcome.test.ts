import { describe, expect, it } from 'vitest';
import type { SleepTask } from '../../ports/sleep-task-store.js';
import { taskOutcome, type SubjectState, type TaskEvidence } from './outcome.js';

const T = Date.UTC(2025, 5, 1);
const DAY = 86_400_000;

function task(action: SleepTask['action'], extra: Partial<SleepTask> = {}): SleepTask {
  return {
    id: 'k',
    action,
    subjectIds: ['a'],
    payload: {},
    priority: 50,
    status: 'pending',
    source: 'ingest',
    reason: 'r',
    attempts: 0,
    result: null,
    dedupeKey: 'x',
    createdAt: T,
    updatedAt: T,
    completedAt: null,
    expiresAt: null,
    ...extra,
  };
}

function subject(extra: Partial<SubjectState> = {}): SubjectState {
  return { name: 'A', tier: 'active', mergedInto: null, lastSeen: T - DAY, importance: 0.42, ...extra };
}

function ev(entities: Record<string, SubjectState>, extra: Partial<TaskEvidence> = {}): TaskEvidence {
  return { entities: new Map(Object.entries(entities)), ...extra };
}

describe('taskOutcome', () => {
  it.each([
    ['missing subject', task('review_stale_entity'), ev({}), 'dismissed', 'A subject entity no longer exists.'],
    [
      'merged pair',
      task('merge_duplicates', { subjectIds: ['a', 'b'] }),
      ev({ a: subject({ mergedInto: 'b' }), b: subject({ name: 'B' }) }),
      'completed',
      'Merged "A" and "B".',
    ],
    [
      'merged elsewhere',
      task('merge_duplicates', { subjectIds: ['a', 'b'] }),
      ev({ a: subject({ mergedInto: 'c' }), b: subject() }),
      'dismissed',
      'One of the two was merged into a third entity.',
    ],
    [
      'not merged, retried',
      task('merge_duplicates', { subjectIds: ['a', 'b'] }),
      ev({ a: subject(), b: subject() }),
      'pending',
      'Not merged yet (not confirmed as the same).',
    ],
    [
      'not merged, third cycle',
      task('merge_duplicates', { subjectIds: ['a', 'b'], attempts: 2 }),
      ev({ a: subject(), b: subject() }),
      'failed',
      'Not confirmed as the same entity after 3 cycles; left for a person.',
    ],
    [
      'contradiction gone',
      task('resolve_contradiction'),
      ev({ a: subject() }),
      'dismissed',
      'The contradiction no longer exists.',
    ],
    [
      'contradiction resolved',
      task('resolve_contradiction'),
      ev({ a: subject() }, { resolvedBy: 't9' }),
      'completed',
      'Resolved by t9.',
    ],
    [
      'contradiction open',
      task('resolve_contradiction'),
      ev({ a: subject() }, { resolvedBy: null }),
      'pending',
      'Still unresolved.',
    ],
    [
      'low fact superseded',
      task('review_low_confidence'),
      ev({ a: subject() }, { fact: { confidence: 0.4, validTo: T, supersededBy: 'f2' } }),
      'completed',
      'Superseded by f2.',
    ],
    [
      'low fact reinforced',
      task('review_low_confidence'),
      ev({ a: subject() }, { fact: { confidence: 0.7, validTo: null, supersededBy: null } }),
      'completed',
      'Reinforced to 0.70.',
    ],
    [
      'low fact kept',
      task('review_low_confidence'),
      ev({ a: subject() }, { fact: { confidence: 0.4, validTo: null, supersededBy: null } }),
      'completed',
      'Kept at confidence 0.40; nothing contradicts it.',
    ],
    ['low fact gone', task('review_low_confidence'), ev({ a: subject() }), 'dismissed', 'The fact no longer exists.'],
    [
      'stale entity seen again',
      task('review_stale_entity'),
      ev({ a: subject({ lastSeen: T + DAY }) }),
      'completed',
      'Referenced again on 2025-06-02.',
    ],
    [
      'stale entity reviewed',
      task('review_stale_entity'),
      ev({ a: subject({ tier: 'summarized' }) }),
      'completed',
      'Reviewed: summarized, importance 0.42, last seen 2025-05-31.',
    ],
  ] as const)('%s', (_name, t, evidence, status, result) => {
    expect(taskOutcome(t, evidence)).toEqual({ status, result });
  });
});
