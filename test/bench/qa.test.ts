import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { createTiktokenTokenizer } from '../../src/adapters/tokenizer/tiktoken.js';
import { judgedYes, locomoJudgeText, longmemevalJudgeText } from '../../src/bench/qa/judge-prompts.js';
import { ResultsFile } from '../../src/bench/qa/results-file.js';
import { runQa, type QaOptions } from '../../src/bench/qa/run.js';
import { locomoUnits, longmemevalUnits } from '../../src/bench/qa/units.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';
import { createLlmClient, type LlmClient } from '../../src/llm/index.js';
import type { ModelRequest } from '../../src/ports/llm.js';

const fixture = (name: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as unknown[];
const dir = mkdtempSync(join(tmpdir(), 'pie-qa-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lastText = (r: ModelRequest): string => r.messages.map((m) => m.content).join('\n');

/**
 * The scripted "model": answers "I don't know" when the question is about Ben's puppy or a guitar, otherwise copies
 * a fixed fact; the scripted judge says yes when the response contains the gold answer's first word, or — for an
 * unanswerable question — when the response says it does not know.
 */
async function fakeClient(): Promise<{ client: LlmClient; requests: ModelRequest[] }> {
  const model = createScriptedModel({
    respond: (request) => {
      const text = lastText(request);
      if (request.prompt === 'answer-question@1') {
        if (/Ben's puppy|guitar/.test(text)) return 'The context does not say; I do not know.';
        if (/bike/.test(text)) return 'Your bike is red [1].';
        return 'Biscuit, a beagle.';
      }
      if (request.prompt === 'judge-answer@1') {
        const response = /Model Response: ([\s\S]*?)\n\n|Generated answer: ([\s\S]*?)\n\n/.exec(text);
        const said = (response?.[1] ?? response?.[2] ?? '').toLowerCase();
        if (/unanswerable/.test(text)) return /do not know/.test(said) ? 'yes' : 'no';
        const gold = /(?:Correct Answer|Gold answer): (\S+)/.exec(text)?.[1]?.toLowerCase() ?? '#';
        return said.includes(gold.replace(/[^a-z0-9]/g, '')) ? 'Yes.' : 'no';
      }
      throw new Error(`unexpected prompt ${request.prompt}`);
    },
  });
  const cache = await openSqliteStore({ path: ':memory:' });
  const client = createLlmClient({ model, cache: cache.llmCache, clock: { now: () => 0 }, prices: {} });
  return { client, requests: model.calls };
}

async function options(client: LlmClient, results: ResultsFile): Promise<QaOptions> {
  return {
    tz: 'UTC',
    answerClient: client,
    judgeClient: client,
    extraction: { extractor: createOfflineExtractor() },
    openStore: () => openSqliteStore({ path: ':memory:' }),
    results,
    format: 'auto',
    chunkTurns: 2,
    ragChunks: 5,
  };
}

describe('judge prompts', () => {
  it('follow the LongMemEval rules per type, with abstention for _abs', () => {
    const base = { question: 'Q', answer: 'A', response: 'R', abstention: false };
    expect(longmemevalJudgeText({ ...base, type: 'temporal-reasoning' })).toMatch(/off-by-one/);
    expect(longmemevalJudgeText({ ...base, type: 'knowledge-update' })).toMatch(/updated answer/);
    expect(longmemevalJudgeText({ ...base, type: 'single-session-preference' })).toMatch(/Rubric: A/);
    expect(longmemevalJudgeText({ ...base, type: 'multi-session' })).toMatch(/Correct Answer: A/);
    expect(longmemevalJudgeText({ ...base, type: 'multi-session', abstention: true })).toMatch(/unanswerable/);
  });

  it('judge LoCoMo category 5 as abstention, naming the trap answer, and others against the gold answer', () => {
    const q = { question: 'Q', answer: null, adversarialAnswer: 'beagle', response: 'R' };
    expect(locomoJudgeText({ ...q, category: 5 })).toMatch(/unanswerable[\s\S]*wrong answer would be: beagle/);
    expect(locomoJudgeText({ ...q, category: 2, answer: '7 May 2023' })).toMatch(/Gold answer: 7 May 2023/);
  });

  it("read the verdict by LongMemEval's official rule: 'yes' anywhere in the lower-cased reply", () => {
    expect(judgedYes('Yes.')).toBe(true);
    expect(judgedYes('yes')).toBe(true);
    expect(judgedYes('YES, it contains the answer')).toBe(true);
    // The official `'yes' in eval_response.lower()` has no notion of a first word: a reply that says yes later counts.
    expect(judgedYes('The response is correct: yes')).toBe(true);
    expect(judgedYes('No, because yes-men')).toBe(true);
    expect(judgedYes('no')).toBe(false);
    expect(judgedYes('No.')).toBe(false);
    expect(judgedYes('')).toBe(false);
  });
});

describe('QA runs with the scripted model', () => {
  it('LoCoMo: answers with PIE and naive_rag, credits category 5 only for abstaining, per category', async () => {
    const { client } = await fakeClient();
    const results = new ResultsFile(join(dir, 'locomo.jsonl'));
    const units = locomoUnits({ samples: fixture('locomo-mini.json'), tz: 'UTC' });
    const r = await runQa(units, await options(client, results));
    expect(r.answered).toBe(14);
    expect(r.table.mean('adversarial', 'pie', 'accuracy')).toBe(1);
    expect(r.table.mean('adversarial', 'naive_rag', 'accuracy')).toBe(1);
    // "Biscuit" is the gold answer of the first question only among single-hop ones.
    expect(r.table.mean('single-hop', 'pie', 'accuracy')).toBeCloseTo(1 / 3);
    expect(r.usage.pie.calls).toBe(14);
    expect(r.usage.naive_rag.inputTokens).toBeGreaterThan(0);
  });

  it('LongMemEval: abstention questions are judged by the abstention rule; a rerun resumes and calls nothing', async () => {
    const { client, requests } = await fakeClient();
    const file = join(dir, 'lme.jsonl');
    const units = longmemevalUnits({ raws: fixture('longmemeval-mini.json'), tz: 'UTC' });
    const first = await runQa(units, await options(client, new ResultsFile(file)));
    expect(first.answered).toBe(4);
    expect(first.table.mean('abstention', 'pie', 'accuracy')).toBe(1);
    expect(first.table.mean('single-session-user', 'pie', 'accuracy')).toBe(1);
    expect(first.table.mean('single-session-user', 'naive_rag', 'accuracy')).toBe(1);
    const calls = requests.length;
    const again = await runQa(units, await options(client, new ResultsFile(file)));
    expect(again.answered).toBe(0);
    expect(again.skippedDone).toBe(2);
    expect(requests.length).toBe(calls);
    expect(again.table.mean('all', 'pie', 'accuracy')).toBe(1);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4);
  });

  it('with a context budget, each record says whether the gold answer was in the context the model saw', async () => {
    const { client } = await fakeClient();
    const results = new ResultsFile(null);
    const units = locomoUnits({ samples: fixture('locomo-mini.json'), tz: 'UTC' });
    const contextTokens = { tokens: 2000, tokenizer: createTiktokenTokenizer() };
    await runQa(units, { ...(await options(client, results)), contextTokens, proxyMaxWords: 6 });
    const byQuestion = (system: string, question: RegExp) =>
      results.records().find((r) => r.system === system && question.test(r.question));
    for (const system of ['pie', 'naive_rag']) {
      // "bowls" is said in the conversation, but the scripted model answers "Biscuit": in context, judged wrong.
      expect(byQuestion(system, /pottery classes/)).toMatchObject({ inContext: true, correct: false });
      expect(byQuestion(system, /name of Ana's puppy/)).toMatchObject({ inContext: true, correct: true });
      // A trap question (category 5) is not scored by the proxy.
      expect(byQuestion(system, /breed is Ben's puppy/)?.inContext).toBeUndefined();
    }
  });

  it('without a context budget, no record is scored by the proxy', async () => {
    const { client } = await fakeClient();
    const results = new ResultsFile(null);
    await runQa(locomoUnits({ samples: fixture('locomo-mini.json'), tz: 'UTC' }), {
      ...(await options(client, results)),
      proxyMaxWords: 6,
    });
    expect(results.records().length).toBeGreaterThan(0);
    expect(results.records().filter((r) => r.inContext !== undefined)).toEqual([]);
  });

  it('stops starting questions once the token budget is spent', async () => {
    const { client } = await fakeClient();
    const units = locomoUnits({ samples: fixture('locomo-mini.json'), tz: 'UTC' });
    const r = await runQa(units, { ...(await options(client, new ResultsFile(null))), budgetTokens: 1 });
    expect(r.stoppedByBudget).toBe(true);
    expect(r.answered).toBe(2);
  });
});
