import { describe, expect, it } from 'vitest';
import { isPieError } from '../domain/errors.js';
import { streamJsonItems, type JsonItem } from './json-stream.js';

async function* chunksOf(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}

async function collect(
  bytes: Uint8Array,
  opts: { cuts?: number[]; objectMode?: 'entries' | 'single' } = {},
): Promise<JsonItem[]> {
  const items: JsonItem[] = [];
  const stream = streamJsonItems({
    chunks: chunksOf(bytes, opts.cuts ?? []),
    label: '/data/test.json',
    objectMode: opts.objectMode ?? 'single',
  });
  for await (const item of stream) items.push(item);
  return items;
}

async function failure(bytes: Uint8Array, cuts: number[] = []): Promise<Error> {
  try {
    await collect(bytes, { cuts });
  } catch (error) {
    if (error instanceof Error) return error;
  }
  throw new Error('expected the stream to fail');
}

const values = (items: JsonItem[]): unknown[] => items.map((i) => (i.kind === 'item' ? i.value : i.reason));

const AWKWARD = [
  { text: 'plain', n: 1.5e3, t: true, f: false, z: null },
  { q: 'say "hi" \\ and \\"more\\" \\\\', slash: '\\', nested: { a: [1, [2, [3]], { b: '}]' }] } },
  { unicode: 'héllo wörld — 日本語 😀🎉', escaped: '\u00e9\ud83d\ude00', ctrl: 'line\nbreak\ttab' },
  'a bare string with ] and } and , inside',
  42,
  -0.5e-3,
  null,
  [],
  {},
  [[], [{}], '[', '{'],
];

describe('streamJsonItems', () => {
  const doc = Buffer.from(JSON.stringify(AWKWARD, null, 1), 'utf8');

  it('yields every element of a top-level array', async () => {
    expect(values(await collect(doc))).toEqual(AWKWARD);
  });

  it('gives the same result for a chunk boundary at every byte position', async () => {
    for (let cut = 1; cut < doc.length; cut++) {
      const items = await collect(doc, { cuts: [cut] });
      expect(values(items), `cut at ${cut}`).toEqual(AWKWARD);
    }
  });

  it('gives the same result with one-byte and two-byte chunks (every escape and UTF-8 sequence split)', async () => {
    const ones = Array.from({ length: doc.length - 1 }, (_, i) => i + 1);
    expect(values(await collect(doc, { cuts: ones }))).toEqual(AWKWARD);
    const twos = ones.filter((i) => i % 2 === 1);
    expect(values(await collect(doc, { cuts: twos }))).toEqual(AWKWARD);
  });

  it('splits a backslash run across chunks correctly', async () => {
    const tricky = Buffer.from(JSON.stringify(['\\', '\\"', 'x\\\\"y', '"']), 'utf8');
    for (let a = 1; a < tricky.length; a++) {
      for (let b = a + 1; b < tricky.length; b++) {
        expect(values(await collect(tricky, { cuts: [a, b] }))).toEqual(['\\', '\\"', 'x\\\\"y', '"']);
      }
    }
  });

  it('numbers the items and skips a UTF-8 byte-order mark', async () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[1, 2]')]);
    expect(await collect(withBom, { cuts: [1] })).toEqual([
      { kind: 'item', index: 0, key: null, value: 1 },
      { kind: 'item', index: 1, key: null, value: 2 },
    ]);
  });

  it('yields a top-level object as one item in single mode', async () => {
    const obj = { title: 'one conversation', mapping: { a: { children: [] } } };
    const bytes = Buffer.from(JSON.stringify(obj));
    expect(await collect(bytes, { cuts: [7] })).toEqual([{ kind: 'item', index: 0, key: null, value: obj }]);
  });

  it('yields the entries of a top-level object in entries mode', async () => {
    const obj = { Emily: { history: { '2023-04-27': [] } }, ' Jason ': 3, 'k\\"ey': 'v', 'ü😀': [1] };
    const bytes = Buffer.from(JSON.stringify(obj, null, 2));
    for (let cut = 1; cut < bytes.length; cut += 3) {
      const items = await collect(bytes, { cuts: [cut], objectMode: 'entries' });
      expect(items.map((i) => (i.kind === 'item' ? [i.key, i.value] : null))).toEqual(Object.entries(obj));
    }
  });

  it('yields nothing for an empty array or object', async () => {
    expect(await collect(Buffer.from(' [ ] \n'))).toEqual([]);
    expect(await collect(Buffer.from('{}'), { objectMode: 'entries' })).toEqual([]);
  });

  it('reports an invalid element and keeps going when the framing is sound', async () => {
    const bytes = Buffer.from('[{"a": 1}, {"b": tru}, {"c": [1,]}, {"d": 4}]');
    const items = await collect(bytes, { cuts: [15] });
    expect(items.map((i) => i.kind)).toEqual(['item', 'invalid', 'invalid', 'item']);
    expect(items[3]).toEqual({ kind: 'item', index: 3, key: null, value: { d: 4 } });
    const bad = items[1];
    expect(bad?.kind === 'invalid' && bad.reason).toMatch(/^not valid JSON/);
  });

  it('reports an invalid entry value with its key', async () => {
    const items = await collect(Buffer.from('{"a": 1, "b": nope, "c": 3}'), { objectMode: 'entries' });
    expect(items[1]).toMatchObject({ kind: 'invalid', index: 1, key: 'b' });
    expect(items[2]).toEqual({ kind: 'item', index: 2, key: 'c', value: 3 });
  });

  it('throws UNREADABLE_INPUT for a truncated document at every cut point', async () => {
    const full = Buffer.from(JSON.stringify([{ a: 'x"y', b: [1, 2] }, 'é']));
    for (let len = 1; len < full.length; len++) {
      const error = await failure(full.subarray(0, len));
      expect(isPieError(error, 'UNREADABLE_INPUT'), `length ${len}`).toBe(true);
      expect(error.message).toBe(
        '"/data/test.json" ends in the middle of a JSON value (truncated download?); download the export again.',
      );
    }
  });

  it('throws UNREADABLE_INPUT for an empty file', async () => {
    const error = await failure(Buffer.from('  \n'));
    expect(isPieError(error, 'UNREADABLE_INPUT')).toBe(true);
    expect(error.message).toMatch(/is empty/);
  });

  it.each([
    ['plain text', 'hello world'],
    ['a bare number', '42'],
    ['an HTML page', '<!DOCTYPE html><html></html>'],
    ['a missing comma', '[{"a":1} {"b":2}]'],
    ['a mismatched bracket', '[{"a":[1}]'],
    ['trailing garbage', '[1, 2] [3]'],
    ['a leading comma', '[,1]'],
  ])('throws UNREADABLE_INPUT for %s', async (_name, text) => {
    const error = await failure(Buffer.from(text));
    expect(isPieError(error, 'UNREADABLE_INPUT')).toBe(true);
    expect(error.message).toMatch(/^"\/data\/test\.json" /);
  });
});
