import { describe, expect, it } from 'vitest';
import { extractOffline } from '../index.js';
import { batchOf, known, run, T0 } from '../test-kit.js';
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

describe("a speaker's name for themselves", () => {
  /** One user turn said by a named speaker, as MemoryBank's logs are. */
  const said = (speaker: string, text: string) =>
    extractOffline(
      batchOf([
        {
          id: 'm1',
          title: `${speaker} — 2023-04-27`,
          createdAt: T0,
          model: null,
          turns: [{ role: 'user' as const, speaker, text, time: T0 }],
        },
      ]),
      null,
    );

  it.each([
    ['Hmm, I think you can call me Lulu.', 'Lulu'],
    ['Hi, my name is Lulu and I am glad to meet you.', 'Lulu'],
    ['You can call me Lu Lu.', 'Lu Lu'],
  ])('%s: an alias of the speaker, not another person', (text, alias) => {
    const r = said('Luna', text);
    expect(r.entities.find((e) => e.name === 'Luna')?.aliases).toContain(alias);
    expect(r.entities.some((e) => e.name === alias)).toBe(false);
  });

  it.each([
    // Their own name, a name inside the sentence, a day; for a user the source does not name, a turn that asks for
    // writing or play, or a naming after the turn's first two sentences.
    ['Luna', 'Hi, my name is Luna.'],
    ['Luna', 'My sister said you should call me Lulu.'],
    ['Luna', 'Call me Monday.'],
    ['User', 'Pretend you are a pirate captain. Call me Jack.'],
    ['User', 'Help me with a story for my class. My name is Tom Ridley, I am seven.'],
    ['User', 'I run every day. I love it. Call me Lulu, everyone does.'],
  ])('%s: %s: no alias', (speaker, text) => {
    const r = said(speaker, text);
    expect(r.entities.flatMap((e) => e.aliases)).toEqual([]);
  });

  it.each([
    ['You can call me Lulu.', 'Lulu'],
    ["Hi, my name is Sam Lee. I'm training for a marathon.", 'Sam Lee'],
    ['Hello! Call me Sam.', 'Sam'],
  ])('an unnamed user naming themselves: %s → an alias of User, not another person', (text, alias) => {
    const r = said('User', text);
    expect(r.entities.find((e) => e.name === 'User')?.aliases).toEqual([alias]);
    expect(r.entities.some((e) => e.name === alias)).toBe(false);
  });
});
