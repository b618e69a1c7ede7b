import { describe, expect, it } from 'vitest';
import { change, known, rel, run } from '../test-kit.js';

describe('tool adoption and abandonment', () => {
  it('a switch ends one USES and starts another, with status changes', () => {
    const r = run(['I switched from Notion to Obsidian for my personal notes this week.']);
    expect(rel(r, 'User', 'USES', 'Notion')?.ended).toBe(true);
    expect(rel(r, 'User', 'USES', 'Obsidian')?.ended).toBe(false);
    expect(change(r, 'Notion', 'status')?.newStateAspect).toBe('dropped');
    expect(change(r, 'Obsidian', 'status')?.newStateAspect).toBe('adopted');
  });

  it.each([
    ['I stopped using LangChain.', 'LangChain', 'dropped'],
    ['We dropped MongoDB last month.', 'MongoDB', 'dropped'],
    ["I'm not using Jira anymore.", 'Jira', 'dropped'],
    ['I started using LangChain to build the pipeline.', 'LangChain', 'adopted'],
    ["We're using Redis for caching.", 'Redis', 'adopted'],
    ["I'm going to use Firebase because it's fast.", 'Firebase', 'adopted'],
    ["We're going with Postgres over MongoDB.", 'PostgreSQL', 'adopted'],
    ['Yjs it is.', 'Yjs', 'adopted'],
    ['Frontend in React.', 'React', 'adopted'],
    ['I replaced Webpack with Vite.', 'Vite', 'adopted'],
    ['We migrated to Supabase from Firebase.', 'Firebase', 'dropped'],
  ])('%s → %s %s', (text, tool, status) => {
    expect(change(run([text]), tool, 'status')?.newStateAspect).toBe(status);
  });

  it('"replaced it with" adopts the new tool', () => {
    const r = run(['I stopped using LangChain. I replaced it with plain OpenAI SDK calls.']);
    expect(change(r, 'OpenAI SDK', 'status')?.newStateAspect).toBe('adopted');
    expect(change(r, 'LangChain', 'status')?.newStateAspect).toBe('dropped');
  });

  it('a technical tool goes to the project in focus, a personal one to the user', () => {
    const preamble = { mentionedEntities: [known('Tidepool', 'project')] };
    const r = run(['Tidepool needs realtime.', 'I switched from Firebase to Supabase.', 'I started using Obsidian.'], {
      preamble,
    });
    expect(rel(r, 'Tidepool', 'USES', 'Supabase')).toBeDefined();
    expect(rel(r, 'User', 'USES', 'Obsidian')).toBeDefined();
  });

  it('lists after "architecture:" are adopted', () => {
    const r = run(['Our new architecture: a Next.js frontend, Supabase Postgres with pgvector.']);
    expect(
      ['Next.js', 'Supabase', 'PostgreSQL', 'pgvector'].map((t) => change(r, t, 'status')?.newStateAspect),
    ).toEqual(['adopted', 'adopted', 'adopted', 'adopted']);
  });

  it.each([
    'I switched from all-purpose to whole wheat flour.',
    'Should we just move to MongoDB Atlas?',
    "I'm thinking about switching from Notion to Obsidian.",
    'Is Redis a good fit for sessions?',
    'I used to go to the gym a lot.',
  ])('no tool event: %s', (text) => {
    const r = run([text]);
    expect(r.relationships.filter((x) => x.type === 'USES')).toEqual([]);
  });

  // 2025-01-15 is a Wednesday: yesterday is 14 January; last week, last weekend and two weeks ago are dated at their
  // middles, 9 January, 12 January and 2 January.
  it.each([
    [
      'Yesterday I dropped Rust and went back to Go for the backend.',
      [
        ['Rust', 'dropped', '2025-01-14'],
        ['Go', 'adopted', '2025-01-14'],
      ],
    ],
    [
      'I switched from Firebase to Supabase last weekend.',
      [
        ['Firebase', 'dropped', '2025-01-12'],
        ['Supabase', 'adopted', '2025-01-12'],
      ],
    ],
    ['Last week I started using Obsidian for my notes.', [['Obsidian', 'adopted', '2025-01-09']]],
    ['I stopped using Notion two weeks ago.', [['Notion', 'dropped', '2025-01-02']]],
    ['I switched back to Vim yesterday.', [['Vim', 'adopted', '2025-01-14']]],
    // A time of another clause is not the change's: a clause set against it, a relative clause with its own subject.
    ['I started using Obsidian, but last week I was sick.', [['Obsidian', 'adopted', undefined]]],
    ['I dropped Notion, which I had bought last year.', [['Notion', 'dropped', undefined]]],
    // What is going on now takes no time of a clause before it; a change still to come none in the past.
    ["I got a new laptop last week, and I'm using Notion now.", [['Notion', 'adopted', undefined]]],
    ["Last week I'm going to use Firebase.", [['Firebase', 'adopted', undefined]]],
    ['I switched from Notion to Obsidian for my personal notes this week.', [['Obsidian', 'adopted', undefined]]],
  ])('%s → each change dated by its own clause', (text, expected) => {
    const r = run([text]);
    for (const [tool, status, day] of expected as [string, string, string | undefined][]) {
      const found = change(r, tool, 'status');
      expect(found?.newStateAspect).toBe(status);
      expect(found?.eventTime?.slice(0, 10)).toBe(day);
      const source = r.relationships.find((x) => x.type === 'USES' && x.target === tool);
      expect(source?.ended).toBe(status === 'dropped');
      expect(source?.eventTime?.slice(0, 10)).toBe(day);
    }
  });

  it('a dated change says when in its summary', () => {
    expect(change(run(['I stopped using Notion two weeks ago.']), 'Notion', 'status')?.whatChanged).toBe(
      'Dropped Notion (two weeks ago [the week of 30 December 2024, two weeks before 15 January 2025])',
    );
  });
});
