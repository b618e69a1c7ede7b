import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  collect,
  FIXTURES,
  HAS_SHARED_DATA,
  NO_SHARED_DATA_REASON,
  SHARED_DATA,
} from '../../test/fixtures/import/helpers.js';
import { importConversations } from './index.js';

const EXPORT_DIR = join(SHARED_DATA, 'chatgpt-export');
const run = (path: string) => collect(importConversations({ path, format: 'auto', tz: 'UTC' }));

describe.skipIf(!HAS_SHARED_DATA)(`ChatGPT export, real fixtures (skipped: ${NO_SHARED_DATA_REASON})`, () => {
  it('follows current_node up the branching tree: the "hi again" edit and the second joke regeneration', async () => {
    const r = await run(join(EXPORT_DIR, 'chatgpt-tree.json'));
    expect(r.skipped).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.conversations).toHaveLength(1);
    const c = r.conversations[0]!;
    expect(c.source).toBe('chatgpt');
    expect(c.externalId).toBe('d5dc5307-6807-41a0-8b04-4acee626eeb7');
    expect(c.title).toBe('Assist user with summary');
    expect(c.model).toBe('text-davinci-002-render-sha');
    expect(c.createdAt).toBe(Math.round(1714585031.148505 * 1000));
    expect(c.updatedAt).toBe(Math.round(1714585060.879308 * 1000));
    expect(c.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'hi there'],
      ['assistant', 'Hello! How can I assist you today?'],
      ['user', 'hi again'],
      ['assistant', "Hey! Welcome back. What's on your mind?"],
      ['user', 'tell me a joke'],
      [
        'assistant',
        "Sure, here's one for you:\n\nWhy don't scientists trust atoms?\n\nBecause they make up everything!",
      ],
    ]);
    // The last answer is the regeneration (current_node), not the first attempt d0d2a7df-…
    expect(c.turns.map((t) => t.externalId)).toEqual([
      'aaa297ba-e2da-440e-84f4-e62e7be8b003',
      'bda8a275-886d-4f59-b38c-d7037144f0d5',
      'aaa236a3-cdfc-4eb1-b5c5-790c6641f880',
      'db88eddf-3622-4246-8527-b6eaf0e9e8cd',
      'aaa20127-b9e3-44f6-afbe-a2475838625a',
      'f63b8e17-aa5c-4ca6-a1bf-d4d285e269b8',
    ]);
    expect(c.turns[0]!.time).toBe(Math.round(1714585031.150442 * 1000));
    expect(c.turns[5]!.time).toBe(Math.round(1714585060.598792 * 1000));
    expect(r.dropped[0]).toEqual({ null_message: 1, hidden: 1 });
  });

  it('drops code, browsing, quotes and the hidden system message, and counts them', async () => {
    const r = await run(join(EXPORT_DIR, 'chatgpt-export.json'));
    expect(r.skipped).toEqual([]);
    expect(r.conversations.map((c) => c.title)).toEqual(['Conversation 1. Web Search', 'Conversation 2']);
    const [web, code] = r.conversations;
    expect(web!.turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(web!.turns[0]!.text).toBe('What is the fuel consumption of vw  transporter with 8 people in l/km');
    expect(web!.turns[4]!.text).toBe('Is it for fully loaded    car?');
    // Citation markers (【6†source】) are removed from answers.
    expect(web!.turns[1]!.text.endsWith('maintenance of the vehicle.')).toBe(true);
    expect(web!.turns.some((t) => t.text.includes('†'))).toBe(false);
    expect(r.dropped[0]).toEqual({ null_message: 1, hidden: 1, code: 4, tether_browsing_display: 2, tether_quote: 3 });
    expect(code!.externalId).toBe('7c5ab593-dbab-43bd-862d-2c3c1eeebf6a');
    expect(code!.turns.map((t) => t.text.slice(0, 18))).toEqual([
      'In programming how',
      'To find the point ',
      'give me code in C#',
      "Certainly! Here's ",
    ]);
    expect(r.dropped[1]).toEqual({ null_message: 1, hidden: 1 });
    expect(code!.model).toBeNull();
  });

  it('recovers the citations fragment (unknown current_node, missing parent) with warnings', async () => {
    const r = await run(join(EXPORT_DIR, 'chatgpt-citations.json'));
    expect(r.skipped).toEqual([]);
    expect(r.conversations).toHaveLength(1);
    const c = r.conversations[0]!;
    expect(c.title).toBe('Citation Convo');
    expect(c.turns).toHaveLength(1);
    expect(c.turns[0]!.role).toBe('assistant');
    expect(c.turns[0]!.text).toMatch(/^Signal Sciences is a web application security company/);
    expect(c.turns[0]!.text).toContain('hybrid environments.\n\nIn a major development');
    expect(c.turns[0]!.text).not.toContain('【');
    expect(r.dropped[0]).toEqual({ tether_browsing_display: 1 });
    expect(r.warnings.map((w) => w.message)).toEqual([
      'conversation "Citation Convo" (d6523d1e-7ec3-474f-a363-0e9dffdb3d93): its current_node 88a0cf9f-e860-4b34-8e7e-65f8346f4862 is not in the message tree; the most recent branch (ending at node 4b3aec6b-5146-4bad-ae8e-204fdb6accda) was imported instead.',
      'conversation "Citation Convo" (d6523d1e-7ec3-474f-a363-0e9dffdb3d93): node 9e874379-5008-4a2d-aa2e-628d1d705a04 points to a parent 5cc5e87b-2b74-485a-b3a7-23cb25f202db that is not in the export; the messages before it are missing and were not imported.',
    ]);
  });
});

describe('ChatGPT export, broken trees', () => {
  it('imports the good conversations and skips or repairs each broken one with a reason', async () => {
    const r = await run(join(FIXTURES, 'chatgpt', 'broken-trees.json'));
    expect(r.conversations.map((c) => c.externalId)).toEqual(['good-1', 'orphan-1', 'nocurrent-1', 'absurd-1']);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'conversation "Loop" (cycle-1) has a cycle in its message tree at node x3; skipped.',
      'conversation "Ambiguous branches" (ambiguous-1) cannot be linearized: its current_node does-not-exist is not in the message tree and it has 2 branches and none is clearly the latest; skipped.',
      'conversation "No time at all" (timeless-1) has no plausible time (create_time, update_time and message times are missing or impossible); skipped.',
      'conversation "Only system" (system-only-1) has no user or assistant text (dropped: 1 null_message, 1 system); skipped.',
      'item 9 of ' + join(FIXTURES, 'chatgpt', 'broken-trees.json') + ' is not a conversation object; skipped.',
    ]);
    const byId = new Map(r.conversations.map((c) => [c.externalId, c]));
    expect(byId.get('good-1')!.turns.map((t) => [t.role, t.text, t.time])).toEqual([
      ['user', 'What is a cycle?', 1714000001000],
      ['assistant', 'A path that returns to its start.', 1714000002500],
    ]);
    expect(byId.get('good-1')!.model).toBe('gpt-4o');
  });

  it('keeps the part of a branch below a missing parent, with a warning', async () => {
    const r = await run(join(FIXTURES, 'chatgpt', 'broken-trees.json'));
    const orphan = r.conversations.find((c) => c.externalId === 'orphan-1')!;
    expect(orphan.turns.map((t) => t.text)).toEqual([
      'Second question after a lost first one',
      'Answer to the second question',
    ]);
    expect(r.warnings.find((w) => w.ref.includes('orphan-1'))!.message).toBe(
      'conversation "Orphan branch" (orphan-1): node p2 points to a parent p1-gone that is not in the export; the messages before it are missing and were not imported.',
    );
  });

  it('falls back to the newest branch when current_node is missing and the newest leaf is unambiguous', async () => {
    const r = await run(join(FIXTURES, 'chatgpt', 'broken-trees.json'));
    const c = r.conversations.find((x) => x.externalId === 'nocurrent-1')!;
    expect(c.turns.map((t) => t.text)).toEqual(['Tell me a fact', 'New answer']);
    expect(r.warnings.find((w) => w.ref.includes('nocurrent-1'))!.message).toBe(
      'conversation "No current node" (nocurrent-1): it has no current_node; the most recent branch (ending at node new) was imported instead.',
    );
  });

  it('replaces absurd times by null (or a fallback) and warns once per conversation', async () => {
    const r = await run(join(FIXTURES, 'chatgpt', 'broken-trees.json'));
    const c = r.conversations.find((x) => x.externalId === 'absurd-1')!;
    expect(c.turns.map((t) => t.time)).toEqual([null, 1714000061000]);
    // create_time -5 is impossible: the earliest plausible message time is used instead.
    expect(c.createdAt).toBe(1714000061000);
    expect(c.updatedAt).toBe(1714000099000);
    const warning = r.warnings.find((w) => w.ref.includes('absurd-1'))!;
    expect(warning.message).toBe(
      'conversation "Absurd times" (absurd-1) has 2 impossible timestamp(s) (before 1990 or after 2100): message m1 (+033658-09-27T01:46:40.000Z), create_time (1969-12-31T23:59:55.000Z); they were ignored.',
    );
  });

  it('skips an element that is not valid JSON and imports the ones around it', async () => {
    const path = join(FIXTURES, 'chatgpt', 'invalid-element.json');
    const r = await run(path);
    expect(r.conversations.map((c) => c.externalId)).toEqual(['good-1', 'good-2']);
    expect(r.skipped).toHaveLength(1);
    expect(r.skipped[0]!.ref).toBe(`item 2 of ${path}`);
    expect(r.skipped[0]!.reason).toMatch(/^item 2 of .*invalid-element\.json is not valid JSON \(.+\); skipped\.$/);
  });

  it('keeps string parts and voice transcripts, drops images, thoughts and tool calls, and titles untitled chats', async () => {
    const r = await run(join(FIXTURES, 'chatgpt', 'multimodal.json'));
    const c = r.conversations[0]!;
    expect(c.title).toBe('What plant is this?');
    expect(c.turns.map((t) => [t.role, t.text])).toEqual([
      ['user', 'What plant is this?'],
      ['assistant', 'It looks like mint , see .'],
      ['user', 'Thanks, I will water it.'],
    ]);
    expect(r.dropped[0]).toEqual({
      null_message: 1,
      image: 2,
      thoughts: 1,
      reasoning_recap: 1,
      tool_call: 1,
      audio_asset_pointer: 1,
    });
  });
});
