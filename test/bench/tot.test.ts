import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { ResultsFile } from '../../src/bench/qa/results-file.js';
import {
  firstPerCategory,
  parseTotLabel,
  readTotItems,
  splitTotQuestion,
  totFacts,
} from '../../src/bench/tot/items.js';
import { runTotContext, runTotQa, totContextMetrics } from '../../src/bench/tot/run.js';
import { scoreTotAnswer } from '../../src/bench/tot/score.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';
import { createLlmClient, type LlmClient } from '../../src/llm/index.js';
import type { ModelRequest } from '../../src/ports/llm.js';

/** 15 real items of tot_arithmetic_test.json: the first two of each category and one "age in days" item. */
const raws = JSON.parse(readFileSync(new URL('./fixtures/tot-mini.json', import.meta.url), 'utf8')) as unknown[];
const { items } = readTotItems(raws);

describe('Test of Time items', () => {
  it('read Python-literal and JSON labels, and count an unreadable item instead of failing', () => {
    expect(parseTotLabel("{'answer': '352 BC'}")).toEqual({ answer: '352 BC' });
    expect(parseTotLabel('{"H": 2.0, "M": 13.0}')).toEqual({ H: 2, M: 13 });
    expect(parseTotLabel("{'unordered_list': ['Kyle', \"O'Neil\"]}")).toEqual({ unordered_list: ['Kyle', "O'Neil"] });
    expect(parseTotLabel('not a label')).toBeNull();
    const r = readTotItems([...raws, { question: 'x', question_type: 'trick', label: '???' }]);
    expect(r.items).toHaveLength(15);
    expect(r.unreadable).toBe(1);
  });

  it('split a question into statement, asking sentence and answer-format instruction', () => {
    const war = items[0];
    expect(war?.statement).toBe('The war started in 360 BC and went on for 8 years. What year did the war end in?');
    expect(war?.ask).toBe('What year did the war end in?');
    expect(war?.instruction).toMatch(/^Format your answer as a JSON/);
    const compare = splitTotQuestion(
      'Kyle and Bob have exams on 1 May, 2020; and in June 2021 respectively. Find the persons whose exams are after 2020-06-01. Format your answer as a JSON with a list.',
    );
    expect(compare.ask).toBe('Find the persons whose exams are after 2020-06-01.');
    expect(compare.statement).not.toMatch(/JSON/);
  });

  it('list the quantities a statement states, eras and named days included', () => {
    expect(totFacts('The war started in 360 BC and went on for 8 years.')).toEqual(['360 BC', '8']);
    expect(totFacts('If today is Sunday, what day is it 8 days from now? Born 2004-Feb-18 at 10:56:02 AM.')).toEqual([
      '8',
      '2004-Feb-18',
      '10:56:02 AM',
      'Sunday',
    ]);
  });

  it('take the first N items of each category', () => {
    const two = firstPerCategory(items, 1);
    expect(two.map((i) => i.category)).toEqual([
      'add_subtract',
      'compare',
      'duration',
      'multi_op',
      'schedule',
      'timezone',
      'trick',
    ]);
  });
});

describe('ToT exact-match scoring', () => {
  it('compares numbers as numbers, unordered lists as sets, ordered lists in order, text without case', () => {
    expect(scoreTotAnswer({ answer: '352 BC' }, 'Steps… JSON = {"explanation": "360-8", "answer": "352 bc"}')).toBe(
      true,
    );
    expect(scoreTotAnswer({ answer: '352 BC' }, '{"answer": "368 BC"}')).toBe(false);
    expect(scoreTotAnswer({ H: 2, M: 13, S: 30 }, "{'explanation': 'avg', 'H': 2, 'M': '13', 'S': 30.0}")).toBe(true);
    expect(scoreTotAnswer({ H: 2, M: 13, S: 30 }, '{"H": 2, "M": 13}')).toBe(false);
    expect(scoreTotAnswer({ unordered_list: ['Kyle', 'Joe'] }, '{"unordered_list": ["joe", "Kyle"]}')).toBe(true);
    expect(scoreTotAnswer({ ordered_list: ['Kyle', 'Joe'] }, '{"ordered_list": ["Joe", "Kyle"]}')).toBe(false);
    expect(scoreTotAnswer({ answer: 'Monday' }, 'Monday')).toBe(false);
  });

  it("accept the key the question asked for when the label names it differently (the data set's own mismatch)", () => {
    // "Compute the age … JSON = {…, "age": <num_days>}" is labelled {'answer': 725}; "unorered_list" is a typo of the prompt.
    expect(scoreTotAnswer({ answer: '725' }, '{"explanation": "…", "age": 725}')).toBe(true);
    expect(scoreTotAnswer({ unordered_list: ['Kyle'] }, '{"unorered_list": ["Kyle"]}')).toBe(true);
    expect(scoreTotAnswer({ answer: '725' }, '{"age": 725, "days": 725}')).toBe(false);
  });
});

describe('ToT runs', () => {
  const common = {
    extraction: { extractor: createOfflineExtractor() },
    openStore: () => openSqliteStore({ path: ':memory:' }),
    tz: 'UTC',
  };

  it("without a model: every stated fact of every item is in PIE's context, per category", async () => {
    const r = await runTotContext({ ...common, items });
    expect(r.items).toBe(15);
    expect(r.table.count('all', 'pie')).toBe(15);
    expect(r.table.count('duration', 'pie')).toBe(3);
    expect(r.table.mean('all', 'pie', 'facts_in_context')).toBe(1);
    const war = items[0];
    if (!war) throw new Error('fixture');
    expect(totContextMetrics(war, 'nothing here').facts_in_context).toBe(0);
    // The header repeats the question; its quantities do not count.
    expect(totContextMetrics(war, 'Question: in 360 BC for 8 years?\nNow: today').fact_recall).toBe(0);
    expect(totContextMetrics(war, 'in 360 BC for 8 years').fact_recall).toBe(1);
  });

  it('with a model: raw facts vs PIE, graded by exact match, resumable, stopping at the token cap', async () => {
    const model = createScriptedModel({
      respond: (request: ModelRequest) => {
        const text = request.messages.map((m) => m.content).join('\n');
        // Right only when the context states the war's start: PIE's context must carry the note's words.
        if (/What year did the war end in\?/.test(text)) {
          return /360 BC/.test(text) ? '{"explanation": "360 - 8", "answer": "352 BC"}' : '{"answer": "unknown"}';
        }
        return '{"answer": "no idea"}';
      },
    });
    const newClient = async (): Promise<LlmClient> => {
      const cache = await openSqliteStore({ path: ':memory:' });
      return createLlmClient({ model, cache: cache.llmCache, clock: { now: () => 0 }, prices: {} });
    };
    const client = await newClient();
    const results = new ResultsFile(null);
    const first = await runTotQa({ ...common, items: items.slice(0, 3), client, results });
    expect(first.answered).toBe(6);
    expect(first.table.mean('add_subtract', 'raw', 'accuracy')).toBe(0.5);
    expect(first.table.mean('add_subtract', 'pie', 'accuracy')).toBe(0.5);
    expect(first.table.mean('compare', 'pie', 'accuracy')).toBe(0);
    expect(first.usage.pie.inputTokens).toBeGreaterThan(first.usage.raw.inputTokens);
    const again = await runTotQa({ ...common, items: items.slice(0, 3), client, results });
    expect(again.answered).toBe(0);
    expect(again.skippedDone).toBe(3);
    // A fresh cache, so the answers cost tokens again: the first item's two answers pass the cap of 1 token.
    const capped = await runTotQa({
      ...common,
      items,
      client: await newClient(),
      results: new ResultsFile(null),
      budgetTokens: 1,
    });
    expect(capped.stoppedByBudget).toBe(true);
    expect(capped.answered).toBe(2);
  });
});
