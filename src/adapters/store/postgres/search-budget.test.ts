import { describe, expect, it } from 'vitest';
import { RANK_BUDGET } from '../sqlite/search.js';
import { buildTsTiers } from './fts-query.js';
import { budgetTiers, informative, overBudget, sortMatches } from './search-budget.js';

const tiers = (text: string) => {
  const t = buildTsTiers(text);
  if (!t) throw new Error('no words');
  return t;
};

describe('the common-word budget of PostgreSQL search', () => {
  it('leaves every tier unchanged in a small or never analyzed table', () => {
    const t = tiers('alpha beta gamma');
    for (const size of [0, 4999]) {
      const out = budgetTiers(t, { size, docs: [4000, 4000, 4000] });
      expect(out.map((x) => x.expr)).toEqual([t.all, t.pairs, t.any]);
      expect(out.some((x) => overBudget(x, { size, docs: [4000, 4000, 4000] }))).toBe(false);
    }
  });

  it('drops words in over 5 % of a large table from the any-word tier, and pairs only the rarest four', () => {
    const t = tiers('alpha beta gamma delta epsilon');
    const stats = { size: 100_000, docs: [50_000, 10, 20, 30, 40] };
    const [all, pairs, any] = budgetTiers(t, stats);
    expect(all?.estimate).toBe(10);
    expect(pairs?.words).toEqual([1, 2, 3, 4]);
    expect(pairs?.expr).not.toContain('@w0');
    expect(any?.words).toEqual([1, 2, 3, 4]);
    expect(any?.expr).not.toContain('@w0');
  });

  it('ranks a tier over the budget by its rarest words first', () => {
    const t = tiers('common rare');
    const stats = { size: 100_000, docs: [RANK_BUDGET * 3, 5] };
    const [all] = budgetTiers(t, stats);
    const tier = { ...all!, estimate: RANK_BUDGET + 1 };
    expect(overBudget(tier, stats)).toBe(true);
    expect(informative(tier, t, stats)).toBe("(phraseto_tsquery('english', @w1))");
    // Even the rarest word is over the budget: nothing to rank first.
    expect(informative(tier, t, { size: 100_000, docs: [RANK_BUDGET * 3, RANK_BUDGET * 2] })).toBeNull();
  });

  it.each([
    { estimate: 7_300, size: 200_000, sort: true }, // a few percent of the rows: sort the matches
    { estimate: 17_500, size: 200_000, sort: false }, // dense enough for the planner's walk from the newest row
    { estimate: 4_000, size: 5_000, sort: false },
    { estimate: 3_500, size: 0, sort: false },
  ])('sorts the matches of a tier over budget when they are sparse: $estimate of $size', ({ estimate, size, sort }) => {
    expect(sortMatches({ expr: '', estimate, words: [] }, { size, docs: [] })).toBe(sort);
  });
});
