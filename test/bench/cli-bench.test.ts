import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { pie, SHARED_DATA } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pie-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pie bench', () => {
  it('says in one sentence which data file is missing and exits non-zero', async () => {
    const r = await pie(['bench', 'locomo', '--data', join(dir, 'nope.json')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/nope\.json does not exist; pass --data PATH/);
  });

  it('rejects an unknown benchmark and a bad --k', async () => {
    expect((await pie(['bench', 'mmlu'])).stderr).toMatch(/not known/);
    const r = await pie(['bench', 'locomo', '--k', '0', '--data', join(FIXTURES, 'locomo-mini.json')]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--k must be a positive whole number/);
  });

  it('runs LongMemEval on the excerpt, writes JSON and a marked report section', async () => {
    const out = join(dir, 'r.json');
    const report = join(dir, 'bench.md');
    const args = ['bench', 'longmemeval', '--data', join(FIXTURES, 'longmemeval-mini.json'), '--k', '1,5'];
    const r = await pie([...args, '--out', out, '--report', report]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/session_recall@1 BM25/);
    const json = JSON.parse(readFileSync(out, 'utf8')) as { questions: number; abstentionSkipped: number };
    expect(json.questions).toBe(1);
    expect(json.abstentionSkipped).toBe(1);
    const md = readFileSync(report, 'utf8');
    expect(md).toContain('<!-- bench:longmemeval-longmemeval-mini -->');
    expect(md).toContain('| single-session-user | 1 |');
  });

  it.skipIf(!existsSync(join(SHARED_DATA, 'locomo')))(
    'runs one real LoCoMo conversation from ../shared/data (skipped when the folder is absent, as in CI)',
    async () => {
      const r = await pie(['bench', 'locomo', '--limit', '1', '--json'], { PIE_BENCH_DATA: SHARED_DATA });
      expect(r.code).toBe(0);
      const json = JSON.parse(r.stdout) as { conversations: number; evidence: { raw: number } };
      expect(json.conversations).toBe(1);
      expect(json.evidence.raw).toBeGreaterThan(100);
    },
    // A whole LoCoMo world is built and queried: give a loaded machine room (the test asserts no timing).
    180_000,
  );
});

describe('pie bench --qa', () => {
  it('needs a model, and says how to configure one', async () => {
    const r = await pie(['bench', 'longmemeval', '--qa', '--data', join(FIXTURES, 'longmemeval-mini.json')], {
      PIE_DB: join(dir, 'noqa.db'),
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--qa needs a model/);
  });

  it('answers and judges with a scripted model, appends JSONL and resumes', async () => {
    const out = join(dir, 'qa.jsonl');
    const args = ['bench', 'longmemeval', '--qa', '--data', join(FIXTURES, 'longmemeval-mini.json'), '--out', out];
    const env = { PIE_DB: join(dir, 'qa.db'), PIE_LLM: `fake:${join(FIXTURES, 'fake-qa-script.json')}` };
    const first = await pie(args, env);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/single-session-user\s+1\s+100\.0\s+100\.0/);
    expect(first.stdout).toMatch(/abstention\s+1\s+100\.0\s+100\.0/);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(4);
    const again = await pie(args, env);
    expect(again.stdout).toMatch(/0 answers judged this run, 2 questions already in/);
  });
});
