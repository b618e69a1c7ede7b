import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { SAMPLE, pie, pieJson, tempDir } from '../helpers/cli.js';
import { SPEC_SCALE, writeSyntheticExport } from '../../bench/generate/chatgpt-export.js';
import { writeSampleModel } from '../helpers/sample-model.js';

/**
 * `pie bench personal` end to end on the bundled sample, ingested by the real path (`pie ingest`) into temporary
 * SQLite files: the set is made from raw turns only, stored, reused, compared after the world changes; the model
 * path with the scripted fake.
 */

const G = ['--tz', 'UTC', '--now', '2025-11-01'];
let dir: string;
let cleanup: () => void;
let offline: string;

interface Question {
  id: string;
  kind: string;
  question: string;
  answer: string;
  evidence: { episodeId: string; seq: number; textHash: string }[];
  generator: string;
  createdAt: number;
}
interface Run {
  set: { id: string; generator: string; generated: boolean; replaced: { id: string } | null; questions: Question[] };
  run: {
    model: string | null;
    records: { id: string; kind: string; status: string; reason?: string; pie?: object; qa?: { pie: boolean } }[];
  };
  comparison: { rows: { group: string }[]; changes: string[]; questions: number } | null;
}

/** A copy of a database file (with its WAL) under a new name. */
function copyDb(from: string, name: string): string {
  const to = join(dir, name);
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
  return to;
}

const bench = (db: string, ...args: string[]) => pieJson<Run>(['--db', db, ...G, 'bench', 'personal', ...args]);

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-personal-'));
  offline = join(dir, 'offline.db');
  const r = await pie(['--db', offline, ...G, 'ingest', SAMPLE]);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(() => cleanup());

describe('pie bench personal on the sample', () => {
  it('makes a set of every kind from the user turns, stores it, and reuses it on the next run', async () => {
    const db = copyDb(offline, 'reuse.db');
    const first = await bench(db);
    expect(first.set.generated).toBe(true);
    expect(first.set.generator).toBe('templates');
    const kinds = new Set(first.set.questions.map((q) => q.kind));
    expect([...kinds].sort()).toEqual(['abstention', 'knowledge-update', 'multi-session', 'single-fact', 'temporal']);
    expect(first.set.questions.length).toBeGreaterThanOrEqual(30);
    expect(first.set.questions.slice(0, 5).map((q) => q.kind)).toEqual([
      'single-fact',
      'temporal',
      'knowledge-update',
      'multi-session',
      'abstention',
    ]);
    const roles = new Database(db, { readonly: true });
    try {
      for (const q of first.set.questions) {
        expect(q.kind === 'abstention' ? q.evidence.length === 0 : q.evidence.length > 0).toBe(true);
        if (q.kind === 'multi-session') expect(new Set(q.evidence.map((e) => e.episodeId)).size).toBeGreaterThan(1);
        for (const e of q.evidence) {
          const row = roles
            .prepare('SELECT role, text FROM turns WHERE episode_id = ? AND seq = ?')
            .get(e.episodeId, e.seq);
          expect(row).toMatchObject({ role: 'user' });
        }
      }
    } finally {
      roles.close();
    }
    const fact = first.set.questions.find((q) => q.question === 'What did I switch to from Notion?');
    expect(fact?.answer).toBe('Obsidian');
    expect(first.set.questions.find((q) => q.question === 'When did I move to San Francisco?')?.answer).toBe(
      '18 May 2025',
    );
    expect(first.run.records.every((r) => r.status === 'scored')).toBe(true);

    const second = await bench(db);
    expect(second.set.generated).toBe(false);
    expect(second.set.id).toBe(first.set.id);
    expect(second.set.questions).toEqual(first.set.questions);
    const limited = await bench(db, '--limit', '5');
    expect(limited.run.records.map((r) => r.kind)).toEqual(first.set.questions.slice(0, 5).map((q) => q.kind));
  }, 60_000);

  it('makes the same set whatever the world model holds: before and after a sleep, offline rules, a model, hardly any', async () => {
    const db = copyDb(offline, 'sleep.db');
    const before = await bench(db);
    const slept = await pie(['--db', db, ...G, 'sleep']);
    expect(slept.code).toBe(0);
    const after = await bench(db, '--generate');
    expect(after.set.questions).toEqual(before.set.questions);
    expect(after.set.replaced?.id).toBe(before.set.id);

    const modelDb = join(dir, 'model.db');
    const script = writeSampleModel({ dir, delayMs: 0 });
    const ingested = await pie(['--db', modelDb, ...G, 'ingest', SAMPLE, '--llm', `fake:${script}`]);
    expect(ingested.code).toBe(0);
    const otherWorld = await bench(modelDb);
    expect(otherWorld.set.questions).toEqual(before.set.questions);

    // A world hardly extracted at all (one conversation), with a generated export's filler conversations beside it.
    const generated = join(dir, 'generated.json');
    await writeSyntheticExport({
      path: generated,
      shape: { ...SPEC_SCALE, conversations: 40, userMessages: 120, assistantMessages: 140, textChars: 200_000 },
    });
    const bareDb = join(dir, 'bare.db');
    for (const file of [generated, SAMPLE]) {
      expect((await pie(['--db', bareDb, ...G, 'ingest', file, '--limit', '1'])).code).toBe(0);
    }
    const bare = await bench(bareDb);
    // The same answerable questions; the abstention names are picked by the history's size, so they differ.
    const answerable = (r: Run) => r.set.questions.filter((q) => q.kind !== 'abstention');
    expect(answerable(bare)).toEqual(answerable(before));
    expect(bare.set.questions.filter((q) => q.kind === 'abstention')).toHaveLength(6);
    expect(bare.run.records.every((r) => r.status === 'scored')).toBe(true);
  }, 120_000);

  it('--compare shows what changed since the previous run: a sleep, a new conversation', async () => {
    const db = copyDb(offline, 'compare.db');
    const alone = await pie(['--db', db, ...G, 'bench', 'personal', '--compare']);
    expect(alone.stdout).toContain('There is no earlier run on this question set to compare with');
    await pie(['--db', db, ...G, 'sleep']);
    const afterSleep = await pie(['--db', db, ...G, 'bench', 'personal', '--compare']);
    expect(afterSleep.code).toBe(0);
    expect(afterSleep.stdout).toMatch(/Since the previous run \([^)]*\): .*maintenance runs 1 → 2/);
    expect(afterSleep.stdout).toMatch(/^all\s+\d+\s+[\d.]+ \((=|[+-][\d.]+)\)/m);

    const note = join(dir, 'note.md');
    writeFileSync(note, '---\ndate: 2025-10-30\n---\nI switched from Obsidian to Logseq for my personal notes.\n');
    expect((await pie(['--db', db, ...G, 'ingest', note])).code).toBe(0);
    const afterImport = await bench(db, '--compare');
    expect(afterImport.comparison?.changes).toEqual(expect.arrayContaining(['episodes 49 → 50', 'turns 150 → 151']));
    expect(afterImport.comparison?.rows.map((r) => r.group)).toContain('all');
    expect(afterImport.set.questions.some((q) => q.question.includes('Logseq'))).toBe(false);

    const regenerated = await pie(['--db', db, ...G, 'bench', 'personal', '--generate', '--compare']);
    expect(regenerated.stdout).toMatch(/It replaces the set made 1 November 2025 \(\d+ questions by templates\)/);
    expect(regenerated.stdout).toContain('There is no earlier run on this question set to compare with');
    const logseq = await bench(db);
    expect(logseq.set.questions.find((q) => q.question === 'What did I switch to from Obsidian?')?.answer).toBe(
      'Logseq',
    );
    expect(logseq.set.questions.find((q) => q.question === 'What do I use now instead of Notion?')?.answer).toBe(
      'Logseq',
    );
  }, 120_000);

  it('skips questions whose evidence turn changed, and says to regenerate', async () => {
    const db = copyDb(offline, 'stale.db');
    const first = await bench(db);
    const q = first.set.questions.find((x) => x.kind === 'temporal');
    const e = q?.evidence[0];
    if (!q || !e) throw new Error('no temporal question');
    const raw = new Database(db);
    raw.prepare('UPDATE turns SET text = ? WHERE episode_id = ? AND seq = ?').run('edited', e.episodeId, e.seq);
    raw.close();
    const r = await pie(['--db', db, ...G, 'bench', 'personal']);
    expect(r.stdout).toMatch(/\d+ skipped because an evidence turn changed or is gone \(run --generate\)/);
    const again = await bench(db);
    expect(again.run.records.find((x) => x.id === q.id)).toMatchObject({
      status: 'stale',
      reason: 'an evidence turn changed',
    });
  }, 60_000);

  it('prints its table and writes a marked report section', async () => {
    const db = copyDb(offline, 'report.db');
    const report = join(dir, 'benchmarks.md');
    const r = await pie(['--db', db, ...G, 'bench', 'personal', '--k', '3,5', '--report', report]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Personal benchmark: \d+ questions \(templates, made 1 November 2025\)/);
    expect(r.stdout).toMatch(/^group\s+n\s+recall@3 BM25\s+recall@3 PIE\s+recall@5 BM25/m);
    for (const kind of ['single-fact', 'temporal', 'knowledge-update', 'multi-session', 'all', 'abstention']) {
      expect(r.stdout).toMatch(new RegExp(`^${kind}\\s+\\d+\\s+[\\d.]+`, 'm'));
    }
    const md = readFileSync(report, 'utf8');
    expect(md).toContain('<!-- bench:personal -->');
    expect(md).toMatch(/\| knowledge-update \| \d+ \|/);
  }, 60_000);
});

describe('pie bench personal: bad input', () => {
  it('refuses an empty database with the step to take', async () => {
    const db = join(dir, 'empty.db');
    await (await openSqliteStore({ path: db })).close();
    const r = await pie(['--db', db, 'bench', 'personal']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/holds no conversations yet; run `pie ingest <your export>` first/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('says there is nothing to score when no turn states a change, and how to get questions', async () => {
    const db = join(dir, 'plain.db');
    const note = join(dir, 'plain.md');
    writeFileSync(note, '---\ndate: 2025-10-30\n---\nCan you help me plan a trip to the coast?\n');
    expect((await pie(['--db', db, ...G, 'ingest', note])).code).toBe(0);
    const r = await pie(['--db', db, ...G, 'bench', 'personal']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^Personal benchmark: 0 questions \(templates, made 1 November 2025\)\.\nNone of your turns/,
    );
    expect(r.stdout).toMatch(/nothing to score; after importing more, run it with --generate/);
  });

  it('refuses a missing database and a bad --k', async () => {
    const missing = await pie(['--db', join(dir, 'nope.db'), 'bench', 'personal']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/There is no database at .*nope\.db yet; import something first \(pie ingest\)/);
    const k = await pie(['--db', offline, 'bench', 'personal', '--k', 'five']);
    expect(k.code).toBe(2);
  });
});

describe('pie bench personal with a model (scripted fake)', () => {
  it('writes the set with the model, drops what fails the checks, answers and judges every question', async () => {
    const db = copyDb(offline, 'llm.db');
    const script = join(dir, 'personal-model.json');
    const q = (kind: string, question: string, answer: string, evidence: string[]) => ({
      kind,
      question,
      answer,
      evidence,
    });
    writeFileSync(
      script,
      JSON.stringify({
        prompts: {
          'personal-questions@1': [
            {
              contains: '[T1]',
              response: {
                questions: [
                  q('single-fact', 'Which year of college was I in when I wrote about my course load?', 'junior year', [
                    'T1',
                  ]),
                  q('temporal', 'When did I ask about study groups?', '3 September 2024', ['T2']),
                  q('multi-session', 'How did my study plans change?', 'It changed.', ['T1', 'T3']),
                  q('multi-session', 'How did one chat go?', 'It went.', ['T1', 'T2']),
                  q('knowledge-update', 'What do I use now?', 'Something.', ['T999']),
                  q('abstention', 'When did I start using Kubernetes?', 'Never mentioned.', []),
                  q('abstention', 'When did I start junior year?', 'Never mentioned.', []),
                ],
              },
            },
            { response: { questions: [] } },
          ],
          'answer-question@1': [{ response: 'You never said.' }],
          'judge-answer@1': [{ response: 'yes' }],
        },
      }),
    );
    const r = await bench(db, '--llm', `fake:${script}`);
    expect(r.set.generator).toBe(`fake:${script}`);
    expect(r.set.questions.map((x) => [x.kind, x.question])).toEqual([
      ['single-fact', 'Which year of college was I in when I wrote about my course load?'],
      ['temporal', 'When did I ask about study groups?'],
      ['multi-session', 'How did my study plans change?'],
      ['abstention', 'When did I start using Kubernetes?'],
    ]);
    expect((r.set as unknown as { meta: { dropped: Record<string, number> } }).meta.dropped).toEqual({
      'multi-session within one conversation': 1,
      'evidence ids it was not shown': 1,
      'abstention about something the history mentions': 1,
    });
    expect(r.run.model).toBe(`fake:${script}`);
    expect(r.run.records.every((x) => x.qa?.pie === true)).toBe(true);
    const judge = join(dir, 'personal-judge.json');
    writeFileSync(judge, JSON.stringify({ prompts: { 'judge-answer@1': [{ response: 'no' }] } }));
    const text = await pie([
      ...['--db', db, ...G, 'bench', 'personal', '--generate'],
      ...['--llm', `fake:${script}`, '--judge', `fake:${judge}`],
    ]);
    expect(text.stdout).toContain('It has the same questions as the stored set');
    expect(text.stdout).toMatch(
      /Writing the questions took [\d,]+ tokens .*; questions dropped: 1 multi-session within one conversation, 1 evidence ids it was not shown, 1 abstention about something the history mentions\./,
    );
    expect(text.stdout).toMatch(
      /Answer accuracy \(percent; answered by fake:.*personal-model\.json, judged by fake:.*personal-judge\.json\)/,
    );
    expect(text.stdout).toMatch(/^all\s+4\s+0\.0\s+0\.0/m);
    expect(text.stdout).toMatch(/Tokens and cost: PIE [\d,]+ tokens/);
    // Without --llm the stored set is scored without answers.
    const plain = await bench(db);
    expect(plain.set.generator).toBe(`fake:${script}`);
    expect(plain.run.model).toBeNull();
  }, 60_000);
});
