import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/** A $PIE_BENCH_DATA folder holding the three fixture excerpts under the real files' names. */
function dataDir(): string {
  const root = join(dir, 'data');
  const put = (fixture: string, path: string): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    copyFileSync(join(FIXTURES, fixture), join(root, path));
  };
  put('locomo-mini.json', 'locomo/locomo10.json');
  put('longmemeval-mini.json', 'longmemeval/longmemeval_oracle.json');
  put('tot-mini.json', 'test-of-time/tot_arithmetic_test.json');
  return root;
}

describe('pie bench tot and ablation', () => {
  it('tot: facts in context per category, written as a marked report section', async () => {
    const report = join(dir, 'tot.md');
    const r = await pie([
      'bench',
      'tot',
      '--data',
      join(FIXTURES, 'tot-mini.json'),
      '--limit',
      '1',
      '--report',
      report,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/add_subtract\s+1\s+100\.0/);
    expect(r.stdout).toMatch(/all\s+7\s/);
    const md = readFileSync(report, 'utf8');
    expect(md).toContain('<!-- bench:tot-arithmetic -->');
    expect(md).toMatch(/Command: `pie bench tot --data .*tot-mini\.json --limit 1`/);
    expect(md).toContain('| timezone | 1 | 100.0 |');
  });

  it('tot --qa: raw facts vs PIE graded by exact match, with a report naming the model', async () => {
    const report = join(dir, 'tot-qa.md');
    const env = { PIE_DB: join(dir, 'tot.db'), PIE_LLM: `fake:${join(FIXTURES, 'fake-tot-script.json')}` };
    const args = ['bench', 'tot', '--qa', '--only', 'add_subtract', '--data', join(FIXTURES, 'tot-mini.json')];
    const r = await pie([...args, '--report', report], env);
    expect(r.code).toBe(0);
    // Item 1 (the war from 360 BC) is answered right from both contexts, item 2 from neither.
    expect(r.stdout).toMatch(/add_subtract\s+2\s+50\.0\s+50\.0/);
    const md = readFileSync(report, 'utf8');
    expect(md).toContain('<!-- bench:qa-tot-arithmetic -->');
    expect(md).toMatch(/Answering model: fake:.*fake-tot-script\.json/);
    expect(md).toMatch(/raw facts: \d[\d,]* tokens/);
  });

  it('ablation: every condition on the three sets, one section each; --data is refused', async () => {
    const report = join(dir, 'ablation.md');
    const env = { PIE_BENCH_DATA: dataDir() };
    const r = await pie(['bench', 'ablation', '--limit', '1', '--report', report], env);
    expect(r.code).toBe(0);
    const md = readFileSync(report, 'utf8');
    for (const set of ['locomo', 'longmemeval', 'tot']) expect(md).toContain(`<!-- bench:ablation-${set} -->`);
    expect(md).toMatch(/\| A raw timestamps \|/);
    expect(md).toMatch(/\| C relative only \|/);
    expect(md).toMatch(/Command: `pie bench ablation --limit 1 --only tot`/);
    const bad = await pie(['bench', 'ablation', '--data', 'x.json'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--data does not apply/);
  });

  it('ablation --qa: accuracy per condition with a scripted model; LongMemEval --qa --report records the run', async () => {
    const env = {
      PIE_BENCH_DATA: dataDir(),
      PIE_DB: join(dir, 'abl.db'),
      PIE_LLM: `fake:${join(FIXTURES, 'fake-tot-script.json')}`,
    };
    const report = join(dir, 'ablation-qa.md');
    const r = await pie(['bench', 'ablation', '--only', 'tot', '--limit', '1', '--qa', '--report', report], env);
    expect(r.code).toBe(0);
    const md = readFileSync(report, 'utf8');
    // Only the add_subtract item of the 7 is answered right, in every condition (its facts are quoted verbatim).
    expect(md).toMatch(/\| A raw timestamps \| 100\.0 \| \d+ \| 14\.3 \| 7 \|/);
    const qaReport = join(dir, 'qa.md');
    const qa = await pie(
      ['bench', 'longmemeval', '--qa', '--data', join(FIXTURES, 'longmemeval-mini.json'), '--report', qaReport],
      { PIE_DB: join(dir, 'qa2.db'), PIE_LLM: `fake:${join(FIXTURES, 'fake-qa-script.json')}` },
    );
    expect(qa.code).toBe(0);
    const qmd = readFileSync(qaReport, 'utf8');
    expect(qmd).toContain('<!-- bench:qa-longmemeval-longmemeval-mini -->');
    expect(qmd).toMatch(/Answering model: fake:.*; graded by the judge fake:/);
    expect(qmd).toMatch(/PIE: \d[\d,]* tokens .*naive_rag: .*extraction: /);
    expect(qmd).toContain('| single-session-user | 1 | 100.0 | 100.0 |');
  });
});
