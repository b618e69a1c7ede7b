import { describe, expect, it } from 'vitest';
import { relationshipProps } from './timeline.js';

describe('relationshipProps', () => {
  it('writes what the link is and leaves out bookkeeping values too long to read', () => {
    const ids = Array.from({ length: 5 }, (_, i) => `chatgpt:7e55b1f5-1108-48cc-a6af-7f7598ad73d${i}`).join(', ');
    expect(relationshipProps({ role: 'co-founder', since: null, coMentions: 5, evidenceEpisodes: ids })).toBe(
      'role: co-founder; coMentions: 5',
    );
    expect(relationshipProps({ note: 'x'.repeat(60) })).toBe(`note: ${'x'.repeat(60)}`);
    expect(relationshipProps({ note: 'x'.repeat(61) })).toBe('');
  });
});
