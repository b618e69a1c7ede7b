import { describe, expect, it } from 'vitest';
import { POINT_RELATIONSHIPS } from '../../domain/world.js';
import { extractionInstructions, SUGGESTED_RELATIONSHIP_TYPES } from './instructions.js';

describe('the extraction prompt', () => {
  it('suggests every relationship type the domain dates as a point, and the ones the offline rules write', () => {
    const suggested = new Set<string>(SUGGESTED_RELATIONSHIP_TYPES);
    for (const type of [...POINT_RELATIONSHIPS, 'OWNS', 'VISITED', 'FROM'])
      expect(suggested.has(type), type).toBe(true);
    expect(extractionInstructions()).toContain('VISITED');
  });
});
