import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, FIXTURES, split } from '../../test/fixtures/import/helpers.js';
import { claudeConversationToEvents } from './claude.js';
import { importConversations } from './index.js';

const FILE = join(FIXTURES, 'claude', 'conversations.json');

describe('Claude export', () => {
  it('imports the good conversations and skips the malformed one', async () => {
    const r = await collect(importConversations({ path: FILE, format: 'auto', tz: 'UTC' }));
    expect(r.conversations.map((c) => c.externalId)).toEqual([
      'c1a1d2e3-0000-4000-8000-000000000001',
      'c1a1d2e3-0000-4000-8000-000000000002',
      'c1a1d2e3-0000-4000-8000-000000000004',
      'c1a1d2e3-0000-4000-8000-000000000005',
    ]);
    expect(r.skipped).toEqual([
      {
        ref: 'conversation "Broken conversation" (c1a1d2e3-0000-4000-8000-000000000003)',
        reason:
          'conversation "Broken conversation" (c1a1d2e3-0000-4000-8000-000000000003) has no chat_messages list; skipped.',
      },
    ]);
  });

  it('maps senders and ISO times, and drops blank messages', async () => {
    const r = await collect(importConversations({ path: FILE, format: 'claude', tz: 'UTC' }));
    const garden = r.conversations[0]!;
    expect(garden.source).toBe('claude');
    expect(garden.title).toBe('Planning the vegetable garden');
    expect(garden.createdAt).toBe(Date.parse('2024-03-15T09:30:00Z'));
    expect(garden.updatedAt).toBe(Date.parse('2024-03-15T09:42:10.512Z'));
    expect(garden.turns).toEqual([
      {
        role: 'user',
        text: 'I want to plant tomatoes and basil on my balcony in Berlin. When should I start?',
        time: Date.parse('2024-03-15T09:30:01Z'),
        externalId: 'm-1',
      },
      {
        role: 'assistant',
        text: 'Start tomato seeds indoors in mid-March; sow basil in April.',
        time: Date.parse('2024-03-15T09:30:20Z'),
        externalId: 'm-2',
      },
    ]);
    expect(r.dropped[0]).toEqual({ empty: 1 });
  });

  it('reads only text blocks, never the top-level text with the thinking glued on', async () => {
    const r = await collect(importConversations({ path: FILE, format: 'auto', tz: 'UTC' }));
    const db = r.conversations[1]!;
    expect(db.turns[1]!.text).toBe(
      'SQLite: it is one file, needs no server, and has FTS5 for search.\n\nPostgres only pays off with many writers.',
    );
    expect(db.turns[1]!.text).not.toContain('Let me check');
    expect(r.dropped[1]).toEqual({ thinking: 1, tool_use: 1, tool_result: 1 });
  });

  it('keeps attachment text, names attachment-only messages, and nulls an impossible message time', async () => {
    const r = await collect(importConversations({ path: FILE, format: 'auto', tz: 'UTC' }));
    const cv = r.conversations[2]!;
    expect(cv.turns.map((t) => [t.role, t.text, t.time])).toEqual([
      ['user', '[attached: cv.pdf]', Date.parse('2024-05-10T08:00:00Z')],
      ['user', 'Please make it shorter.', Date.parse('2024-05-10T08:01:00Z')],
      ['assistant', 'Here is a shorter version.', null],
    ]);
    expect(cv.turns[0]!.attachments).toEqual([
      { name: 'cv.pdf', text: 'Jane Doe\nSoftware engineer, 8 years of TypeScript.' },
    ]);
    expect(cv.turns[1]!.attachments).toEqual([{ name: 'cover-letter.txt', text: 'Dear hiring manager, ...' }]);
    expect(r.dropped[2]).toEqual({ file: 1, attachment_without_text: 1 });
    expect(r.warnings).toEqual([
      {
        ref: 'conversation "Review my CV" (c1a1d2e3-0000-4000-8000-000000000004)',
        message:
          'conversation "Review my CV" (c1a1d2e3-0000-4000-8000-000000000004) has 1 impossible timestamp(s) (before 1990 or after 2100): message m-22 (1970-01-01T00:00:00.000Z); they were ignored.',
      },
    ]);
  });

  it('falls back to the top-level text for old exports without content[] and titles unnamed chats', async () => {
    const r = await collect(importConversations({ path: FILE, format: 'auto', tz: 'UTC' }));
    const egg = r.conversations[3]!;
    expect(egg.title).toBe('How do I boil an egg so the yolk stays soft?');
    expect(egg.turns.map((t) => t.text)).toEqual([
      'How do I boil an egg so the yolk stays soft?',
      'Boil it for six and a half minutes, then cool it in ice water.',
    ]);
  });

  it('skips a conversation with no plausible time at all', () => {
    const r = split(
      claudeConversationToEvents(
        {
          uuid: 'u-1',
          name: 'Lost in time',
          created_at: 'not a date',
          chat_messages: [{ uuid: 'm', sender: 'human', text: 'hello', created_at: '1900-01-01T00:00:00Z' }],
        },
        { tz: 'UTC', label: 'x.json', index: 0 },
      ),
    );
    expect(r.conversations).toEqual([]);
    expect(r.skipped[0]!.reason).toBe(
      'conversation "Lost in time" (u-1) has no plausible time (created_at, updated_at and message times are missing or impossible); skipped.',
    );
  });
});
