import { beforeAll, describe, expect, it } from 'vitest';
import { abstentionCount, abstentionQuestions } from './abstention.js';
import { loadLanguage, type Language } from './phrases.js';
import { findStatements, type HistoryTurn } from './statements.js';
import { templateQuestions, type DraftQuestion } from './templates.js';

let lang: Language;
beforeAll(async () => {
  lang = await loadLanguage();
});

const day = (iso: string): number => Date.parse(`${iso}T12:00:00Z`);

function questions(turns: readonly [string, string, string][]): DraftQuestion[] {
  const history: HistoryTurn[] = turns.map(([episodeId, date, text]) => ({ episodeId, seq: 0, time: day(date), text }));
  const statements = history.flatMap((turn) => findStatements({ turn, tz: 'UTC', lang }));
  return templateQuestions({ statements, tz: 'UTC' });
}

const brief = (q: DraftQuestion) => [q.kind, q.question, q.answer, q.evidence.map((e) => e.episodeId).join(',')];

describe('templateQuestions', () => {
  it('asks a single fact and a date of one statement', () => {
    expect(questions([['c1', '2025-02-04', 'I switched from Notion to Obsidian.']]).map(brief)).toEqual([
      ['single-fact', 'What did I switch to from Notion?', 'Obsidian', 'c1'],
      ['temporal', 'When did I switch from Notion to Obsidian?', '4 February 2025', 'c1'],
    ]);
  });

  it('asks what is in use now and how it changed when two conversations tell of one subject', () => {
    const qs = questions([
      ['c1', '2024-09-10', "For the backend I'm going to use Firebase."],
      ['c2', '2024-12-20', 'Update: I switched from Firebase to Supabase last weekend.'],
    ]);
    expect(qs.filter((q) => q.kind === 'knowledge-update').map(brief)).toEqual([
      ['knowledge-update', 'What do I use now instead of Firebase?', 'Supabase', 'c1,c2'],
    ]);
    expect(qs.filter((q) => q.kind === 'multi-session').map(brief)).toEqual([
      [
        'multi-session',
        'How did my use of Firebase change?',
        '10 September 2024: I decided to use Firebase; the weekend before 20 December 2024: I switched from Firebase to Supabase',
        'c1,c2',
      ],
    ]);
    expect(qs.find((q) => q.question === 'What did I decide to use for the backend?')?.answer).toBe('Firebase');
  });

  it('follows a belief from holding it to giving it up', () => {
    const qs = questions([
      ['c1', '2024-10-05', 'I think vector search is enough for memory.'],
      ['c2', '2025-07-29', 'I no longer think vector search is enough for memory. I now think graphs beat vectors.'],
    ]);
    expect(qs.map(brief)).toEqual([
      ['temporal', 'When did I stop thinking that vector search is enough for memory?', '29 July 2025', 'c2'],
      [
        'knowledge-update',
        'Do I still think vector search is enough for memory?',
        'No: not since 29 July 2025; now I think graphs beat vectors.',
        'c1,c2',
      ],
      [
        'multi-session',
        'How did my view that vector search is enough for memory change?',
        '5 October 2024: I thought vector search is enough for memory; 29 July 2025: I no longer thought vector search is enough for memory; 29 July 2025: I came to think graphs beat vectors',
        'c1,c2',
      ],
    ]);
  });

  it('asks where I live now after two moves, and which month a single move was in', () => {
    const qs = questions([
      ['c1', '2023-08-01', 'I moved to Boston in July.'],
      ['c2', '2025-05-20', 'I moved to San Francisco on Sunday.'],
    ]);
    expect(qs.map((q) => [q.kind, q.question, q.answer])).toEqual([
      ['single-fact', 'Where did I move in July 2023?', 'Boston'],
      ['temporal', 'When did I move to Boston?', 'July 2023'],
      ['single-fact', 'Where did I move in May 2025?', 'San Francisco'],
      ['temporal', 'When did I move to San Francisco?', '18 May 2025'],
      ['knowledge-update', 'Where do I live now?', 'San Francisco'],
      [
        'multi-session',
        'How did where I live change?',
        'July 2023: I moved to Boston; 18 May 2025: I moved to San Francisco',
      ],
    ]);
  });

  it('asks no month question when two things of the sort happened that month', () => {
    const qs = questions([
      ['c1', '2025-03-02', 'I stopped using Trello.'],
      ['c2', '2025-03-20', 'I stopped using Asana.'],
    ]);
    expect(qs.map((q) => q.question)).toEqual(['When did I stop using Trello?', 'When did I stop using Asana?']);
  });

  it('asks nothing of turns that state no change, and asks a repeated statement once', () => {
    expect(questions([['c1', '2025-01-01', 'Can you help me write a job post? We are hiring.']])).toEqual([]);
    const twice = questions([
      ['c1', '2025-01-01', 'I moved to Denver.'],
      ['c1', '2025-01-01', 'I moved to Denver.'],
    ]);
    expect(twice.map((q) => q.question)).toEqual(['Where did I move in January 2025?', 'When did I move to Denver?']);
  });
});

describe('abstentionQuestions', () => {
  it('asks about names no turn contains, one per template in turn', () => {
    const texts = ['I moved to San Francisco and started using LangChain.'];
    const qs = abstentionQuestions({ count: 3, texts, lang, time: 0 });
    expect(qs.map((q) => q.question)).toEqual([
      expect.stringMatching(/^When did I move to \p{Lu}\p{L}+\?$/u),
      expect.stringMatching(/^When did I start using \p{Lu}\p{L}+\?$/u),
      expect.stringMatching(/^What do I use now instead of \p{Lu}\p{L}+\?$/u),
    ]);
    for (const q of qs) {
      expect(q.evidence).toEqual([]);
      const name = /(\p{Lu}\p{L}+)\?$/u.exec(q.question)?.[1] ?? '';
      expect(texts.join(' ').toLowerCase()).not.toContain(name.toLowerCase());
    }
    expect(abstentionQuestions({ count: 3, texts, lang, time: 0 })).toEqual(qs);
  });

  it('skips a name the history mentions', () => {
    const first = abstentionQuestions({ count: 1, texts: ['hello'], lang, time: 0 })[0]?.question ?? '';
    const name = /to (\p{Lu}\p{L}+)\?$/u.exec(first)?.[1] ?? '';
    const again = abstentionQuestions({ count: 1, texts: ['hello', `a trip to ${name}`], lang, time: 0 });
    expect(again[0]?.question).not.toContain(name);
  });

  it.each([
    [0, 0],
    [1, 2],
    [40, 6],
    [200, 10],
  ])('%i answerable questions → %i abstention questions', (answerable, expected) => {
    expect(abstentionCount(answerable)).toBe(expected);
  });
});
