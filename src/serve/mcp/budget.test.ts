import { describe, expect, it } from 'vitest';
import { fitStructured, fitText } from './budget.js';

/** One token per word: easy to reason about in a test. */
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;
const lines = (n: number, width = 5): string =>
  Array.from({ length: n }, (_, i) => Array.from({ length: width }, (_, j) => `w${i}.${j}`).join(' ')).join('\n');

describe('fitText', () => {
  it('leaves a text within the budget alone', () => {
    const text = lines(3);
    expect(fitText({ text, maxTokens: 15, count: words, narrow: 'Narrow it.' })).toEqual({
      text,
      tokens: 15,
      cutLines: 0,
      totalLines: 3,
      fullTokens: 15,
    });
  });

  it('keeps the most whole lines that fit with the note, and says what was cut and how to narrow', () => {
    const text = lines(40);
    const fitted = fitText({ text, maxTokens: 100, count: words, narrow: 'Pass a smaller limit.' });
    expect(fitted.tokens).toBeLessThanOrEqual(100);
    const out = fitted.text.split('\n');
    const kept = out.slice(0, -1);
    expect(kept).toEqual(text.split('\n').slice(0, kept.length));
    expect(out.at(-1)).toBe(
      `[Cut to fit the 100-token response budget: ${40 - kept.length} of 40 lines (about 200 tokens in all) left out. Pass a smaller limit.]`,
    );
    // Maximal: one more line would not fit.
    const oneMore = [...text.split('\n').slice(0, kept.length + 1), out.at(-1) ?? ''].join('\n');
    expect(words(oneMore)).toBeGreaterThan(100);
    expect(fitted).toMatchObject({ cutLines: 40 - kept.length, totalLines: 40, fullTokens: 200 });
  });

  it('cuts inside a first line that alone is over the budget', () => {
    const text = `${lines(1, 500)}\nsecond line`;
    const fitted = fitText({ text, maxTokens: 80, count: (t) => Math.ceil(t.length / 4), narrow: 'Ask less.' });
    expect(fitted.tokens).toBeLessThanOrEqual(80);
    expect(fitted.text).toMatch(/^w0\.0 w0\.1 .*…\n\[Cut to fit the 80-token response budget: 1 of 2 lines/);
  });
});

describe('fitStructured', () => {
  const value = {
    total: 300,
    entities: Array.from({ length: 300 }, (_, i) => ({ name: `entity ${i}`, state: { stage: 'beta' } })),
    relationships: Array.from({ length: 10 }, (_, i) => ({ type: 'USES', target: `tool ${i}` })),
  };
  const approx = (text: string): number => Math.ceil(text.length / 4);

  it('shortens every list from the end by the same fraction, the largest that fits', () => {
    const fitted = fitStructured({ value, maxTokens: 1000, count: approx });
    const { entities, relationships } = fitted.value;
    expect(approx(JSON.stringify(fitted.value))).toBeLessThanOrEqual(1000);
    expect(entities.length).toBeGreaterThan(30);
    expect(entities.length).toBeLessThan(300);
    expect(entities).toEqual(value.entities.slice(0, entities.length));
    expect(Math.abs(relationships.length - (10 * entities.length) / 300)).toBeLessThanOrEqual(1);
    expect(fitted.value.total).toBe(300);
    expect(fitted.omitted).toEqual([
      { path: 'entities', kept: entities.length, total: 300 },
      { path: 'relationships', kept: relationships.length, total: 10 },
    ]);
    // Nearly the most that fits: a tenth more of each list would not.
    const more = Math.ceil(entities.length * 1.1);
    expect(approx(JSON.stringify({ ...value, entities: value.entities.slice(0, more) }))).toBeGreaterThan(1000);
    expect(value.entities).toHaveLength(300);
  });

  it('leaves content within the budget untouched', () => {
    expect(fitStructured({ value, maxTokens: 100_000, count: approx })).toEqual({ value, omitted: [] });
  });
});
