import { describe, expect, it } from 'vitest';
import { known, run } from '../test-kit.js';
import { spells } from './aliases.js';

describe('aliases', () => {
  it.each([
    ['I study at the Science Research Academy (SRA).', 'Science Research Academy', 'SRA'],
    ["I'm building Quillmate (QM) with a friend.", 'Quillmate', 'QM'],
  ])('%s', (text, name, alias) => {
    const e = run([text]).entities.find((x) => x.name === name);
    expect(e?.aliases).toContain(alias);
  });

  it('an acronym used beside a project name in the same conversation becomes its alias', () => {
    const r = run(['We launched Tidepool on Monday! TP is officially live.'], {
      preamble: { mentionedEntities: [known('Tidepool', 'project')] },
    });
    expect(r.entities.find((e) => e.name === 'Tidepool')?.aliases).toEqual(['TP']);
  });

  it('an alias the preamble already knows is not emitted again', () => {
    const r = run(['TP is officially live.'], {
      preamble: { mentionedEntities: [known('Tidepool', 'project', ['TP'])] },
    });
    expect(r.entities.find((e) => e.name === 'Tidepool')?.aliases).toEqual([]);
  });

  it.each([
    ['SRA', 'Science Research Academy', true],
    ['UOM', 'University of Maryland', true],
    ['TP', 'Tidepool', true],
    ['TA', 'Tidepool', false],
    ['CS', 'Tidepool', false],
    ['XY', 'Science Research Academy', false],
  ])('spells(%s, %s) = %s', (acronym, name, expected) => {
    expect(spells(acronym, name)).toBe(expected);
  });

  it('does not alias an unrelated acronym', () => {
    const r = run(['We launched Tidepool. The TAs will mention it.'], {
      preamble: { mentionedEntities: [known('Tidepool', 'project')] },
    });
    expect(r.entities.find((e) => e.name === 'Tidepool')?.aliases).toEqual([]);
  });
});
