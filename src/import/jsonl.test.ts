import { copyFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, FIXTURES, tempDir } from '../../test/fixtures/import/helpers.js';
import { importConversations } from './index.js';
import { readLines } from './lines.js';

const MESSAGES = join(FIXTURES, 'jsonl', 'messages.jsonl');
const CONVERSATIONS = join(FIXTURES, 'jsonl', 'conversations.jsonl');

describe('JSON Lines: one message per line', () => {
  it('groups messages by conversation id (not necessarily consecutive) in order of first appearance', async () => {
    const r = await collect(importConversations({ path: MESSAGES, format: 'auto', tz: 'Europe/Berlin' }));
    expect(r.conversations.map((c) => [c.externalId, c.title])).toEqual([
      ['trip', 'Lisbon trip'],
      ['cooking', 'How long do I rest a steak?'],
      ['7', 'Note to self: renew passport.'],
      ['messages', 'A line without a conversation id.'],
    ]);
    const [trip, cooking, seven, loose] = r.conversations;
    expect(trip!.source).toBe('jsonl');
    expect(trip!.turns).toEqual([
      { role: 'user', text: 'Book me a hotel in Lisbon for May 3.', time: Date.parse('2024-04-20T10:00:00Z') },
      { role: 'assistant', text: 'Booked: Casa do Largo, May 3 to May 6.', time: Date.parse('2024-04-20T10:00:30Z') },
    ]);
    expect(trip!.createdAt).toBe(Date.parse('2024-04-20T10:00:00Z'));
    expect(trip!.updatedAt).toBe(Date.parse('2024-04-20T10:00:30Z'));
    // Unix seconds and unix milliseconds; "human"/"ai" roles; OpenAI-style content parts.
    expect(cooking!.turns).toEqual([
      { role: 'user', text: 'How long do I rest a steak?', time: 1713607200000 },
      { role: 'assistant', text: 'Five minutes,\nloosely covered.', time: 1713607230000 },
    ]);
    // A local time without a zone is read in tz (Europe/Berlin is UTC+2 in April).
    expect(seven!.turns).toEqual([
      { role: 'user', text: 'Note to self: renew passport.', time: Date.parse('2024-04-21T07:15:00Z'), speaker: 'Ana' },
    ]);
    expect(loose!.turns[0]!.time).toBe(Date.parse('2024-04-22T06:00:00Z'));
    expect(r.dropped).toEqual([{ empty: 1 }, { system: 1 }, {}, {}]);
  });

  it('skips bad lines with their line numbers and keeps the rest', async () => {
    const r = await collect(importConversations({ path: MESSAGES, format: 'jsonl', tz: 'UTC' }));
    expect(r.skipped.map((s) => s.ref)).toEqual(['line 4', 'line 8', 'line 9']);
    expect(r.skipped[0]!.reason).toMatch(/^line 4: not valid JSON \(.+\); skipped\.$/);
    expect(r.skipped[1]!.reason).toBe('line 8: not a JSON object; skipped.');
    expect(r.skipped[2]!.reason).toBe('line 9: has an unknown role "wizard" (use user or assistant); skipped.');
  });
});

describe('JSON Lines: one conversation per line', () => {
  it('imports conversation lines, falls back to the file time with a warning, and skips a bad one', async () => {
    const dir = await tempDir();
    const path = join(dir, 'conversations.jsonl');
    await copyFile(CONVERSATIONS, path);
    const mtime = new Date('2024-01-15T00:00:00Z');
    await utimes(path, mtime, mtime);
    const r = await collect(importConversations({ path, format: 'auto', tz: 'UTC' }));
    expect(r.conversations.map((c) => [c.externalId, c.title, c.createdAt])).toEqual([
      ['conv-a', 'Morning routine', Date.parse('2024-02-01T07:00:00Z')],
      ['conv-b', 'An undated thought about moving to Porto.', mtime.getTime()],
      ['conversations:line-3', 'No id', 1706770800000],
    ]);
    expect(r.conversations[0]!.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'I started running at 6am.'],
      ['assistant', 'Great habit!'],
    ]);
    expect(r.conversations[1]!.turns.map((t) => t.time)).toEqual([null, null]);
    expect(r.warnings).toEqual([
      {
        ref: 'conversation conv-b (line 2)',
        message:
          "conversation conv-b (line 2) has no times; the file's modification time (2024-01-15T00:00:00.000Z) was used.",
      },
    ]);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'line 4: message 1 has an unknown role "robot" (use user or assistant); skipped.',
    ]);
  });
});

describe('readLines', () => {
  it('splits LF and CRLF lines across chunk boundaries without breaking UTF-8', async () => {
    const bytes = Buffer.from('{"a":"é"}\r\n\n{"b":"😀"}\nlast', 'utf8');
    for (let cut = 1; cut < bytes.length; cut++) {
      async function* chunks(): AsyncGenerator<Buffer> {
        yield bytes.subarray(0, cut);
        yield bytes.subarray(cut);
      }
      const lines: string[] = [];
      for await (const line of readLines(chunks())) lines.push(`${line.number}:${line.text}`);
      expect(lines).toEqual(['1:{"a":"é"}', '2:', '3:{"b":"😀"}', '4:last']);
    }
  });

  it('is detected by content even without the .jsonl extension', async () => {
    const dir = await tempDir();
    const path = join(dir, 'chat.log');
    await writeFile(path, '{"role":"user","text":"hi","time":1714000000}\n{"role":"assistant","text":"hello"}\n');
    const r = await collect(importConversations({ path, format: 'auto', tz: 'UTC' }));
    expect(r.conversations.map((c) => [c.externalId, c.turns.length])).toEqual([['chat.log', 2]]);
  });
});
