import { describe, expect, it } from 'vitest';
import { ITEM_ENTITIES, phaseItems } from './phase-items.js';

describe('phaseItems', () => {
  it('groups tier moves by move, with the phase count and the entities', () => {
    const items = phaseItems({
      name: 'tiers',
      details: {
        moves: { 'active→summarized': 2, 'active→archived': 1 },
        moved: [
          { entityId: 'a', from: 'active', to: 'summarized' },
          { entityId: 'b', from: 'active', to: 'archived' },
          { entityId: 'c', from: 'active', to: 'summarized' },
        ],
      },
    });
    expect(items).toEqual([
      { text: 'active → summarized (2):', entityIds: ['a', 'c'] },
      { text: 'active → archived (1):', entityIds: ['b'] },
    ]);
  });

  it('lists at most ITEM_ENTITIES entities a line and says how many more there are', () => {
    const moved = Array.from({ length: ITEM_ENTITIES + 5 }, (_, i) => ({
      entityId: `e${i}`,
      from: 'active',
      to: 'archived',
    }));
    const [item] = phaseItems({ name: 'tiers', details: { moves: { 'active→archived': 300 }, moved } });
    expect(item?.entityIds).toHaveLength(ITEM_ENTITIES);
    expect(item?.text).toBe('active → archived (300): (5 more not listed)');
  });

  it('names merges, pairs kept apart and pairs left for review; connections; refined periods; issues last', () => {
    const merge = phaseItems({
      name: 'merge duplicates',
      details: {
        merged: [{ from: 'Mich', into: 'Michigan', reason: 'alias' }],
        leftForReview: [{ names: ['Michigan', 'University of Michigan'], reason: 'contained', why: 'needs a model' }],
      },
      issues: ['1 more pair left for review.'],
    });
    expect(merge.map((i) => i.text)).toEqual([
      'Merged “Mich” into “Michigan” (alias)',
      'Left for review: Michigan / University of Michigan (needs a model)',
      '1 more pair left for review.',
    ]);
    expect(phaseItems({ name: 'micro dreams', details: { pairs: [{ a: 'x', b: 'y', count: 3 }] } })).toEqual([
      { text: 'Connected (said together in 3 conversations):', entityIds: ['x', 'y'] },
    ]);
    expect(phaseItems({ name: 'period refinement', details: { refined: ['gap year: a → b'] } })).toEqual([
      { text: 'Refined: gap year: a → b' },
    ]);
  });

  it("falls back to the phase's plain figures, and to nothing without details", () => {
    expect(phaseItems({ name: 'contradiction supersession', details: { open: 5, resolved: 2, list: [1] } })).toEqual([
      { text: 'open: 5, resolved: 2' },
    ]);
    expect(phaseItems({ name: 'deep dreams' })).toEqual([]);
  });
});
