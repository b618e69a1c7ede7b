import { describe, expect, it } from 'vitest';
import { lookupGazetteer } from './gazetteer.js';
import { buildRegistry } from './registry.js';
import { emptyPreamble, known } from './test-kit.js';

const registry = buildRegistry({
  preamble: {
    ...emptyPreamble(),
    mentionedEntities: [known('Tidepool', 'project', ['TP']), known('Postgres', 'tool')],
  },
  discovered: [
    { name: 'Maya Chen', type: 'person', aliases: [] },
    { name: 'Tim Rice', type: 'person', aliases: [] },
  ],
});
const found = (text: string, seen?: Set<string>): string[] =>
  registry.find(text, seen).map((m) => `${m.name}/${m.type}`);

describe('gazetteer lookup', () => {
  it.each([
    ['postgres', 'PostgreSQL'],
    ['JS', 'JavaScript'],
    ['gpt4o', 'GPT-4o'],
    ['GPT-4o', 'GPT-4o'],
    ['Next.js', 'Next.js'],
    ['UMD', 'University of Maryland'],
    ['vs code', 'Visual Studio Code'],
  ])('%s → %s', (form, name) => {
    expect(lookupGazetteer(form)?.name).toBe(name);
  });

  it.each(['js', 'go', 'notion', 'rust', 'react'])('%s (lowercase, ambiguous or too short) is not a form', (form) => {
    expect(lookupGazetteer(form)).toBeNull();
  });
});

describe('registry.find', () => {
  it.each([
    ['I rewrote the backend in Go last week.', ['Go/tool']],
    ['I will go to the store and let it go.', []],
    ['I have no notion of time.', []],
    ['My bike started to rust.', []],
    ['How did they react to the news?', []],
    ['I moved my notes to Notion.', ['Notion/tool']],
    ['Notion is slow with big databases.', ['Notion/tool']],
    ['We use postgres and JS, plus gpt4o.', ['Postgres/tool', 'JavaScript/tool', 'GPT-4o/tool']],
    ['TP is live at UMD.', ['Tidepool/project', 'University of Maryland/organization']],
    ['tp is lowercase here.', []],
    ['Maya said hi and Maya Chen agreed.', ['Maya Chen/person', 'Maya Chen/person']],
    // A name part alone is the person's only with its capital (dev30: "jollof rice" was Tim Rice).
    ['Rice wrote the lyrics.', ['Tim Rice/person']],
    ['Any tips for a perfect jollof rice?', []],
    ['maya said hi.', []],
    ['Open main.py and next.config.js please.', []],
    ['I switched from Firebase Auth to Supabase.', ['Firebase/tool', 'Supabase/tool']],
    ['I had coffee with Julia and Jenkins yesterday.', []],
    ['I wrote the solver in Julia.', ['Julia/tool']],
    ['I love Taylor Swift songs.', []],
    ['Our iOS app is written in Swift.', ['iOS/tool', 'Swift/tool']],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('accepts an ambiguous name at the start of a sentence once the episode has named it', () => {
    expect(found('Notion got slow.')).toEqual([]);
    expect(found('Notion got slow.', new Set(['Notion']))).toEqual(['Notion/tool']);
  });

  it('keeps the preamble name when it is a form of a gazetteer entry', () => {
    expect(found('I love PostgreSQL.')).toEqual(['Postgres/tool']);
  });
});
