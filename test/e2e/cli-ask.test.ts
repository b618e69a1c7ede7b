import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, pie, pieJson, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const G = ['--tz', 'UTC', '--now', '2025-11-01'];

let dir: string;
let db: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  const applied = await pie(['--db', db, ...G, 'apply', FIXTURE]);
  if (applied.code !== 0) throw new Error(applied.stderr);
});
afterAll(() => cleanup());

interface AskJson {
  answer: string | null;
  model: string | null;
  context: string;
  sources: { n: number; title: string }[];
  plan: { intent: string; timeFormat: string; decidedBy: string; entityIds: string[] };
  lanes: { lane: string; hits: number; skipped?: string }[];
}

describe('pie ask', () => {
  it('without a model prints the compiled context and says so on stderr', async () => {
    const r = await pie(['--db', db, ...G, 'ask', 'How has Tidepool changed?']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('no model is configured');
    expect(r.stdout).toContain('Question: How has Tidepool changed?');
    expect(r.stdout).toContain('Pivoted from surf reports to tide alerts for kayakers');
    expect(r.stdout).toContain('Sources:');
  });

  it('says when time puts the question outside the memory: a clock set in the past, a year before it began', async () => {
    const past = await pie(['--db', db, '--tz', 'UTC', '--now', '2019-06-01', 'ask', 'What changed recently?']);
    expect(past.code).toBe(0);
    expect(past.stdout).toContain(
      'Note: Now (1 June 2019) is before the first conversation in the memory (10 September 2024); check the clock or --now.',
    );
    const before = await pie(['--db', db, ...G, 'ask', 'What did I work on in 2010?']);
    expect(before.stdout).toContain(
      'Note: The memory begins on 10 September 2024, after the time asked about ("2010").',
    );
    const inside = await pie(['--db', db, ...G, 'ask', 'What did I work on in 2025?']);
    expect(inside.stdout).not.toContain('Note:');
    // A clock inside the memory, before its latest conversation: the July pivot is still shown (dated ahead of now),
    // and the context says why a state it calls current can be a later one.
    const within = await pie([
      '--db',
      db,
      '--tz',
      'UTC',
      '--now',
      '2025-03-01',
      'ask',
      'What is the current state of Tidepool?',
    ]);
    expect(within.code).toBe(0);
    expect(within.stdout).toContain(
      'Note: Now (1 March 2025) is before the latest conversation in the memory (20 September 2025); what was said after now is shown too, dated ahead of it, so a current state may be one told later.',
    );
    expect(within.stdout).toContain('1 July 2025 (in about 4 months');
  });

  it('--json gives the plan, lanes, context and sources; --time-format changes how times are written', async () => {
    const j = await pieJson<AskJson>(['--db', db, ...G, 'ask', 'When did Tidepool pivot?', '--time-format', 'auto']);
    expect(j.answer).toBeNull();
    expect(j.plan.timeFormat).toBe('absolute');
    expect(j.context).toContain('1 July 2025: Pivoted');
    const semantic = await pieJson<AskJson>([
      '--db',
      db,
      ...G,
      'ask',
      'When did Tidepool pivot?',
      '--time-format',
      'semantic',
    ]);
    expect(semantic.context).toContain('about 4 months ago (during gap semester in San Francisco): Pivoted');
    expect(semantic.context).not.toContain('1 July 2025');
    expect(j.lanes.find((l) => l.lane === 'vector')?.skipped).toMatch(/no embedder/);
  });

  it('with a model answers from the context and lists the cited sources', async () => {
    const script = join(dir, 'fake.json');
    writeFileSync(
      script,
      JSON.stringify({
        prompts: {
          'classify-query@1': [
            { response: { intent: 'temporal_diff', entities: ['Tidepool', 'Atlantis'], wantsHistory: true } },
          ],
          'answer-question@1': [
            {
              contains: ['Pivoted from surf reports', 'Question: How has Tidepool changed?'],
              response: 'It started as surf reports and pivoted to tide alerts for kayakers [1].',
            },
          ],
        },
      }),
    );
    const r = await pie(['--db', db, ...G, 'ask', 'How has Tidepool changed?', '--llm', `fake:${script}`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('It started as surf reports and pivoted to tide alerts for kayakers [1].');
    expect(r.stdout).toMatch(/Sources:\n {2}\[1\] “/);
    const j = await pieJson<AskJson & { plan: { unknownNames: string[] } }>([
      '--db',
      db,
      ...G,
      'ask',
      'How has Tidepool changed?',
      '--llm',
      `fake:${script}`,
    ]);
    expect(j.plan.decidedBy).toBe('model');
    expect(j.plan.unknownNames).toEqual(['Atlantis']);
    expect(j.model).toBe(`fake:${script}`);
  });

  it('a model that cannot classify falls back to the rules with a warning', async () => {
    const script = join(dir, 'partial.json');
    writeFileSync(script, JSON.stringify({ prompts: { 'answer-question@1': [{ response: 'I do not know.' }] } }));
    const r = await pie(['--db', db, ...G, 'ask', 'Who is Maya?', '--llm', `fake:${script}`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('could not classify the question');
    expect(r.stdout).toContain('I do not know.');
  });

  it('--context-only never calls the model', async () => {
    const script = join(dir, 'empty.json');
    writeFileSync(script, JSON.stringify({ prompts: {} }));
    const r = await pie(['--db', db, ...G, 'ask', 'Who is Maya?', '--context-only', '--llm', `fake:${script}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Maya Chen');
  });

  it('bad input: unknown format (exit 2 style usage error as INVALID_ARGUMENT), empty question, missing database', async () => {
    const bad = await pie(['--db', db, ...G, 'ask', 'x', '--time-format', 'weird']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--time-format "weird" is not known');
    const empty = await pie(['--db', db, ...G, 'ask', '  ']);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr).toContain('The question is empty');
    const missing = await pie(['--db', join(dir, 'none.db'), ...G, 'ask', 'anything']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('There is no database at');
  });
});

describe('pie search (hybrid)', () => {
  it('finds entities, transitions and episodes, saying which lanes found each', async () => {
    const r = await pie(['--db', db, ...G, 'search', 'Tidepool']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Tidepool {2}\[project\]/);
    expect(r.stdout).toContain('(lexical');
  });
  it('--json lists typed results', async () => {
    const j = await pieJson<{ results: { kind: string }[] }>(['--db', db, ...G, 'search', 'kayakers', '--limit', '5']);
    expect(j.results.length).toBeGreaterThan(0);
    expect(j.results.length).toBeLessThanOrEqual(5);
    expect(j.results.map((r) => r.kind)).toContain('transition');
  });
  it('says when nothing matches', async () => {
    const r = await pie(['--db', db, ...G, 'search', 'zyxwvut']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Nothing matches "zyxwvut"');
  });
});

describe('vector lane', () => {
  it('pie ingest with PIE_EMBEDDER stores vectors, and ask and search then use the vector lane', async () => {
    const vdb = join(dir, 'vectors.db');
    const env = { PIE_EMBEDDER: 'fake:trigram' };
    const input = join(ROOT, 'test', 'fixtures', 'ingest', 'three-days.jsonl');
    const ingested = await pieJson<{ vectors: { model: string; entities: number; episodes: number } }>(
      ['--db', vdb, ...G, 'ingest', input],
      env,
    );
    expect(ingested.vectors.model).toBe('fake:trigram-64');
    expect(ingested.vectors.episodes).toBeGreaterThan(0);
    expect(ingested.vectors.entities).toBeGreaterThan(0);
    // A second run embeds nothing new.
    const again = await pieJson<{ vectors: { entities: number; episodes: number } }>(
      ['--db', vdb, ...G, 'ingest', input],
      env,
    );
    expect(again.vectors).toMatchObject({ entities: 0, episodes: 0 });
    const asked = await pieJson<AskJson>(['--db', vdb, ...G, 'ask', 'Tidepool study-group app'], env);
    const lane = asked.lanes.find((l) => l.lane === 'vector');
    expect(lane?.skipped).toBeUndefined();
    expect(lane?.hits).toBeGreaterThan(0);
    const without = await pieJson<AskJson>(['--db', vdb, ...G, 'ask', 'What happened?']);
    expect(without.lanes.find((l) => l.lane === 'vector')?.skipped).toMatch(/no embedder/);
  });
});

describe('pie entity', () => {
  it('lists the life periods the entity belongs to, with what happened in each', async () => {
    const r = await pie(['--db', db, ...G, 'entity', 'Tidepool']);
    expect(r.code).toBe(0);
    const periods = r.stdout.slice(r.stdout.indexOf('Periods:')).trimEnd().split('\n');
    expect(periods).toEqual([
      'Periods:',
      '  junior year at UMD (2024-09-10 – 2025-02-14): first seen then, 3 mentions, 1 change',
      '  gap semester in San Francisco (2025-07-01 – 2025-09-20): 1 mention, 1 change',
    ]);
    const json = await pieJson<{ periods: { name: string; during: boolean; start: number }[] }>([
      '--db',
      db,
      ...G,
      'entity',
      'Tidepool',
    ]);
    expect(json.periods.map((p) => [p.name, p.during])).toEqual([
      ['junior year at UMD', true],
      ['gap semester in San Francisco', false],
    ]);
  });
});
