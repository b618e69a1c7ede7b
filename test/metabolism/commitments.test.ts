import { describe, expect, it } from 'vitest';
import type { EntityState, Transition } from '../../src/domain/world.js';
import { dueOf, judgeCommitment, showsCompletion } from '../../src/metabolism/commitments.js';

const DAY = 86_400_000;
const DUE = '2025-03-01';
const DUE_END = Date.UTC(2025, 2, 2); // due by the end of March 1

function tr(
  summary: string,
  day: number,
  kind: Transition['kind'] = 'update',
  to: Record<string, string> = {},
): Transition {
  return {
    id: `t${day}`,
    entityId: 'c1',
    kind,
    fromState: null,
    toState: to,
    summary,
    eventTime: DUE_END + day * DAY,
    recordedAt: 0,
    confidence: 0.8,
    episodeId: `ep${day}`,
    batchId: null,
    resolvedBy: null,
  };
}

const open: EntityState = { due: DUE, status: 'open', to: 'Maya' };

describe('judgeCommitment (phase 5C, 30 days by default)', () => {
  it.each([
    // state, transitions, last activity (days from the end of the due day), now (days), expected
    ['not yet due', open, [], -10, -1, { kind: 'pending' }],
    ['due today is not overdue yet', open, [], -10, -0.5, { kind: 'pending' }],
    ['one day past due: overdue, not expired', open, [], -10, 1, { kind: 'overdue', daysPast: 1 }],
    ['29 days past due, idle: still overdue', open, [], -10, 29, { kind: 'overdue', daysPast: 29 }],
    ['30 days past due, idle: expired', open, [], -10, 30, { kind: 'expired', daysPast: 30 }],
    ['long past due but mentioned since: overdue', open, [], 5, 90, { kind: 'overdue', daysPast: 90 }],
    [
      'kept, by a later change',
      open,
      [tr('created', -20, 'creation'), tr('Sent the report to Maya', 3)],
      3,
      90,
      { kind: 'fulfilled' },
    ],
    ['a hedge is not completion', open, [tr('not finished yet', 3)], 3, 5, { kind: 'overdue' }],
    ['the creation itself never counts', open, [tr('finish the draft', -20, 'creation')], -20, 40, { kind: 'expired' }],
    ['pending is open too', { ...open, status: 'pending' }, [], -10, 2, { kind: 'overdue' }],
    ['closed ones are left alone', { ...open, status: 'fulfilled' }, [], -10, 90, { kind: 'not-open' }],
    ['without a due date', { status: 'open' }, [], -10, 90, { kind: 'undated' }],
  ] as const)('%s', (_name, state, transitions, activity, now, expected) => {
    const v = judgeCommitment({
      state,
      transitions: [...transitions],
      lastActivity: DUE_END + activity * DAY,
      now: DUE_END + now * DAY,
    });
    expect(v).toMatchObject(expected);
  });

  it('takes another expiry and reads other due keys', () => {
    const v = judgeCommitment({
      state: { deadline: '2025-03-01', status: 'open' },
      transitions: [],
      lastActivity: 0,
      now: DUE_END + 8 * DAY,
      rules: { expireAfterDays: 7 },
    });
    expect(v).toEqual({ kind: 'expired', due: DUE_END, daysPast: 8 });
    expect(dueOf({ due: 'not a date' })).toBeNull();
    expect(dueOf({ due_at: '2025-03-01T09:00:00Z' })).toBe(Date.UTC(2025, 2, 1, 9));
  });

  it('completion words in the summary or the new values, without a hedge', () => {
    expect(showsCompletion(tr('progress changed', 1, 'update', { progress: 'delivered' }))).toBe(true);
    expect(showsCompletion(tr('Submitted the application', 1))).toBe(true);
    expect(showsCompletion(tr('still drafting', 1, 'update', { progress: 'draft' }))).toBe(false);
    expect(showsCompletion(tr("haven't sent it", 1))).toBe(false);
  });
});
