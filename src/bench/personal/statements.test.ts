import { beforeAll, describe, expect, it } from 'vitest';
import { loadLanguage, type Language } from './phrases.js';
import { findStatements, type Statement } from './statements.js';

const AT = Date.parse('2025-05-20T15:00:00Z');
let lang: Language;
beforeAll(async () => {
  lang = await loadLanguage();
});

function statements(text: string): Statement[] {
  return findStatements({ turn: { episodeId: 'e1', seq: 0, time: AT, text }, tz: 'UTC', lang });
}

/** The fields a case checks: what was found and the date it gives. */
function brief(s: Statement): Record<string, string> {
  const out: Record<string, string> = { kind: s.kind, subject: s.subject, verb: s.verb, when: s.when.label };
  for (const key of ['old', 'new', 'topic', 'purpose', 'phrase', 'stance'] as const) {
    const value = s[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

describe('findStatements', () => {
  it.each([
    [
      'I switched from Firebase to Supabase last weekend.',
      [{ kind: 'change', verb: 'switch', old: 'Firebase', new: 'Supabase', when: 'the weekend before 20 May 2025' }],
    ],
    [
      'Update: I switched from Notion to Obsidian for my personal notes this week.',
      [{ kind: 'change', verb: 'switch', old: 'Notion', new: 'Obsidian', purpose: 'my personal notes' }],
    ],
    [
      'We pivoted Tidepool from a study-group app for students to a research-notes tool for labs.',
      [{ kind: 'change', verb: 'pivot', topic: 'Tidepool', old: 'a study-group app', new: 'a research-notes tool' }],
    ],
    [
      'I decided to use Supabase instead of Firebase because our data is relational.',
      [{ kind: 'change', verb: 'choose', old: 'Firebase', new: 'Supabase' }],
    ],
    [
      'I stopped using LangChain in Tidepool. I replaced it with plain OpenAI SDK calls and 150 lines of code.',
      [
        { kind: 'stop', verb: 'stop using', old: 'LangChain' },
        { kind: 'change', verb: 'replace', old: 'LangChain', new: 'plain OpenAI SDK calls' },
      ],
    ],
    [
      'For the backend I’m going to use Firebase because it is fast.',
      [{ kind: 'start', verb: 'decide to use', new: 'Firebase', purpose: 'the backend' }],
    ],
    ["I'm using Obsidian now.", [{ kind: 'start', verb: 'use', new: 'Obsidian' }]],
    [
      'I started using LangChain last month.',
      [{ kind: 'start', verb: 'start using', new: 'LangChain', when: 'April 2025' }],
    ],
    ['I moved to San Francisco on Sunday, May 18.', [{ kind: 'move', new: 'San Francisco', when: '18 May 2025' }]],
    ['we moved to Lisbon in March', [{ kind: 'move', subject: 'we', new: 'Lisbon', when: 'March 2025' }]],
    [
      'I decided to extend my gap semester through spring 2026 instead of going back in January.',
      [{ kind: 'decide', phrase: 'extend my gap semester through spring 2026', when: '20 May 2025' }],
    ],
    ['I just started junior year at UMD.', [{ kind: 'start', verb: 'start', phrase: 'junior year' }]],
    [
      'I no longer think vector search is enough for memory. I now think knowledge graphs beat vector search.',
      [
        { kind: 'belief', stance: 'rejects', phrase: 'vector search is enough for memory' },
        { kind: 'belief', stance: 'now-holds', phrase: 'knowledge graphs beat vector search' },
      ],
    ],
    [
      "I'm starting to doubt my assumption that vector search is enough for memory.",
      [{ kind: 'belief', stance: 'doubts', phrase: 'vector search is enough for memory' }],
    ],
  ])('%s', (text, expected) => {
    const found = statements(text).map(brief);
    expect(found).toHaveLength(expected.length);
    expected.forEach((e, i) => expect(found[i]).toMatchObject(e));
  });

  it.each([
    ['a question', 'Should I switch from Firebase to Supabase?'],
    ['a condition', 'If I switched from Firebase to Supabase, would the costs drop?'],
    ['a wish', 'I want to switch from Notion to Obsidian.'],
    ['someone else', 'Maya switched from Figma to Penpot last week.'],
    ['a plan', "I'm thinking about moving to Berlin next year."],
    ['a move that is no place', 'We moved to the next topic.'],
    ['a pronoun with nothing to stand for', 'I replaced it with a new one.'],
    ['a verb after "started"', 'I started working on the essay and started to doubt it.'],
    ['a time after "started"', 'I started yesterday.'],
    ['a hedge', 'I think so.'],
    ['a switch without a from', 'I switched it off and on again.'],
    ['code', '```\nI switched from Firebase to Supabase\n```'],
  ])('finds nothing in %s', (_label, text) => {
    expect(statements(text)).toEqual([]);
  });
});
