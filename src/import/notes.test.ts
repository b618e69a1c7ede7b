import { cp, mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, FIXTURES, split, tempDir } from '../../test/fixtures/import/helpers.js';
import { splitFrontMatter } from './front-matter.js';
import { importConversations, planImport } from './index.js';
import { noteToEvents } from './notes.js';

const MTIME = new Date('2024-07-01T12:00:00Z');

/** A copy of the notes fixture with every file's modification time set to MTIME. */
async function notesCopy(): Promise<string> {
  const dir = join(await tempDir(), 'notes');
  await cp(join(FIXTURES, 'notes'), dir, { recursive: true });
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), MTIME, MTIME);
  }
  return dir;
}

describe('markdown / text notes', () => {
  it('imports a folder recursively, one episode per note, skipping hidden folders and other files', async () => {
    const dir = await notesCopy();
    expect(await planImport({ path: dir, format: 'auto' })).toEqual({ format: 'markdown', label: dir });
    const r = await collect(importConversations({ path: dir, format: 'auto', tz: 'Europe/Berlin' }));
    expect(r.conversations.map((c) => [c.externalId, c.title, new Date(c.createdAt).toISOString()])).toEqual([
      ['2024/garden.md', 'Garden plan', '2024-03-09T23:00:00.000Z'],
      ['bad-date.md', 'bad-date', MTIME.toISOString()],
      ['broken-front-matter.md', 'broken-front-matter', MTIME.toISOString()],
      ['ideas.markdown', 'Ideas for PIE', MTIME.toISOString()],
      ['projects/meeting.md', 'Weekly sync', '2024-06-03T14:30:00.000Z'],
      ['projects/todo.txt', 'todo', MTIME.toISOString()],
    ]);
    expect(r.skipped).toEqual([{ ref: 'note empty.md', reason: 'note empty.md is empty; skipped.' }]);
    expect(r.warnings.map((w) => w.ref)).toEqual(['note bad-date.md', 'note broken-front-matter.md']);
    expect(r.warnings[0]!.message).toBe(
      'note bad-date.md: its front matter date "next tuesday" is not a date PIE can use (write YYYY-MM-DD); the file\'s modification time was used.',
    );
    expect(r.warnings[1]!.message).toMatch(
      /^note broken-front-matter\.md: its front matter could not be read \(.+\); the note was imported without it\.$/,
    );
  });

  it('names the chat exports and logs a folder holds instead of leaving them out unseen, but not other files', async () => {
    const dir = await notesCopy();
    await mkdir(join(dir, 'exports'));
    await writeFile(join(dir, 'exports', 'chatgpt-export.json'), '[]');
    await writeFile(join(dir, 'log.jsonl'), '{}\n');
    await writeFile(join(dir, 'photo.png'), Buffer.from([0x89, 0x50]));
    const r = await collect(importConversations({ path: dir, format: 'auto', tz: 'UTC' }));
    expect(r.conversations).toHaveLength(6);
    expect(r.skipped.map((s) => s.ref)).toEqual([
      'note empty.md',
      'file exports/chatgpt-export.json',
      'file log.jsonl',
    ]);
    expect(r.skipped[1]!.reason).toBe(
      'file exports/chatgpt-export.json is not a note (a folder import reads .md, .markdown and .txt); ingest it by its own path if it is an export or chat log.',
    );
  });

  it('makes the whole body one user turn and keeps tags', async () => {
    const dir = await notesCopy();
    const r = await collect(importConversations({ path: dir, format: 'markdown', tz: 'Europe/Berlin' }));
    const garden = r.conversations[0]!;
    expect(garden.source).toBe('markdown');
    expect(garden.turns).toEqual([
      { role: 'user', text: '# Ignored heading\n\nSow tomatoes indoors this week. Basil in April.', time: null },
    ]);
    expect(garden.meta).toEqual({ path: '2024/garden.md', tags: ['garden', 'spring'] });
    expect(garden.updatedAt).toBe(MTIME.getTime());
    expect(r.conversations[2]!.turns[0]!.text).toBe('The body survives a broken header.');
  });

  it('imports a single note file with its file name as id', async () => {
    const dir = await notesCopy();
    const path = join(dir, 'projects', 'todo.txt');
    const r = await collect(importConversations({ path, format: 'auto', tz: 'UTC' }));
    expect(r.conversations.map((c) => [c.externalId, c.turns[0]!.text])).toEqual([
      ['todo.txt', 'Call the landlord about the heating.'],
    ]);
  });

  it('skips a note without a date whose modification time is implausible', () => {
    const r = split(noteToEvents({ id: 'old.md', text: 'Hello', mtimeMs: 0, tz: 'UTC' }));
    expect(r.skipped[0]!.reason).toBe(
      'note old.md has no date in its front matter and its modification time (1970-01-01T00:00:00.000Z) is not plausible; add "date: YYYY-MM-DD" to its front matter.',
    );
  });

  it.each([
    ['no front matter', 'just text', {}, 'just text'],
    ['a mapping', '---\ntitle: T\ndate: 2024-01-02\n---\nbody', { title: 'T', date: '2024-01-02' }, 'body'],
    ['CRLF line ends', '---\r\ntitle: T\r\n---\r\nbody', { title: 'T' }, 'body'],
    ['an unclosed block', '---\ntitle: T\nbody', {}, '---\ntitle: T\nbody'],
    ['an empty block', '---\n---\nbody', {}, 'body'],
  ])('splits front matter: %s', (_name, text, data, body) => {
    const m = splitFrontMatter(text);
    expect(m.data).toEqual(data);
    expect(m.body).toBe(body);
    expect(m.error).toBeUndefined();
  });
});
