import { describe, expect, it } from 'vitest';
import type { Conversation } from '../domain/conversation.js';
import { conversationHash } from './content-hash.js';

const base: Conversation = {
  source: 'chatgpt',
  externalId: 'c1',
  title: 'Plans',
  createdAt: 1,
  updatedAt: 2,
  model: 'gpt-4o',
  turns: [
    { role: 'user', text: 'hi', time: 1 },
    { role: 'assistant', text: 'hello', time: 2 },
  ],
};

describe('conversationHash', () => {
  it('ignores updatedAt (exports bump it without changing content)', () => {
    expect(conversationHash({ ...base, updatedAt: 99 })).toBe(conversationHash(base));
  });

  it.each<[string, Partial<Conversation>]>([
    ['a new message', { turns: [...base.turns, { role: 'user', text: 'more', time: 3 }] }],
    ['an edited message', { turns: [{ role: 'user', text: 'hi!', time: 1 }, base.turns[1]!] }],
    ['a new title', { title: 'Plans v2' }],
  ])('changes with %s', (_label, change) => {
    expect(conversationHash({ ...base, ...change })).not.toBe(conversationHash(base));
  });

  it('does not confuse turn boundaries', () => {
    const split: Conversation = { ...base, turns: [{ role: 'user', text: 'ab', time: null }] };
    const joined: Conversation = {
      ...base,
      turns: [
        { role: 'user', text: 'a', time: null },
        { role: 'user', text: 'b', time: null },
      ],
    };
    expect(conversationHash(split)).not.toBe(conversationHash(joined));
  });
});
