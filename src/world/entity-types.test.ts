import { describe, expect, it } from 'vitest';
import { matchEntityType } from './entity-types.js';

const STORED = ['tool', 'person', 'clinical_trial', 'period', '$ConceptType'];

describe('matchEntityType', () => {
  it.each([
    ['tool', STORED, 'tool'],
    ['Tool', STORED, 'tool'],
    ['TOOL', STORED, 'tool'],
    [' tool ', STORED, 'tool'],
    ['ClinicalTrial', STORED, 'clinical_trial'],
    ['clinical trial', STORED, 'clinical_trial'],
    ['$ConceptType', STORED, '$ConceptType'],
    ['$concepttype', STORED, '$ConceptType'],
    // A core type is known with no entity of it stored yet.
    ['Project', STORED, 'project'],
    ['person', [], 'person'],
    // The exact spelling wins over a case-insensitive twin.
    ['Tool', ['tool', 'Tool'], 'Tool'],
  ] as const)('%j among %j → %j', (asked, stored, expected) => {
    expect(matchEntityType({ asked, stored })).toBe(expected);
  });

  it('an unknown type is INVALID_ARGUMENT naming the stored types in one sentence', () => {
    expect(() => matchEntityType({ asked: 'bogus', stored: STORED })).toThrowError(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message:
          'No entity has the type "bogus"; the types in this memory are $ConceptType, clinical_trial, period, person, tool.',
      }),
    );
    expect(() => matchEntityType({ asked: 'bogus', stored: [] })).toThrowError(
      'No entity has the type "bogus": the memory has no entities yet.',
    );
  });

  it('names at most 30 types', () => {
    const many = Array.from({ length: 35 }, (_, i) => `kind${String(i).padStart(2, '0')}`);
    expect(() => matchEntityType({ asked: 'bogus', stored: many })).toThrowError(/kind29 and 5 more\.$/);
  });

  it('a type that could mean several stored types is INVALID_ARGUMENT naming them', () => {
    expect(() => matchEntityType({ asked: 'TOOL', stored: ['tool', 'Tool'] })).toThrowError(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: 'The type "TOOL" could mean tool or Tool; give one of them exactly as written.',
      }),
    );
  });
});
