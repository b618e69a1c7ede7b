import { describe, expect, it } from 'vitest';
import type { Entity } from '../../domain/world.js';
import { staleReviewTasks } from './stale-review.js';

const NOW = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

function entity(id: string, extra: Partial<Entity> = {}): Entity {
  return {
    id,
    type: 'project',
    name: id.toUpperCase(),
    aliases: [],
    state: {},
    firstSeen: NOW - 400 * DAY,
    lastSeen: NOW - 100 * DAY,
    importance: 0.7,
    tier: 'active',
    accessCount: 0,
    createdFrom: null,
    recordedAt: NOW,
    updatedAt: NOW,
    version: 1,
    protected: false,
    meta: {},
    ...extra,
  };
}

describe('staleReviewTasks', () => {
  it.each([
    ['important and unseen for 100 days', entity('a'), ['a', 48, 100]],
    ['seen 89 days ago', entity('b', { lastSeen: NOW - 89 * DAY }), null],
    ['not important enough (the default 0.5)', entity('c', { importance: 0.5 }), null],
    ['archived (left to the tiers)', entity('d', { tier: 'archived' }), null],
    ['protected', entity('e', { protected: true }), null],
    ['a period', entity('f', { type: 'period' }), null],
  ] as const)('%s', (_name, e, expected) => {
    const tasks = staleReviewTasks({ entities: [e], now: NOW });
    expect(tasks.map((t) => [t.subjectIds[0], t.priority, t.payload?.daysUnseen])).toEqual(
      expected === null ? [] : [expected],
    );
  });

  it('says why in words', () => {
    expect(staleReviewTasks({ entities: [entity('a')], now: NOW })[0]).toMatchObject({
      action: 'review_stale_entity',
      source: 'query',
      reason: '"A" (importance 0.70) was retrieved but not referenced for 100 days',
    });
  });
});
