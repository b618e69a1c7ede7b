import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SAMPLE, pie, pieJson, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'history', 'world.jsonl');
const KG = 'knowledge graphs beat pure vector search';
const HYBRID = 'hybrid retrieval beats knowledge graphs alone';

let db: string;
let cleanup: () => void;
/** `pie` against the fixture world with a fixed now and zone. */
const run = (...args: string[]) => pie(['--db', db, '--now', '2025-11-01', '--tz', 'UTC', ...args]);
const json = <T>(...args: string[]) => pieJson<T>(['--db', db, '--now', '2025-11-01', '--tz', 'UTC', ...args]);

beforeAll(async () => {
  const dir = tempDir();
  cleanup = dir.cleanup;
  db = join(dir.dir, 'pie.db');
  const applied = await pie(['--db', db, 'apply', FIXTURE]);
  expect(applied.stdout).toContain('Applied 7 results of 7 lines');
  expect(applied.code).toBe(0);
});
afterAll(() => cleanup());

interface SnapshotJson {
  at: number;
  span: { kind: string; label: string; periodId?: string } | null;
  period: { name: string } | null;
  total: number;
  active: number | null;
  entities: { name: string; state: Record<string, unknown>; activity: { mentions: number } | null }[];
  relationships: { type: string; source: { name: string }; target: { name: string } }[];
}

describe('pie snapshot', () => {
  it('at the end of the first period shows the state of that time', async () => {
    const r = await run('snapshot', '--period', 'junior year at UMD', '--time-format', 'absolute');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'World at the end of junior year at UMD, 28 May 2025: 8 entities (tool 3, person 2, belief 1, period 1, project 1); 9 transitions so far.',
      'Period: junior year at UMD, from 10 September 2024 to 28 May 2025; 7 entities active in this period (mentioned or changed).',
    ]);
    expect(lines).toContain(
      '  • Tidepool (project): focus: study-group app for students; stage: prototype — 1 change so far; in this period: 3 mentions, 1 change',
    );
    expect(lines).toContain('      ← WORKS_ON Maya Chen (role: co-founder), since 10 September 2024');
    expect(lines).toContain(
      `  • ${KG} (belief): confidence: 0.8; domain: AI memory; stance: held — in this period: 1 mention`,
    );
    expect(r.stdout).not.toMatch(/Supabase|Obsidian|research-notes/);
  });

  it('at the end of the second period (a tolerant name) shows the new state', async () => {
    const r = await run('snapshot', '--period', 'SF gap semester', '--time-format', 'semantic');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(
      'World at the end of gap semester in San Francisco, 30 days ago, about 4 weeks: 12 entities (tool 5, belief 2, period 2, person 2, project 1); 16 transitions so far.',
    );
    expect(r.stdout).toContain(
      '  • Tidepool (project): focus: research-notes tool for labs; stage: beta — 3 changes so far; in this period: 2 mentions, 2 changes',
    );
    expect(r.stdout).toContain(`  • ${KG} (belief): confidence: 0.8; domain: AI memory; stance: abandoned`);
    expect(r.stdout).not.toContain('WORKS_ON Maya Chen');
    expect(r.stdout).not.toMatch(/\d{4}/);
  });

  it('--json: one document with the span, the period, the entities in their state then', async () => {
    const s = await json<SnapshotJson>('snapshot', '--period', 'junior year');
    expect(s).toMatchObject({
      at: Date.parse('2025-05-28T14:00:00Z'),
      span: { kind: 'period', label: 'junior year at UMD' },
      period: { name: 'junior year at UMD' },
      total: 8,
      active: 7,
    });
    expect(s.entities.find((e) => e.name === 'Tidepool')?.state).toEqual({
      stage: 'prototype',
      focus: 'study-group app for students',
    });
    expect(s.relationships.some((r) => r.type === 'WORKS_ON' && r.source.name === 'Maya Chen')).toBe(true);
  });

  it('no flag is now; --at a date; --type and --limit', async () => {
    const now = await json<SnapshotJson>('snapshot');
    expect(now).toMatchObject({
      at: Date.parse('2025-11-01T00:00:00Z'),
      span: { kind: 'now' },
      total: 12,
      active: null,
    });
    const early = await json<SnapshotJson>('snapshot', '--at', '2024-07-01');
    expect(early.entities.map((e) => e.name).sort()).toEqual(['Anki', 'User']);
    const tools = await json<SnapshotJson>('snapshot', '--type', 'tool', '--limit', '2');
    expect(tools.total).toBe(5);
    expect(tools.entities).toHaveLength(2);
    const text = await run('snapshot', '--type', 'tool', '--limit', '2', '--time-format', 'absolute');
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([
      'World as of 1 November 2025: 5 entities of type tool; 5 transitions so far.',
      'The 2 most important of 5:',
    ]);
  });

  it('--type matches the stored type whatever its case (KIP spells it Tool); a type known but absent then is empty', async () => {
    const tools = await json<SnapshotJson & { type: string }>('snapshot', '--type', 'Tool');
    expect(tools).toMatchObject({ type: 'tool', total: 5 });
    const entities = await json<{ total: number }>('entities', '--type', 'TOOL');
    expect(entities.total).toBe(5);
    const before = await run('snapshot', '--type', 'tool', '--at', '2020-01-01');
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('Nothing was known yet at that time.');
  });
});

describe('pie diff', () => {
  it('lists exactly the changes between the end of the two periods', async () => {
    const r = await run('diff', 'junior year at UMD', 'SF gap semester', '--time-format', 'absolute');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      'Changes from the end of junior year at UMD, 28 May 2025, to the end of gap semester in San Francisco, 2 October 2025:',
      'Entities: 8 → 12 (+4).',
      'New (4):',
      '  • gap semester in San Francisco (period), first seen 15 August 2025',
      `  • “${HYBRID}” (belief), first seen 15 August 2025: confidence: 0.85; domain: AI memory; stance: held`,
      '  • Supabase (tool), first seen 15 August 2025',
      '  • Obsidian (tool), first seen 2 October 2025',
      'State changed (2):',
      '  • Tidepool — focus: study-group app for students → research-notes tool for labs',
      '  • Tidepool — stage: prototype → beta',
      'Relationships begun (3):',
      `  • “${HYBRID}” CONTRADICTS “${KG}”, since 15 August 2025`,
      '  • Tidepool USES Supabase, since 15 August 2025',
      '  • User USES Obsidian, since 2 October 2025',
      'Relationships ended (2):',
      '  • Tidepool USES Firebase, ended 15 August 2025',
      '  • Maya Chen WORKS_ON Tidepool (role: co-founder), ended 2 October 2025',
      'Beliefs reversed (1):',
      `  • “${KG}”: held → abandoned, 15 August 2025 — No longer believed; replaced by: ${HYBRID}`,
      'Contradictions raised (1):',
      '  • Tidepool (project), 15 August 2025: Pivoted from a study-group app for students to a research-notes tool for labs [focus: study-group app for students → research-notes tool for labs]',
      'Gone quiet (1):',
      '  • Notion (tool): 3 mentions during junior year at UMD, none during gap semester in San Francisco; last 20 March 2025',
      'Active again (1):',
      '  • Anki (tool): 1 mention during gap semester in San Francisco, none during junior year at UMD; first 2 October 2025',
    ]);
  });

  it('--json; the later one first is swapped and said; dates work as ends', async () => {
    const d = await json<{
      swapped: boolean;
      a: { label: string };
      b: { label: string };
      created: { total: number; items: { name: string }[] };
      relationshipsEnded: { total: number };
      goneQuiet: { items: { entity: { name: string } }[] };
    }>('diff', 'gap semester', 'junior year', '--limit', '1');
    expect(d).toMatchObject({
      swapped: true,
      a: { label: 'junior year at UMD' },
      b: { label: 'gap semester in San Francisco' },
      created: { total: 4, items: [{ name: 'gap semester in San Francisco' }] },
      relationshipsEnded: { total: 2 },
      goneQuiet: { items: [{ entity: { name: 'Notion' } }] },
    });
    const text = await run('diff', 'gap semester', 'junior year');
    expect(text.stdout.split('\n')[1]).toBe('(The later one was given first; they are compared in time order.)');
    const byDate = await run('diff', '2024-07-01', '2025-05-28', '--time-format', 'absolute');
    expect(byDate.code).toBe(0);
    expect(byDate.stdout.split('\n').slice(0, 2)).toEqual([
      'Changes from 1 July 2024, to 28 May 2025:',
      'Entities: 2 → 8 (+6).',
    ]);
  });
});

describe('pie contradictions', () => {
  it('lists the flagged ones with their source', async () => {
    const r = await run('contradictions', '--time-format', 'absolute');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toEqual([
      '2 unresolved contradictions:',
      `  • “${KG}” (belief), 15 August 2025: No longer believed; replaced by: ${HYBRID} [stance: held → abandoned]; contradicted by “${HYBRID}”`,
      '      Source: “Tidepool pivots to research labs”, 15 August 2025.',
      '  • Tidepool (project), 15 August 2025: Pivoted from a study-group app for students to a research-notes tool for labs [focus: study-group app for students → research-notes tool for labs]',
      '      Source: “Tidepool pivots to research labs”, 15 August 2025.',
    ]);
  });

  it('--entity, --all and --json', async () => {
    const one = await json<{
      entity: string;
      total: number;
      contradictions: { kind: string; entity: { name: string } }[];
    }>('contradictions', '--entity', 'Tidepool');
    expect(one).toMatchObject({
      entity: 'Tidepool',
      total: 1,
      contradictions: [{ kind: 'state', entity: { name: 'Tidepool' } }],
    });
    const all = await json<{ all: boolean; total: number; unresolved: number }>('contradictions', '--all');
    expect(all).toEqual(expect.objectContaining({ all: true, total: 2, unresolved: 2 }));
    const none = await run('contradictions', '--entity', 'Notion');
    expect(none.stdout).toBe('No unresolved contradictions about Notion.\n');
  });
});

describe('errors', () => {
  it.each([
    [['snapshot', '--at', '2025-01-01', '--period', 'junior year'], 2, 'pie: Give either --at or --period, not both.'],
    [
      ['snapshot', '--period', 'senior year in Tokyo'],
      4,
      'pie: No period is called "senior year in Tokyo"; known periods: "junior year at UMD", "gap semester in San Francisco", or use --at with a date like 2024-05-01.',
    ],
    [
      ['diff', 'junior year', 'study abroad'],
      4,
      'pie: No period is called "study abroad"; known periods: "junior year at UMD", "gap semester in San Francisco", or give a date like 2024-05-01.',
    ],
    [
      ['snapshot', '--at', '2024-13-45'],
      2,
      'pie: "2024-13-45" is not a date PIE understands; use YYYY-MM-DD or an ISO date-time.',
    ],
    [['snapshot', '--limit', '0'], 2, 'pie: --limit must be a positive whole number, not "0".'],
    [
      ['snapshot', '--type', 'bogus'],
      2,
      'pie: No entity has the type "bogus"; the types in this memory are belief, period, person, project, tool.',
    ],
    [
      ['entities', '--type', 'bogus'],
      2,
      'pie: No entity has the type "bogus"; the types in this memory are belief, period, person, project, tool.',
    ],
    [['contradictions', '--entity', 'Tidpool'], 4, 'pie: No entity is called "Tidpool". Did you mean "Tidepool"?'],
  ])('pie %j exits %i: %s', async (args, code, message) => {
    const r = await run(...args);
    expect(r.code).toBe(code);
    expect(r.stderr.split('\n')[0]).toContain(message);
    expect(r.stdout).toBe('');
  });

  it('with --json an error is also the one JSON document on stdout', async () => {
    const r = await run('--json', 'contradictions', '--entity', 'Tidpool');
    expect(r.code).toBe(4);
    expect(r.stderr.split('\n')[0]).toContain('pie: No entity is called "Tidpool".');
    const doc = JSON.parse(r.stdout) as { error: { code: string; message: string } };
    expect(doc.error.code).toBe('NOT_FOUND');
    expect(doc.error.message).toContain('Did you mean "Tidepool"?');
  });

  it('a bad --time-format is a usage error; a missing database says so', async () => {
    const bad = await run('snapshot', '--time-format', 'fancy');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--time-format.*fancy/);
    const missing = await pie(['--db', join(ROOT, 'no-such-dir', 'pie.db'), 'contradictions']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/There is no database at .*; import something first/);
  });

  it('a --db that is a directory is one sentence and exit 5, for reading, writing and cipher commands alike', async () => {
    const { dir, cleanup } = tempDir();
    try {
      for (const args of [['stats'], ['contradictions'], ['ingest', SAMPLE, '--extractor', 'offline'], ['undo', 'x']]) {
        const r = await pie(['--db', dir, ...args]);
        expect(r.code, args.join(' ')).toBe(5);
        expect(r.stderr).toBe(
          `pie: The database path ${dir} is a directory; point --db (or PIE_DB) at a database file, such as ${join(dir, 'pie.db')}.\n`,
        );
      }
      for (const command of ['encrypt', 'decrypt']) {
        const r = await pie(['--db', dir, command], { PIE_DB_KEY: 'k' });
        expect(r.code, command).toBe(5);
        expect(r.stderr).toMatch(/^pie: The database path .* is a directory; point --db/);
      }
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });
});
