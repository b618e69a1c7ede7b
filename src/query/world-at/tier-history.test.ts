import { describe, expect, it } from 'vitest';
import type { Tier } from '../../domain/world.js';
import { explainsCurrent, movesByEntity, tierAt, type Move, type RecordedTier } from './tier-history.js';

const NONE: RecordedTier = { archivedSince: undefined, summarizedSince: undefined, updatedAt: 5 };
const move = (from: Tier, to: Tier, at: number): Move => ({ from, to, at });

describe('tierAt', () => {
  it.each<[string, Tier, Move[], RecordedTier, [number, Tier][]]>([
    [
      'never moved, active',
      'active',
      [],
      NONE,
      [
        [0, 'active'],
        [99, 'active'],
      ],
    ],
    [
      'summarized by a sleep at 10 (no summary record): active before, summarized from 10',
      'summarized',
      [move('active', 'summarized', 10)],
      NONE,
      [
        [9, 'active'],
        [10, 'summarized'],
        [99, 'summarized'],
      ],
    ],
    [
      'summarized at 10, archived at 20',
      'archived',
      [move('active', 'summarized', 10), move('summarized', 'archived', 20)],
      NONE,
      [
        [9, 'active'],
        [15, 'summarized'],
        [20, 'archived'],
      ],
    ],
    [
      'summarized at 10, active again at 20 (seen again)',
      'active',
      [move('active', 'summarized', 10), move('summarized', 'active', 20)],
      NONE,
      [
        [9, 'active'],
        [10, 'summarized'],
        [20, 'active'],
      ],
    ],
    [
      'a later sleep with its clock at 5 moves it back: from 10, the move before it, never earlier',
      'active',
      [move('active', 'summarized', 10), move('summarized', 'active', 5)],
      NONE,
      [
        [4, 'active'],
        [5, 'active'],
        [9, 'active'],
        [10, 'active'],
      ],
    ],
    [
      'two moves in one run: the second holds from the same clock',
      'archived',
      [move('active', 'summarized', 10), move('summarized', 'archived', 10)],
      NONE,
      [
        [9, 'active'],
        [10, 'archived'],
      ],
    ],
    [
      'no journaled move, archived with an archival record at 30 and a summary at 20',
      'archived',
      [],
      { archivedSince: 30, summarizedSince: 20, updatedAt: 40 },
      [
        [19, 'active'],
        [20, 'summarized'],
        [30, 'archived'],
      ],
    ],
    [
      'no journaled move, archived without records: from its last row change',
      'archived',
      [],
      NONE,
      [
        [4, 'active'],
        [5, 'archived'],
      ],
    ],
    [
      'no journaled move, summarized without a summary record: from its last row change',
      'summarized',
      [],
      NONE,
      [
        [4, 'active'],
        [5, 'summarized'],
      ],
    ],
    [
      'no journaled move, summarized with a summary record at 3',
      'summarized',
      [],
      { ...NONE, summarizedSince: 3 },
      [
        [2, 'active'],
        [3, 'summarized'],
      ],
    ],
    [
      'journaled to summarized at 10, then archived outside a run at 8: archived from 10 (after the move)',
      'archived',
      [move('active', 'summarized', 10)],
      { archivedSince: 8, summarizedSince: undefined, updatedAt: 8 },
      [
        [9, 'active'],
        [10, 'archived'],
      ],
    ],
    [
      'journaled moves that begin from a tier set outside any run keep that tier before them',
      'active',
      [move('summarized', 'active', 10)],
      NONE,
      [
        [0, 'summarized'],
        [10, 'active'],
      ],
    ],
  ])('%s', (_, current, moves, recorded, expected) => {
    for (const [at, tier] of expected) expect(tierAt({ current, moves, recorded, at }), `at ${at}`).toBe(tier);
  });

  it('the latest step is always the current tier: a snapshot of now agrees with the entity', () => {
    const cases: [Tier, Move[]][] = [
      ['summarized', [move('active', 'summarized', 10)]],
      ['active', [move('active', 'archived', 10)]],
      ['archived', [move('active', 'summarized', 50), move('summarized', 'active', 5)]],
    ];
    for (const [current, moves] of cases) {
      expect(tierAt({ current, moves, recorded: NONE, at: Number.MAX_SAFE_INTEGER })).toBe(current);
    }
  });
});

describe('explainsCurrent and movesByEntity', () => {
  it('moves explain the current tier when the last one ends at it; no moves explain only active', () => {
    expect(explainsCurrent({ current: 'active', moves: undefined })).toBe(true);
    expect(explainsCurrent({ current: 'archived', moves: undefined })).toBe(false);
    expect(explainsCurrent({ current: 'archived', moves: [move('active', 'archived', 1)] })).toBe(true);
    expect(explainsCurrent({ current: 'active', moves: [move('active', 'archived', 1)] })).toBe(false);
  });

  it('groups moves by entity in the order given and leaves out tiers it does not know', () => {
    const grouped = movesByEntity([
      { entityId: 'a', from: 'active', to: 'summarized', at: 1 },
      { entityId: 'b', from: 'active', to: 'archived', at: 1 },
      { entityId: 'a', from: 'summarized', to: 'dormant', at: 2 },
      { entityId: 'a', from: 'summarized', to: 'active', at: 3 },
    ]);
    expect(grouped.get('a')?.map((m) => m.at)).toEqual([1, 3]);
    expect(grouped.get('b')).toHaveLength(1);
  });
});
