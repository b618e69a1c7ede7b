import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isPieError } from '../domain/errors.js';
import {
  collect,
  HAS_SHARED_DATA,
  NO_SHARED_DATA_REASON,
  SHARED_DATA,
  split,
} from '../../test/fixtures/import/helpers.js';
import {
  importConversations,
  locomoSampleToConversations,
  locomoSampleToEvents,
  longmemevalQuestionToConversations,
} from './index.js';

const LOCOMO = join(SHARED_DATA, 'locomo', 'locomo10.json');
const ORACLE = join(SHARED_DATA, 'longmemeval', 'longmemeval_oracle.json');
const S_DEV = join(SHARED_DATA, 'longmemeval', 'longmemeval_s_dev30.json');
const MEMORYBANK = join(SHARED_DATA, 'memorybank', 'memory_bank_en.json');

async function readJsonArray(path: string): Promise<unknown[]> {
  return JSON.parse(await readFile(path, 'utf8')) as unknown[];
}

describe.skipIf(!HAS_SHARED_DATA)(`LoCoMo (skipped: ${NO_SHARED_DATA_REASON})`, () => {
  let samples: unknown[] = [];
  beforeAll(async () => {
    samples = await readJsonArray(LOCOMO);
  });

  it('turns one sample into one conversation per session (session_N lists, not the date keys)', () => {
    const conversations = locomoSampleToConversations(samples[0], 'UTC');
    expect(conversations).toHaveLength(19); // conv-26 has 35 date keys but 19 sessions
    const first = conversations[0]!;
    expect(first.externalId).toBe('conv-26:session_1');
    expect(first.title).toBe('Caroline & Melanie — session 1');
    expect(first.source).toBe('locomo');
    expect(first.createdAt).toBe(Date.parse('2023-05-08T13:56:00Z'));
    expect(first.meta).toEqual({ sampleId: 'conv-26', session: 1 });
    expect(first.turns).toHaveLength(18);
    expect(first.turns[0]).toEqual({
      role: 'user',
      text: 'Hey Mel! Good to see you! How have you been?',
      time: null,
      speaker: 'Caroline',
      externalId: 'D1:1',
    });
    expect(first.turns[1]).toMatchObject({ role: 'assistant', speaker: 'Melanie', externalId: 'D1:2' });
    expect(first.turns[4]!.text).toBe(
      'The transgender stories were so inspiring! I was so happy and thankful for all the support. [shares a photo: a photo of a dog walking past a wall with a painting of a woman]',
    );
    expect(conversations[18]!.externalId).toBe('conv-26:session_19');
    expect(conversations[18]!.createdAt).toBe(Date.parse('2023-10-22T09:55:00Z'));
  });

  it('reads session dates in the given zone', () => {
    const [first] = locomoSampleToConversations(samples[0], 'America/New_York');
    expect(first!.createdAt).toBe(Date.parse('2023-05-08T17:56:00Z'));
  });

  it('streams the whole file: 272 sessions, 5,882 turns, nothing skipped', async () => {
    const r = await collect(importConversations({ path: LOCOMO, format: 'auto', tz: 'UTC' }));
    expect(r.skipped).toEqual([]);
    expect(r.conversations).toHaveLength(272);
    expect(r.conversations.reduce((n, c) => n + c.turns.length, 0)).toBe(5882);
  });

  it('skips a session whose date is missing, keeps the others, and the strict helper refuses it', () => {
    const sample = {
      sample_id: 'x-1',
      conversation: {
        speaker_a: 'Ann',
        speaker_b: 'Bob',
        session_1_date_time: '9:00 am on 1 June, 2023',
        session_1: [{ speaker: 'Ann', dia_id: 'D1:1', text: 'Hi Bob' }],
        session_2: [{ speaker: 'Bob', dia_id: 'D2:1', text: 'Hi again' }],
      },
    };
    const r = split(locomoSampleToEvents(sample, { tz: 'UTC', label: 'x.json', index: 0 }));
    expect(r.conversations.map((c) => c.externalId)).toEqual(['x-1:session_1']);
    expect(r.skipped[0]!.reason).toBe('LoCoMo x-1:session_2 has no session_2_date_time; skipped.');
    let error: unknown;
    try {
      locomoSampleToConversations(sample, 'UTC');
    } catch (e) {
      error = e;
    }
    expect(isPieError(error, 'INVALID_DATA')).toBe(true);
  });
});

describe.skipIf(!HAS_SHARED_DATA)(`LongMemEval (skipped: ${NO_SHARED_DATA_REASON})`, () => {
  it('turns one oracle question into its evidence sessions with has_answer flags', async () => {
    const questions = await readJsonArray(ORACLE);
    const conversations = longmemevalQuestionToConversations(questions[0], 'UTC');
    expect(conversations).toHaveLength(1);
    const c = conversations[0]!;
    expect(c.source).toBe('longmemeval');
    expect(c.externalId).toBe('answer_530960c1');
    expect(c.title).toBe('session answer_530960c1');
    expect(c.createdAt).toBe(Date.parse('2023-05-21T19:50:00Z'));
    expect(c.meta).toEqual({ questionIds: ['001be529'] });
    expect(c.turns).toHaveLength(12);
    expect(c.turns[0]!.role).toBe('user');
    expect(c.turns[0]!.text.startsWith("I'm trying to find a permanent place to live.")).toBe(true);
    expect(c.turns.map((t) => t.meta?.hasAnswer)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('orders a LongMemEval_S haystack by date; filler turns carry no has_answer', async () => {
    const questions = await readJsonArray(S_DEV);
    const conversations = longmemevalQuestionToConversations(questions[0], 'UTC');
    expect(conversations).toHaveLength(47);
    const times = conversations.map((c) => c.createdAt);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBe(Date.parse('2023-08-11T15:58:00Z'));
    expect(times[46]).toBe(Date.parse('2023-12-20T11:37:00Z'));
    const filler = conversations.find((c) => !c.externalId.startsWith('answer_'))!;
    expect(filler.turns.every((t) => t.meta === undefined)).toBe(true);
  });

  it('streams the whole oracle file, yielding each shared session once with all its question ids', async () => {
    const r = await collect(importConversations({ path: ORACLE, format: 'auto', tz: 'UTC' }));
    expect(r.skipped).toEqual([]);
    expect(r.conversations).toHaveLength(940); // 948 haystack entries, 940 distinct session ids
    const ids = r.conversations.map((c) => c.externalId);
    expect(new Set(ids).size).toBe(940);
    const shared = r.conversations.find((c) => c.externalId === 'answer_7e9ad7b4_1')!;
    expect(shared.meta).toEqual({ questionIds: ['07741c44', '07741c45'] });
    expect(shared.createdAt).toBe(Date.parse('2023-08-11T01:11:00Z'));
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]!.message).toMatch(
      /^8 haystack session\(s\) appear under several questions with different dates \(e\.g\. answer_7e9ad7b4_1, /,
    );
  });
});

describe.skipIf(!HAS_SHARED_DATA)(`MemoryBank (skipped: ${NO_SHARED_DATA_REASON})`, () => {
  it('makes one conversation per user and day, at local noon', async () => {
    const r = await collect(importConversations({ path: MEMORYBANK, format: 'auto', tz: 'Asia/Shanghai' }));
    expect(r.conversations).toHaveLength(149);
    expect(r.skipped).toEqual([
      {
        ref: 'MemoryBank John Zhang:2023-05-05',
        reason: 'MemoryBank John Zhang:2023-05-05 has no user or assistant text; skipped.',
      },
    ]);
    const first = r.conversations[0]!;
    expect(first.source).toBe('memorybank');
    expect(first.externalId).toBe('Emily:2023-04-27');
    expect(first.title).toBe('Emily — 2023-04-27');
    expect(first.createdAt).toBe(Date.parse('2023-04-27T04:00:00Z'));
    expect(first.turns.slice(0, 2)).toEqual([
      { role: 'user', text: 'Hello, my name is Emily. Nice to meet you.', time: null, speaker: 'Emily' },
      { role: 'assistant', text: "Hello, Emily. I'm your AI companion. Can I assist you in any way?", time: null },
    ]);
    // Keys with stray spaces (" Jason ") are trimmed.
    expect(r.conversations.some((c) => c.externalId === 'Jason:2023-04-27')).toBe(true);
  });
});
