import { describe, expect, it } from 'vitest';
import { cleanUserText, episodeSentences, splitSentences } from './sentences.js';

describe('cleanUserText', () => {
  it.each([
    [
      'drops fenced code',
      'Can you review this?\n\n```ts\nconst x = 1;\n```\nThanks',
      ['Can you review this?', 'Thanks'],
    ],
    ['drops URLs and e-mail addresses', 'See https://example.com/x?a=1 or mail me@x.org now', ['See   or mail   now']],
    [
      'keeps short inline code, drops long',
      'I use `pnpm` and `npm run build --watch` daily',
      ['I use pnpm and   daily'],
    ],
    ['drops quoted lines', '> the assistant said this\nMy own words.', ['My own words.']],
    [
      'drops stack traces and code lines',
      'It fails:\nTraceback (most recent call last):\nconst a = foo(bar[1]);',
      ['It fails:'],
    ],
    ['drops very long pasted paragraphs', `Summarize this:\n\n${'word '.repeat(400)}`, ['Summarize this:']],
    [
      'drops the text after a request to work on it, in its paragraph and after',
      'Proofread this: Hi, my name is Jordan Blake and I am applying for the analyst role.\n\nI led a team of five.',
      ['Proofread this:'],
    ],
    [
      'keeps what the user said before the request',
      'I got an interview at Stripe!\n\nCan you please rewrite my cover letter to sound warmer:\n\nDear hiring team, I moved to Austin last year.',
      ['I got an interview at Stripe!', 'Can you please rewrite my cover letter to sound warmer:'],
    ],
    [
      "drops someone else's e-mail the user wants answered",
      'Write a polite reply to this email from my landlord:\nHi, we are raising the rent in May.',
      ['Write a polite reply to this email from my landlord:'],
    ],
    [
      'keeps a colon that asks for no work on a text',
      'Quick update: I moved to Denver and started at Acme.\n\nEdit: it was Boulder, not Denver.',
      ['Quick update: I moved to Denver and started at Acme.', 'Edit: it was Boulder, not Denver.'],
    ],
  ])('%s', (_name, input, expected) => {
    expect(cleanUserText(input)).toEqual(expected);
  });
});

describe('splitSentences', () => {
  it.each([
    ['on punctuation and capitals', 'We launched! TP is live. Great?', ['We launched!', 'TP is live.', 'Great?']],
    [
      'keeps titles and abbreviations',
      'I met Prof. Okafor and Dr. Lee vs. the rest.',
      ['I met Prof. Okafor and Dr. Lee vs. the rest.'],
    ],
    [
      'keeps version numbers and domains',
      'I use Node.js 20.1 on scifair.tech now.',
      ['I use Node.js 20.1 on scifair.tech now.'],
    ],
    ['splits lines', 'first line here\nsecond line here', ['first line here', 'second line here']],
    [
      'splits a question after a dash from the statement before it',
      'FYI, I finished another pottery project - want to see a pic?',
      ['FYI, I finished another pottery project', 'want to see a pic?'],
    ],
    [
      'keeps a dash inside a question, and a statement after a dash',
      'Is it the one - the blue one? I went home - it was late.',
      ['Is it the one - the blue one?', 'I went home - it was late.'],
    ],
  ])('%s', (_name, input, expected) => {
    expect(splitSentences(input)).toEqual(expected);
  });
});

describe('episodeSentences', () => {
  it('reads only user turns, with the speaker as self when there is one', () => {
    const sentences = episodeSentences(
      {
        id: 'e',
        title: 't',
        createdAt: 1000,
        model: null,
        turns: [
          { role: 'user', text: 'I moved to Boston.', time: 2000, speaker: 'Caroline' },
          { role: 'assistant', text: 'Nice, Boston is great.', time: 3000 },
          { role: 'user', text: 'Thanks!', time: null },
        ],
      },
      'User',
    );
    expect(sentences.map((s) => [s.text, s.self, s.time, s.turn])).toEqual([
      ['I moved to Boston.', 'Caroline', 2000, 0],
      ['Thanks!', 'User', 1000, 2],
    ]);
  });
});
