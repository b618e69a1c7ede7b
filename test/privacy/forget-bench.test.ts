import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Forgetting crosses the personal benchmark: its stored questions quote the turns they were made from, so forgetting
 * a text takes the questions made from the turns that held it, and the file keeps no copy.
 */
let dir: string;
let cleanup: () => void;
let db: string;
const G = ['--now', '2025-11-01', '--tz', 'UTC'];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-forget-bench-'));
  db = join(dir, 'pie.db');
  const r = await pie(['--db', db, ...G, 'ingest', SAMPLE, '--extractor', 'offline']);
  if (r.code !== 0) throw new Error(r.stderr);
  const bench = await pie(['--db', db, ...G, 'bench', 'personal']);
  if (bench.code !== 0) throw new Error(bench.stderr);
}, 180_000);
afterAll(() => cleanup());

describe('pie forget after pie bench personal', () => {
  it('removes the questions made from the forgotten turns, and their text from the file', async () => {
    const [evidence] = rows<{ question_id: string; question: string; text: string }>(
      db,
      `SELECT q.id AS question_id, q.question, t.text FROM personal_bench_questions q
         JOIN personal_bench_evidence e ON e.question_id = q.id
         JOIN turns t ON t.episode_id = e.episode_id AND t.seq = e.seq
       WHERE q.kind = 'single-fact' ORDER BY q.position LIMIT 1`,
    );
    expect(evidence).toBeDefined();
    if (!evidence) return;
    const before = rows(db, 'SELECT id FROM personal_bench_questions').length;
    // The whole turn as the text to forget: only that turn holds it.
    const r = await pie(['--db', db, ...G, 'forget', evidence.text, '--kind', 'text', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(rows(db, 'SELECT id FROM personal_bench_questions WHERE id = ?', evidence.question_id)).toEqual([]);
    expect(rows(db, 'SELECT id FROM personal_bench_questions').length).toBeLessThan(before);
    const bytes = Buffer.concat([readFileSync(db)]);
    expect(bytes.includes(evidence.question)).toBe(false);
    expect(bytes.includes(evidence.text)).toBe(false);
  }, 120_000);
});
