import { describe, expect, it } from 'vitest';
import { cosine } from '../../domain/vectors.js';
import { createFakeEmbedder } from './fake.js';

describe('fake embedder', () => {
  it('is deterministic, unit-length, and close for shared spelling only', async () => {
    const e = createFakeEmbedder({ synonyms: [['Mom', 'Sunita Kumar']] });
    const [a, b, c, d, mom, sunita] = await e.embed([
      'Tidepool',
      'Tidepool',
      'Tidepools',
      'Kubernetes',
      'Mom',
      'Sunita Kumar',
    ]);
    expect(a).toEqual(b);
    expect(cosine(a!, a!)).toBeCloseTo(1, 6);
    expect(cosine(a!, c!)).toBeGreaterThan(0.7);
    expect(cosine(a!, d!)).toBeLessThan(0.5);
    expect(cosine(mom!, sunita!)).toBeCloseTo(1, 6);
  });
});
