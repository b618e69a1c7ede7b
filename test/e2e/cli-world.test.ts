import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE, pie, pieJson, tempDir } from '../helpers/cli.js';

let dir: string;
let cleanup: () => void;
let db: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
});
afterEach(() => cleanup());

const result = (over: Record<string, unknown>) =>
  JSON.stringify({
    batch: { id: '2024-03-15', date: '2024-03-15T14:00:00Z', episodeIds: ['conv-1'] },
    entities: [
      {
        name: 'Science Research Academy',
        type: 'project',
        aliases: ['SRA'],
        state: { stage: 'launched', focus: 'mentoring' },
      },
    ],
    periodContext: 'senior year',
    summary: 'Launched SRA.',
    ...over,
  });

describe('pie apply', () => {
  it('applies valid lines in date order, reports bad ones by line number, exits 3, and keeps the rest', async () => {
    const file = join(dir, 'results.jsonl');
    writeFileSync(
      file,
      [
        result({
          batch: { id: '2024-06-01', date: '2024-06-01T10:00:00Z', episodeIds: ['conv-2'] },
          entities: [],
          stateChanges: [
            {
              entityName: 'SRA',
              whatChanged: 'Pivoted to a research curriculum',
              oldStateAspect: 'mentoring',
              newStateAspect: 'research curriculum',
              isContradiction: true,
              confidence: 0.9,
            },
          ],
          summary: 'The pivot.',
        }),
        '{ this is not json',
        '',
        JSON.stringify({ batch: { id: 'x', date: 'yesterday', episodeIds: [] } }),
        result({}),
      ].join('\n'),
    );
    const r = await pie(['--db', db, 'apply', file]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Applied 2 results of 4 lines');
    expect(r.stdout).toContain('line 2 skipped: not valid JSON');
    expect(r.stdout).toMatch(/line 4 skipped: batch\.date/);
    expect(r.stderr).toContain('2 lines of');

    const timeline = await pieJson<{ transitions: { kind: string; summary: string; episodeId: string }[] }>([
      '--db',
      db,
      'timeline',
      'SRA',
    ]);
    expect(timeline.transitions.map((t) => [t.kind, t.episodeId])).toEqual([
      ['creation', 'conv-1'],
      ['contradiction', 'conv-2'],
    ]);
    const stats = await pieJson<{ episodes: number; periods: number }>(['--db', db, 'stats']);
    expect(stats).toMatchObject({ episodes: 2, periods: 1 });
    const text = await pie(['--db', db, '--now', '2024-07-01', 'timeline', 'science research academy']);
    expect(text.stdout).toContain('⚠ This contradicted the previous state (unresolved).');
    expect(text.stdout).toContain('15 March 2024 (about 4 months ago, during senior year)');
  });

  it('a missing file is one sentence and exit 3', async () => {
    const r = await pie(['--db', db, 'apply', join(dir, 'nope.jsonl')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/There is no file at .*nope\.jsonl/);
  });
});

describe('reading the world built from the sample (offline extractor)', () => {
  beforeEach(async () => {
    expect((await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline'])).code).toBe(0);
  });

  it('timeline by alias shows the pivot as a contradiction; entity shows the co-founder', async () => {
    const t = await pie(['--db', db, '--now', '2025-11-01', 'timeline', 'TP']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^Tidepool \(project\), also called TP/);
    expect(t.stdout).toMatch(/Pivoted from a study-group app for students to a research-notes tool for labs/);
    expect(t.stdout).toContain('⚠ This contradicted the previous state');
    const maya = await pieJson<{ entity: { name: string; type: string } }>(['--db', db, 'entity', 'Maya']);
    expect(maya.entity).toMatchObject({ name: 'Maya Chen', type: 'person' });
  });

  it('periods and entity lists; an unknown name suggests close ones', async () => {
    const periods = await pieJson<{ periods: { name: string }[] }>(['--db', db, 'periods']);
    expect(periods.periods.map((p) => p.name)).toEqual(['junior year at UMD', 'gap semester in San Francisco']);
    const tools = await pieJson<{ entities: { name: string }[] }>([
      '--db',
      db,
      'entities',
      '--type',
      'tool',
      '--limit',
      '100',
    ]);
    expect(tools.entities.map((e) => e.name)).toEqual(
      expect.arrayContaining(['Supabase', 'Firebase', 'Obsidian', 'Notion', 'LangChain']),
    );
    const r = await pie(['--db', db, 'timeline', 'Tidpool']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('No entity is called "Tidpool". Did you mean "Tidepool"');
  });

  it('--budget-tokens stops between batches with exit 7 and the next run continues', async () => {
    const script = join(dir, 'fake.json');
    writeFileSync(script, JSON.stringify({ prompts: { 'extract-batch@3': [{ response: { summary: 'x' } }] } }));
    const notes = join(dir, 'notes');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(notes);
    for (let d = 1; d <= 5; d++)
      writeFileSync(join(notes, `day${d}.md`), `---\ndate: 2025-01-0${d}\n---\nNote of day ${d}.`);
    const first = await pie(['--db', db, 'ingest', notes, '--llm', `fake:${script}`, '--budget-tokens', '1']);
    expect(first.code).toBe(7);
    expect(first.stderr).toMatch(/Stopped at the --budget-tokens limit with 4 batches left/);
    const second = await pieJson<{ extraction: { batches: { planned: number; done: number } } }>([
      '--db',
      db,
      'ingest',
      notes,
      '--llm',
      `fake:${script}`,
    ]);
    expect(second.extraction.batches).toMatchObject({ planned: 4, done: 4 });
  });
});

describe('pie entities on a memory without entities says why', () => {
  it('conversations that named nothing are not "nothing ingested"', async () => {
    const input = join(dir, 'chat.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({
        id: 'c1',
        created_at: '2024-02-01T07:00:00Z',
        messages: [
          { role: 'user', content: 'hello there, how are you', time: '2024-02-01T07:00:00Z' },
          { role: 'assistant', content: 'Fine, thanks.', time: '2024-02-01T07:00:05Z' },
        ],
      })}\n`,
    );
    expect((await pie(['--db', db, 'ingest', input])).code).toBe(0);
    const r = await pie(['--db', db, 'entities']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(
      'No entities: 1 conversation stored, none naming anything the extractor recognized ' +
        '(pie search still finds what they say; a model extracts more, see docs/llm.md).',
    );
    expect(r.stdout).not.toContain('run pie ingest first');
  });
});
