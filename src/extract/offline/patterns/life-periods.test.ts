import { describe, expect, it } from 'vitest';
import type { ExtractionResult } from '../../result.js';
import { rel, run, said } from '../test-kit.js';

const periods = (r: ExtractionResult) => r.entities.filter((e) => e.type === 'period');

describe('life periods', () => {
  it.each([
    ['When I was a kid, I loved drawing.', 'childhood', 'ended'],
    ['I used to paint a lot when I was younger.', 'childhood', 'ended'],
    ['Growing up, we never had a dog.', 'childhood', 'ended'],
    ['I have loved basketball ever since I was a kid.', 'childhood', 'ended'],
    ['My mom taught me to swim when I was 10.', 'childhood', 'ended'],
    ['I started dancing when I was 15 years old.', 'teenage years', 'ended'],
    ['As a teenager I played the drums.', 'teenage years', 'ended'],
    ['Back in high school I ran track.', 'high school', 'ended'],
    ['I played soccer in college.', 'college', 'ended'],
    ['My time in the military taught me discipline.', 'military service', 'ended'],
    ['Since I lost my job I have been applying everywhere.', 'unemployment', 'active'],
    ['Since I retired, I garden every morning.', 'retirement', 'active'],
    ['I craved pickles during my pregnancy.', 'pregnancy', 'ended'],
  ])('%s → %s (%s)', (text, name, status) => {
    const r = run([text]);
    expect(periods(r).map((p) => [p.name, p.state.status])).toEqual([[name, status]]);
    // The period may be over; the person's link to it is not.
    expect(rel(r, 'User', 'HAS_PERIOD', name)).toMatchObject({ ended: false });
  });

  it('a move to a named place is life there, from the time the sentence states', () => {
    // T0 is 2025-01-15; "two years ago" is dated within 2023.
    const r = run(['Since I moved to Boston two years ago, I bike everywhere.']);
    const period = periods(r).find((p) => p.name === 'life in Boston');
    expect(period?.state.status).toBe('active');
    expect(String(period?.state.start)).toMatch(/^2023-/);
    // The user's own current period frames the batch.
    expect(r.periodContext).toBe('life in Boston');
  });

  it("another speaker's period is named as theirs and does not frame the batch", () => {
    const r = said('Gina', 'Since I lost my job at Door Dash, I have been working on my store.');
    expect(periods(r).map((p) => [p.name, p.state.status])).toEqual([["Gina's unemployment", 'active']]);
    expect(rel(r, 'Gina', 'HAS_PERIOD', "Gina's unemployment")).toBeDefined();
    expect(r.periodContext).toBeUndefined();
    expect(periods(said('Caroline', 'When I was young I wanted to be a teacher.')).map((p) => p.name)).toEqual([
      "Caroline's childhood",
    ]);
  });

  it.each([
    'My kids are growing up so fast.',
    'It costs as little as five dollars.',
    'When I was 30 I changed careers.',
    'When I was 5 months pregnant we moved.',
    'Do you remember when I was in college?',
    'My son is in high school now.',
    'Since I moved here I bike everywhere.',
    'Maybe since I retired I should travel.',
  ])('no period: %s', (text) => {
    expect(periods(run([text])).map((p) => p.name)).toEqual([]);
  });
});
