import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, HAS_SHARED_DATA, NO_SHARED_DATA_REASON, SHARED_DATA } from '../../test/fixtures/import/helpers.js';
import { sniff, SNIFF_BYTES, type Sniff } from './detect.js';

async function sniffFile(path: string): Promise<Sniff> {
  const bytes = await readFile(path);
  return sniff({ head: bytes.subarray(0, SNIFF_BYTES), name: path.slice(path.lastIndexOf('/') + 1) });
}

const text = (s: string, name = 'input.json'): Sniff => sniff({ head: Buffer.from(s, 'utf8'), name });

describe.skipIf(!HAS_SHARED_DATA)(`format detection on real files (skipped: ${NO_SHARED_DATA_REASON})`, () => {
  it.each([
    ['chatgpt-export/chatgpt-tree.json', 'chatgpt'],
    ['chatgpt-export/chatgpt-export.json', 'chatgpt'], // current_node lies beyond the first 64 KB here
    ['chatgpt-export/chatgpt-citations.json', 'chatgpt'],
    ['locomo/locomo10.json', 'locomo'], // sample_id comes last in each sample; the qa keys come first
    ['longmemeval/longmemeval_oracle.json', 'longmemeval'],
    ['longmemeval/longmemeval_s_dev30.json', 'longmemeval'],
    ['memorybank/memory_bank_en.json', 'memorybank'],
    ['test-of-time/tot_arithmetic_test.json', null],
  ])('%s -> %s', async (file, expected) => {
    expect((await sniffFile(join(SHARED_DATA, file))).byContent).toBe(expected);
  });
});

describe('format detection', () => {
  it('recognizes the fixtures written for these tests', async () => {
    expect((await sniffFile(join(FIXTURES, 'claude', 'conversations.json'))).byContent).toBe('claude');
    expect((await sniffFile(join(FIXTURES, 'chatgpt', 'broken-trees.json'))).byContent).toBe('chatgpt');
    const jsonl = await sniffFile(join(FIXTURES, 'jsonl', 'messages.jsonl'));
    expect([jsonl.byName, jsonl.byContent]).toEqual(['jsonl', 'jsonl']);
    expect((await sniffFile(join(FIXTURES, 'notes', 'ideas.markdown'))).byName).toBe('markdown');
  });

  it.each([
    ['a single ChatGPT conversation object', '{"title":"x","mapping":{"a":{"message":{"author":{}}}}}', 'chatgpt'],
    ['a single Claude conversation', '{"uuid":"u","name":"n","chat_messages":[]}', 'claude'],
    ['a LongMemEval question', '[{"question_id":"q","haystack_dates":[]}]', 'longmemeval'],
    ['a LoCoMo sample', '[{"qa":[{"question":"q","evidence":["D1:1"],"category":2}]}]', 'locomo'],
    ['MemoryBank', '{"Ann":{"name":"Ann","history":{"2023-04-27":[{"query":"q"}]}}}', 'memorybank'],
    ['MemoryBank-like keys inside an array', '[{"history":{"2023-04-27":[]}}]', null],
    ['an unknown JSON object', '{"foo": 1}', null],
    ['keys that only appear inside a string', '[{"text":"\\"mapping\\": {}, \\"author\\": 1"}]', null],
    ['the earliest signature winning', '[{"chat_messages":[{"text":"\\n"}],"x":{"mapping":{},"author":1}}]', 'claude'],
  ])('content: %s', (_name, content, expected) => {
    expect(text(content).byContent).toBe(expected);
  });

  it('detects JSON Lines only when two object lines follow each other', () => {
    expect(text('{"role":"user","text":"a"}\n{"role":"assistant","text":"b"}\n').jsonLines).toBe(true);
    expect(text('{"role":"user","text":"a"}\n').jsonLines).toBe(false);
    expect(text('{\n  "role": "user"\n}\n').jsonLines).toBe(false);
  });

  it('reads names, byte-order marks, emptiness and the JSON shape', () => {
    expect(text('x', 'notes.MD').byName).toBe('markdown');
    expect(text('x', 'log.ndjson').byName).toBe('jsonl');
    expect(text('\uFEFF  [1]').json).toBe('array');
    expect(text(' \n').empty).toBe(true);
    expect(text('<html>').json).toBeNull();
  });
});
