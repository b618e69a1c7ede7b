import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { createTiktokenTokenizer } from '../../src/adapters/tokenizer/tiktoken.js';
import { isBareNumber } from '../../src/bench/context/match.js';
import { runContextBench, systemKey, WITHOUT_BARE_NUMBERS } from '../../src/bench/context/run.js';
import { buildWorld } from '../../src/bench/world.js';
import { locomoContextUnits, parsePositions } from '../../src/bench/context/units.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';
import { pie } from '../helpers/cli.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const fixture = (name: string): unknown[] => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as unknown[];
const tokenizer = createTiktokenTokenizer();
const dir = mkdtempSync(join(tmpdir(), 'pie-bench-context-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parsePositions', () => {
  it.each([
    ['1-5', 10, [1, 2, 3, 4, 5]],
    ['6-10', 10, [6, 7, 8, 9, 10]],
    ['3,1,2-2', 10, [1, 2, 3]],
    ['all', 3, [1, 2, 3]],
  ])('%s of %i', (text, count, expected) => {
    expect(parsePositions(text, count)).toEqual(expected);
  });
  it.each(['0', '4-2', '11', 'x', '1-'])('rejects %s', (text) => {
    expect(() => parsePositions(text, 10)).toThrow(/--conversations .* is not a list of positions between 1 and 10/);
  });
});

/** The offline run the tests score: fresh in-memory SQLite worlds, 2-turn naive chunks, short answers only. */
const benchOptions = (budgets: number[]) => ({
  tz: 'UTC',
  budgets,
  extraction: { extractor: createOfflineExtractor() },
  openStore: () => openSqliteStore({ path: ':memory:' }),
  tokenizer,
  chunkTurns: 2,
  format: 'auto' as const,
  maxAnswerWords: 6,
});

describe('runContextBench (committed LoCoMo excerpt)', () => {
  it('scores PIE and naive_rag at each budget, never over it, and resolves the relative date the answer needs', async () => {
    const units = locomoContextUnits({ samples: fixture('locomo-mini.json'), positions: [1], tz: 'UTC' });
    const r = await runContextBench(units, benchOptions([200, 400]));
    expect(r.failures).toEqual([]);
    // 7 questions: the adversarial one is scored apart (not in "all").
    expect(r.questions).toBe(7);
    expect(r.table.count('all', systemKey('pie', 200))).toBe(6);
    expect(r.table.count('adversarial', systemKey('pie', 200))).toBe(1);
    // Headline questions whose answer is not a bare small number (a number most contexts hold by chance).
    const bare = r.records.filter((x) => x.headline && isBareNumber(x.answer)).length;
    expect(r.table.count(WITHOUT_BARE_NUMBERS, systemKey('pie', 200))).toBe(6 - bare);
    for (const rec of r.records) for (const x of rec.results) expect(x.tokens).toBeLessThanOrEqual(x.budget);
    // "I ran the Lisbon half marathon on Sunday", said on 20 April 2023: PIE writes the Sunday it means.
    const marathon = r.records.find((x) => x.question.includes('Lisbon'));
    expect(marathon?.results.filter((x) => x.system === 'pie').every((x) => x.hit)).toBe(true);
    expect(marathon?.results.filter((x) => x.system === 'naive_rag').some((x) => x.hit)).toBe(false);
    const puppy = r.records.find((x) => x.question.includes('name of Ana'));
    expect(puppy?.results.every((x) => x.hit)).toBe(true);
  });
  it('does not find an answer in the question PIE repeats (its "Question:" header)', async () => {
    const [unit] = locomoContextUnits({ samples: fixture('locomo-mini.json'), positions: [1], tz: 'UTC' });
    if (!unit) throw new Error('fixture has no conversation');
    const now = unit.items[0]?.now ?? 0;
    const items = [
      // Named only in the question: PIE's "Question:" header repeats it, the conversations never say it.
      { key: 'echo', group: 'single-hop', question: 'Was it Zephyrinus or Quillon who ran?', answer: 'Zephyrinus' },
    ].map((i) => ({ ...i, now, headline: true }));
    const r = await runContextBench([{ ...unit, items }], benchOptions([400]));
    expect(r.failures).toEqual([]);
    expect(r.records.map((x) => x.results.map((y) => [y.system, y.hit]))).toEqual([
      [
        ['pie', false],
        ['naive_rag', false],
      ],
    ]);
  });
});

describe('buildWorld', () => {
  it('gives the same ids on every run, so ties the query breaks by id break the same way', async () => {
    const [unit] = locomoContextUnits({ samples: fixture('locomo-mini.json'), positions: [1], tz: 'UTC' });
    if (!unit) throw new Error('fixture has no conversation');
    const ids = async () => {
      const world = await buildWorld({
        conversations: unit.conversations,
        extraction: { extractor: createOfflineExtractor() },
        tz: 'UTC',
        label: 'ids',
        openStore: () => openSqliteStore({ path: ':memory:' }),
      });
      try {
        return (await world.store.entities.list()).map((e) => `${e.name}=${e.id}`).sort();
      } finally {
        await world.close();
      }
    };
    const first = await ids();
    expect(first.length).toBeGreaterThan(0);
    expect(await ids()).toEqual(first);
  });
});

describe('pie bench context', () => {
  it('writes the table, JSON and a marked report section', async () => {
    const out = join(dir, 'c.json');
    const report = join(dir, 'bench.md');
    const r = await pie([
      'bench',
      'context',
      '--data',
      join(FIXTURES, 'locomo-mini.json'),
      '--conversations',
      '1',
      '--budgets',
      '400,200',
      '--out',
      out,
      '--report',
      report,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PIE @200\s+naive_rag @200\s+Δ\s+PIE @400/);
    const json = JSON.parse(readFileSync(out, 'utf8')) as { questions: number; meta: { budgets: number[] } };
    expect(json.questions).toBe(7);
    expect(json.meta.budgets).toEqual([200, 400]);
    const md = readFileSync(report, 'utf8');
    expect(md).toContain('<!-- bench:context-locomo-1 -->');
    expect(md).toContain('## Answer in context: LoCoMo conversations 1 (tuning set)');
    expect(md).toMatch(/\| temporal \| 1 \| 100\.0 \| 0\.0 \| \+100\.0 \|/);
  });

  it('runs the LongMemEval sets: dev30 (tuning) and the oracle questions outside it (held out)', async () => {
    const data = join(dir, 'data');
    for (const [from, to] of [
      ['longmemeval-mini.json', 'longmemeval_s_dev30.json'],
      ['longmemeval-mini.json', 'longmemeval_oracle.json'],
    ] as const) {
      const target = join(data, 'longmemeval');
      await import('node:fs').then((fs) => fs.mkdirSync(target, { recursive: true }));
      copyFileSync(join(FIXTURES, from), join(target, to));
    }
    const dev = await pie(['bench', 'context', '--set', 'longmemeval', '--budgets', '300', '--json'], {
      PIE_BENCH_DATA: data,
    });
    expect(dev.code, dev.stderr).toBe(0);
    expect((JSON.parse(dev.stdout) as { questions: number }).questions).toBe(1);
    // Every oracle question of the excerpt is also in "dev30" here, so the held-out set is empty.
    const held = await pie(['bench', 'context', '--set', 'longmemeval-heldout', '--budgets', '300', '--json'], {
      PIE_BENCH_DATA: data,
    });
    expect(held.code, held.stderr).toBe(0);
    expect((JSON.parse(held.stdout) as { questions: number }).questions).toBe(0);
  });

  it('--qa answers and judges both contexts at the first budget with a scripted model', async () => {
    const data = join(dir, 'qa-data');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(data, 'longmemeval'), { recursive: true });
    copyFileSync(join(FIXTURES, 'longmemeval-mini.json'), join(data, 'longmemeval', 'longmemeval_s_dev30.json'));
    const report = join(dir, 'qa.md');
    const out = join(dir, 'qa-results.jsonl');
    const args = ['bench', 'context', '--set', 'longmemeval', '--qa', '--budgets', '300', '--report', report];
    const r = await pie([...args, '--out', out], {
      PIE_BENCH_DATA: data,
      PIE_DB: join(dir, 'qa.db'),
      PIE_LLM: `fake:${join(FIXTURES, 'fake-qa-script.json')}`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/single-session-user\s+1\s+100\.0\s+100\.0/);
    const md = readFileSync(report, 'utf8');
    expect(md).toContain('<!-- bench:qa-context-longmemeval-300 -->');
    expect(md).toContain('QA accuracy, LongMemEval longmemeval_s_dev30.json (tuning set) at 300 context tokens');
    expect(md).toContain('Both contexts at 300 tokens');
    // The proxy check: each record says whether "red" was written in the context the model saw, and the report
    // sets that beside the judge's verdict (the abstention question is not in the answer-in-context set).
    const records = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { system: string; key: string; inContext?: boolean; correct: boolean });
    expect(records.map((x) => [x.system, x.key, x.inContext, x.correct]).sort()).toEqual([
      ['naive_rag', 'mini_q1', true, true],
      ['pie', 'mini_q1', true, true],
    ]);
    expect(md).toMatch(/Proxy check .*where the gold answer was written in the context the model saw/);
    expect(md).toContain('| pie | 1 | 100.0 % of 1 | – | 100.0 % |');
    expect(md).toContain('| naive_rag | 1 | 100.0 % of 1 | – | 100.0 % |');
    // Run again on the same results file: nothing is answered twice, and the proxy check still counts every
    // answer in the file (an interrupted run resumed gives the same table).
    const again = await pie([...args, '--out', out], {
      PIE_BENCH_DATA: data,
      PIE_DB: join(dir, 'qa.db'),
      PIE_LLM: `fake:${join(FIXTURES, 'fake-qa-script.json')}`,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('0 answers judged this run, 1 question already in');
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(readFileSync(report, 'utf8')).toContain('| pie | 1 | 100.0 % of 1 | – | 100.0 % |');
  });

  it.each([
    [['--budgets', '100'], /--budgets 100 is out of range; each budget is a whole number of tokens from 200 to 32000/],
    [['--budgets', 'x'], /--budgets must be a positive whole number/],
    [
      ['--set', 'mmlu'],
      /--set "mmlu" is not known; use locomo, longmemeval, longmemeval-oracle-dev30, longmemeval-heldout/,
    ],
    [['--conversations', '2'], /--conversations "2" is not a list of positions between 1 and 1/],
  ])('refuses %j in one sentence', async (args, message) => {
    const r = await pie(['bench', 'context', '--data', join(FIXTURES, 'locomo-mini.json'), ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('pie bench extraction', () => {
  it('measures fact and event recall and entity precision on annotated conversations, with hand labels', async () => {
    const labels = join(dir, 'labels.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      labels,
      [
        {
          sample: 'mini-annotated',
          name: 'Biscuit',
          type: 'pet',
          label: 'real',
          correctType: 'pet',
          reason: 'the puppy',
        },
        {
          sample: 'mini-annotated',
          name: 'Lisbon',
          type: 'place',
          label: 'real',
          // Wrong on purpose: "type right" counts only an entity whose type is the one its label names.
          correctType: 'organization',
          reason: 'a city',
        },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n'),
    );
    const r = await pie([
      'bench',
      'extraction',
      '--data',
      join(FIXTURES, 'locomo-annotated.json'),
      '--labels',
      labels,
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as {
      conversations: {
        facts: number;
        factHits: number;
        events: number;
        eventHits: number;
        labelled: number;
        labelledReal: number;
        typed: number;
        typedRight: number;
        entitiesByType: Record<string, number>;
      }[];
      skippedAnnotations: number;
      examples: { factHits: { text: string; record: string }[] };
    };
    const [c] = json.conversations;
    // One observation has a broken evidence id ("D") and is skipped, not scored.
    expect(json.skippedAnnotations).toBe(1);
    expect(c?.facts).toBe(5);
    expect(c?.events).toBe(3);
    // The offline rules read both speakers: the adoption, the pottery classes, the marathon, the bowl.
    expect(c?.factHits).toBeGreaterThanOrEqual(4);
    expect(c?.eventHits).toBeGreaterThanOrEqual(2);
    expect(c?.entitiesByType.pet).toBe(1);
    expect(c?.labelled).toBeGreaterThanOrEqual(1);
    expect(c?.labelledReal).toBe(c?.labelled);
    // Biscuit is a pet as labelled; Lisbon is a place, not the organization its (deliberately wrong) label says.
    expect(c?.typed).toBe(2);
    expect(c?.typedRight).toBe(1);
    expect(json.examples.factHits.some((e) => /marathon/.test(e.text))).toBe(true);
  });

  it('keeps as many examples of each kind as --examples says, and refuses a count that is no whole number', async () => {
    const run = (...extra: string[]) =>
      pie(['bench', 'extraction', '--data', join(FIXTURES, 'locomo-annotated.json'), '--json', ...extra]);
    const kept = (stdout: string) =>
      (JSON.parse(stdout) as { examples: { factHits: unknown[] } }).examples.factHits.length;
    const all = await run();
    expect(all.code, all.stderr).toBe(0);
    // The fixture's one conversation has four or more facts found, all kept by default.
    expect(kept(all.stdout)).toBeGreaterThanOrEqual(4);
    const one = await run('--examples', '1');
    expect(one.code, one.stderr).toBe(0);
    expect(kept(one.stdout)).toBe(1);
    const bad = await run('--examples', 'many');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--examples must be a positive whole number, not "many"/);
  });

  it('refuses a labels file with a bad line, naming the line', async () => {
    const labels = join(dir, 'bad-labels.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(labels, '{"sample":"x","name":"y"}\n');
    const r = await pie(['bench', 'extraction', '--data', join(FIXTURES, 'locomo-annotated.json'), '--labels', labels]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Line 1 of the labels file .*bad-labels\.jsonl is not a label/);
  });
});

describe('pie bench extraction with a model', () => {
  it('runs the extract-batch prompt through the same benchmark, with tokens (scripted model: plumbing, not quality)', async () => {
    const script = join(dir, 'extract-fake.json');
    const { writeFileSync } = await import('node:fs');
    const day1 = {
      entities: [{ name: 'Biscuit', type: 'pet', state: { species: 'beagle' } }],
      relationships: [{ source: 'Ana', target: 'Biscuit', type: 'OWNS', properties: {} }],
      stateChanges: [
        {
          entityName: 'Ana',
          whatChanged: 'Adopted a beagle puppy named Biscuit',
          attribute: 'adopted',
          newStateAspect: 'a beagle puppy named Biscuit',
        },
      ],
      summary: 'Ana adopted Biscuit.',
    };
    writeFileSync(
      script,
      JSON.stringify({
        prompts: { 'extract-batch@3': [{ contains: 'Biscuit', response: day1 }, { response: { summary: 'A day.' } }] },
      }),
    );
    const r = await pie(
      [
        'bench',
        'extraction',
        '--data',
        join(FIXTURES, 'locomo-annotated.json'),
        '--extractor',
        'llm',
        '--llm',
        `fake:${script}`,
        '--json',
      ],
      { PIE_DB: join(dir, 'extract-llm.db') },
    );
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as {
      meta: { extractor: string };
      conversations: { factHits: number; eventHits: number; usage: { inputTokens: number; calls: number } }[];
    };
    expect(json.meta.extractor).toMatch(/fake/);
    const [c] = json.conversations;
    expect(c?.usage.calls).toBe(2);
    expect(c?.usage.inputTokens).toBeGreaterThan(0);
    // The scripted extraction holds the adoption (a fact and an event) and nothing of the other turns.
    expect(c?.factHits).toBe(1);
    expect(c?.eventHits).toBe(1);
  });
});
