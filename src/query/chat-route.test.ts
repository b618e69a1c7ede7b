import { describe, expect, it } from 'vitest';
import { isSmallTalk, routeMessage } from './chat-route.js';

describe('routeMessage', () => {
  it.each([
    ['How has Tidepool changed?', 'question'],
    ['what did I decide about the database', 'question'],
    ['When did I start running', 'question'],
    ['Tell me about Maya', 'question'],
    ['summarize last spring', 'question'],
    ['I started learning Rust today.', 'statement'],
    ['Maya moved to Berlin', 'statement'],
    ['Today I decided to use Postgres for Tidepool', 'statement'],
    ['Whatever happens, I keep running.', 'statement'],
    ['  Is the launch still on?  ', 'question'],
  ] as const)('%s → %s', (text, route) => {
    expect(routeMessage(text)).toBe(route);
  });
});

describe('isSmallTalk', () => {
  it.each(['hi', 'Hello!', 'hey there', 'thanks!', 'Thank you so much.', 'ok', 'good morning', 'bye :)'])(
    '%s is small talk',
    (text) => expect(isSmallTalk(text)).toBe(true),
  );
  it.each(['hi, I moved to Berlin', 'Thanks to Maya we shipped', 'ok so Tidepool pivoted', 'What is Tidepool?'])(
    '%s is not',
    (text) => expect(isSmallTalk(text)).toBe(false),
  );
});
