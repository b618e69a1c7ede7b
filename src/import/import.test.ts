import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PieErrorCode } from '../domain/errors.js';
import { isPieError, PieError } from '../domain/errors.js';
import { collect, FIXTURES, tempDir, writeZip } from '../../test/fixtures/import/helpers.js';
import type { ImportFormat } from '../domain/conversation.js';
import { importConversations, planImport } from './index.js';
import type { ImportEvent } from './types.js';

const MULTIMODAL = join(FIXTURES, 'chatgpt', 'multimodal.json');
const BROKEN = join(FIXTURES, 'chatgpt', 'broken-trees.json');
const CLAUDE = join(FIXTURES, 'claude', 'conversations.json');

async function failure(promise: Promise<unknown>): Promise<PieError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PieError) return error;
    throw error;
  }
  throw new Error('expected a PieError');
}

async function plan(path: string, format: ImportFormat | 'auto' = 'auto'): Promise<PieError> {
  return failure(planImport({ path, format }));
}

function expectCode(error: PieError, code: PieErrorCode): void {
  expect(isPieError(error, code), `${error.code}: ${error.message}`).toBe(true);
}

async function drain(events: AsyncIterable<ImportEvent>): Promise<ImportEvent[]> {
  const out: ImportEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('export zips and folders', () => {
  it('finds conversations.json at any depth inside a ChatGPT export zip', async () => {
    const dir = await tempDir();
    const zip = join(dir, 'chatgpt-export.zip');
    await writeZip(zip, [
      { name: 'chat.html', data: '<html></html>' },
      { name: 'export/file-abc.png', data: Buffer.alloc(2048, 7) },
      { name: 'export/conversations.json', data: await readFile(MULTIMODAL) },
      { name: '__MACOSX/export/conversations.json', data: 'junk' },
    ]);
    expect(await planImport({ path: zip, format: 'auto' })).toEqual({
      format: 'chatgpt',
      label: `${zip}:export/conversations.json`,
    });
    const r = await collect(importConversations({ path: zip, format: 'auto', tz: 'UTC' }));
    expect(r.conversations.map((c) => [c.externalId, c.turns.length])).toEqual([['multimodal-1', 3]]);
  });

  it('reads a Claude export zip the same way', async () => {
    const dir = await tempDir();
    const zip = join(dir, 'data-2024-05-10.zip');
    await writeZip(zip, [
      { name: 'users.json', data: '[]' },
      { name: 'conversations.json', data: await readFile(CLAUDE) },
    ]);
    const r = await collect(importConversations({ path: zip, format: 'auto', tz: 'UTC' }));
    expect(r.conversations).toHaveLength(4);
    expect(r.skipped).toHaveLength(1);
  });

  it('uses conversations.json of an unzipped export folder', async () => {
    const dir = await tempDir();
    await copyFile(CLAUDE, join(dir, 'conversations.json'));
    await writeFile(join(dir, 'readme.md'), '# not a note to import');
    expect(await planImport({ path: dir, format: 'auto' })).toEqual({
      format: 'claude',
      label: join(dir, 'conversations.json'),
    });
  });

  it('streams a single conversation object (not wrapped in an array)', async () => {
    const dir = await tempDir();
    const path = join(dir, 'one.json');
    const [conversation] = JSON.parse(await readFile(MULTIMODAL, 'utf8')) as unknown[];
    await writeFile(path, JSON.stringify(conversation));
    const r = await collect(importConversations({ path, format: 'auto', tz: 'UTC' }));
    expect(r.conversations.map((c) => c.externalId)).toEqual(['multimodal-1']);
  });

  it('rejects a zip without conversations.json, a damaged zip and a fake .zip', async () => {
    const dir = await tempDir();
    const empty = join(dir, 'photos.zip');
    await writeZip(empty, [{ name: 'a.txt', data: 'hello' }]);
    const noConversations = await plan(empty);
    expectCode(noConversations, 'UNKNOWN_FORMAT');
    expect(noConversations.message).toBe(
      `"${empty}" contains no conversations.json; pass the ChatGPT or Claude export zip, or unzip it and pass the file you want to import.`,
    );

    const good = join(dir, 'good.zip');
    await writeZip(good, [{ name: 'conversations.json', data: await readFile(BROKEN) }]);
    const bytes = await readFile(good);
    const cut = join(dir, 'cut.zip');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const damaged = await plan(cut);
    expectCode(damaged, 'UNREADABLE_INPUT');
    expect(damaged.message).toMatch(/^".*cut\.zip" is not a readable zip file \(.+\); download the export again/);

    const fake = join(dir, 'fake.zip');
    await writeFile(fake, 'this is not a zip');
    expectCode(await plan(fake), 'UNREADABLE_INPUT');
  });

  it('fails mid-stream, after the complete conversations, when a zipped export is truncated', async () => {
    const dir = await tempDir();
    const json = await readFile(BROKEN, 'utf8');
    const zip = join(dir, 'export.zip');
    await writeZip(zip, [{ name: 'conversations.json', data: json.slice(0, Math.floor(json.length * 0.6)) }]);
    const events: ImportEvent[] = [];
    const error = await failure(
      (async () => {
        for await (const e of importConversations({ path: zip, format: 'auto', tz: 'UTC' })) events.push(e);
      })(),
    );
    expectCode(error, 'UNREADABLE_INPUT');
    expect(error.message).toBe(
      `"${zip}:conversations.json" ends in the middle of a JSON value (truncated download?); download the export again.`,
    );
    expect(events.some((e) => e.kind === 'conversation')).toBe(true);
  });
});

describe('unreadable and unknown inputs', () => {
  it('names a missing path', async () => {
    const error = await plan('/no/such/conversations.json');
    expectCode(error, 'FILE_NOT_FOUND');
    expect(error.message).toBe('"/no/such/conversations.json" does not exist; check the path.');
  });

  it('detects a truncated JSON export before importing anything', async () => {
    const dir = await tempDir();
    const path = join(dir, 'conversations.json');
    const json = await readFile(BROKEN, 'utf8');
    await writeFile(path, json.slice(0, 5000));
    const error = await plan(path);
    expectCode(error, 'UNREADABLE_INPUT');
    expect(error.message).toBe(
      `"${path}" ends in the middle of a JSON value (truncated download?); download the export again.`,
    );
    await expect(drain(importConversations({ path, format: 'auto', tz: 'UTC' }))).rejects.toThrow(/truncated/);
  });

  it('rejects a .json file that is not JSON, and an empty file', async () => {
    const dir = await tempDir();
    const html = join(dir, 'conversations.json');
    await writeFile(html, '<!DOCTYPE html><html><body>Session expired</body></html>');
    const error = await plan(html);
    expectCode(error, 'UNREADABLE_INPUT');
    expect(error.message).toBe(
      `"${html}" is not JSON (it starts with "<!DOCTYPE html><html"); download the export again.`,
    );

    const empty = join(dir, 'empty.json');
    await writeFile(empty, '');
    expect((await plan(empty)).message).toBe(`"${empty}" is empty; pass the export file that contains the data.`);
  });

  it('names the known formats and the --format flag for an unknown file', async () => {
    const dir = await tempDir();
    const path = join(dir, 'data.json');
    await writeFile(path, '{"settings": {"theme": "dark"}}');
    const error = await plan(path);
    expectCode(error, 'UNKNOWN_FORMAT');
    expect(error.message).toMatch(
      /^".*data\.json" is not in a format PIE recognizes; it reads ChatGPT and Claude exports/,
    );
    expect(error.message).toContain('--format');
    // Cut off before any field that tells the format: the cut, not the format, is what to fix.
    const cut = join(dir, 'cut.json');
    await writeFile(cut, '{"settings": {"theme":');
    const cutError = await plan(cut);
    expectCode(cutError, 'UNREADABLE_INPUT');
    expect(cutError.message).toBe(
      `"${cut}" ends in the middle of a JSON value (truncated download?); download the export again.`,
    );
    const binary = join(dir, 'photo.jpg');
    await writeFile(binary, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]));
    expectCode(await plan(binary), 'UNKNOWN_FORMAT');
  });

  it('refuses a forced format that does not match the file', async () => {
    const claudeAsChatgpt = await plan(CLAUDE, 'chatgpt');
    expectCode(claudeAsChatgpt, 'UNKNOWN_FORMAT');
    expect(claudeAsChatgpt.message).toBe(
      `"${CLAUDE}" looks like a Claude export, not a ChatGPT export; use --format claude or --format auto.`,
    );
    const note = join(FIXTURES, 'notes', 'ideas.markdown');
    expect((await plan(note, 'chatgpt')).message).toBe(
      `"${note}" looks like a markdown/text note, not a ChatGPT export; use --format markdown or --format auto.`,
    );
    expect((await plan(join(FIXTURES, 'notes'), 'claude')).message).toBe(
      `"${join(FIXTURES, 'notes')}" is a folder without conversations.json, not a Claude export; pass the export file (or .zip) itself, or --format markdown for a folder of notes.`,
    );
    expectCode(await plan(BROKEN, 'memorybank'), 'UNKNOWN_FORMAT');
    expectCode(await plan(BROKEN, 'jsonl'), 'UNKNOWN_FORMAT');
  });

  it('accepts a forced format the content does not contradict', async () => {
    expect(await planImport({ path: BROKEN, format: 'chatgpt' })).toEqual({ format: 'chatgpt', label: BROKEN });
  });

  it('rejects an empty folder and an unknown time zone', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'sub'));
    expectCode(await plan(dir), 'UNKNOWN_FORMAT');
    const error = await failure(drain(importConversations({ path: BROKEN, format: 'auto', tz: 'Mars/Olympus' })));
    expectCode(error, 'INVALID_ARGUMENT');
  });
});
