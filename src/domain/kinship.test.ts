import { describe, expect, it } from 'vitest';
import { kinshipConflict } from './kinship.js';

describe('kinshipConflict', () => {
  it.each([
    // LongMemEval S dev30: two people with one first name, or a wrong reading.
    ['sister', 'best friend', true],
    ['friend', 'cousin', true],
    ['cousin', 'brother', true],
    ['little brother', 'son', true],
    // The same kin said another way, a kin word refined, and changes with no kin word.
    ['mom', 'mother', false],
    ['sister', 'little sister', false],
    ['grandma', 'grandmother', false],
    ['girlfriend', 'wife', false],
    ['friend', 'colleague', false],
    ['wife', 'ex-wife', false],
  ])('%s → %s: %s', (from, to, conflict) => {
    expect(kinshipConflict('relation', from, to)).toBe(conflict);
  });

  it('reads only a relation changed from one value to another', () => {
    expect(kinshipConflict('role', 'sister', 'friend')).toBe(false);
    expect(kinshipConflict('relation', null, 'sister')).toBe(false);
  });
});
