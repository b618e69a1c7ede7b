import { describe, expect, it } from 'vitest';
import { rel, run } from '../test-kit.js';

describe('preferences', () => {
  it.each([
    [
      'I prefer TypeScript over plain JavaScript for anything that will live longer than a weekend, so TS everywhere.',
      'prefers TypeScript over plain JavaScript',
      { preferred: 'TypeScript', over: 'plain JavaScript', context: 'anything that will live longer than a weekend' },
    ],
    [
      'I prefer local markdown files that I actually own, and Notion got slow.',
      'prefers local markdown files that I actually own',
      { preferred: 'local markdown files that I actually own' },
    ],
    [
      'I prefer plain SDK calls and small functions over frameworks.',
      'prefers plain SDK calls and small functions over frameworks',
      { preferred: 'plain SDK calls and small functions', over: 'frameworks' },
    ],
    [
      "I'd rather walk than take the bus.",
      'prefers walk over take the bus',
      { preferred: 'walk', over: 'take the bus' },
    ],
  ])('%s', (text, name, state) => {
    const p = run([text]).entities.find((e) => e.type === 'preference');
    expect(p?.name).toBe(name);
    expect(p?.state).toEqual(state);
  });

  it('the user PREFERS a tool over another', () => {
    expect(rel(run(['I prefer Vim to Emacs.']), 'User', 'PREFERS', 'Vim')?.properties).toEqual({ over: 'Emacs' });
  });

  it.each(['Do you prefer tea?', 'I prefer it.', 'She prefers cats.'])('no preference: %s', (text) => {
    expect(run([text]).entities.filter((e) => e.type === 'preference')).toEqual([]);
  });
});
