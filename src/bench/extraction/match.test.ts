import { describe, expect, it } from 'vitest';
import {
  covers,
  findEvent,
  findFact,
  isAbout,
  keyWords,
  textKeys,
  type Lemmatizer,
  type WorldRecord,
} from './match.js';

// A tiny lemmatizer for the tests (the bench uses compromise's).
const ROOTS: Record<string, string> = { took: 'take', takes: 'take', went: 'go', museums: 'museum', painted: 'paint' };
const lemmatize: Lemmatizer = (words) => words.map((w) => ROOTS[w] ?? w);

const DAY = 86_400_000;
const record = (partial: Partial<WorldRecord>): WorldRecord => ({
  kind: 'transition',
  episodeId: 'e1',
  time: Date.UTC(2023, 4, 7, 12),
  about: ['caroline'],
  text: '',
  ...partial,
});

describe('keyWords', () => {
  it.each([
    [
      'Melanie painted a lake sunrise last year which holds special meaning to her.',
      ['paint', 'lake', 'sunri', 'holds', 'speci', 'meani'],
    ],
    ['Caroline attended an LGBTQ support group recently.', ['atten', 'lgbtq', 'suppo', 'group']],
    ["Melanie's kids are excited about summer break.", ['kids', 'excit', 'summe', 'break']],
  ])('%s', (text, expected) => {
    expect(keyWords(text, ['Melanie', 'Caroline'], lemmatize)).toEqual(expected);
  });
});

describe('covers', () => {
  const keys = ['atten', 'lgbtq', 'suppo', 'group', 'trans'];
  it.each([
    ['I went to a LGBTQ support group yesterday', true],
    ['support group', true],
    ['LGBTQ pride parade', false],
    ['', false],
  ])('%s → %s (needs 40%% and at least two)', (text, expected) => {
    expect(covers(keys, textKeys(text, lemmatize))).toBe(expected);
  });
  it('one or two key words must all be there', () => {
    expect(covers(['coco'], textKeys('a puppy named Coco'))).toBe(true);
    expect(covers(['coco', 'puppy'], textKeys('a puppy'))).toBe(false);
  });
});

describe('isAbout', () => {
  it('is about a person when one of its entities is them or its text names them', () => {
    expect(isAbout(record({ about: ['caroline'] }), 'Caroline')).toBe(true);
    expect(isAbout(record({ about: ['melanie'], text: 'Caroline went hiking' }), 'Caroline')).toBe(true);
    expect(isAbout(record({ about: ['melanie'], text: 'Melanie went hiking' }), 'Caroline')).toBe(false);
  });
});

describe('findFact and findEvent', () => {
  const records = [
    record({ text: 'Caroline Went to a LGBTQ support group (yesterday [7 May 2023])' }),
    record({ episodeId: 'e2', text: 'Caroline joined a LGBTQ activist group' }),
    record({ kind: 'observation', about: ['melanie'], text: 'Melanie: I painted that lake sunrise last year.' }),
  ];
  const names = ['Caroline', 'Melanie'];
  it('needs the evidence session, the speaker and the key words', () => {
    const text = 'Caroline attended an LGBTQ support group recently.';
    expect(findFact({ text, speaker: 'Caroline', names, episodes: new Set(['e1']), records, lemmatize })?.text).toMatch(
      /support group/,
    );
    expect(findFact({ text, speaker: 'Caroline', names, episodes: new Set(['e3']), records, lemmatize })).toBeNull();
    expect(findFact({ text, speaker: 'Melanie', names, episodes: new Set(['e1']), records, lemmatize })).toBeNull();
    const painted = 'Melanie painted a lake sunrise last year.';
    expect(
      findFact({ text: painted, speaker: 'Melanie', names, episodes: new Set(['e1']), records, lemmatize })?.kind,
    ).toBe('observation');
  });
  it('an event needs a dated transition or relationship within a day of the session date', () => {
    const text = 'Caroline attends an LGBTQ support group for the first time.';
    const date = Date.UTC(2023, 4, 8, 13, 56);
    expect(findEvent({ text, speaker: 'Caroline', names, date, records, lemmatize })).not.toBeNull();
    expect(findEvent({ text, speaker: 'Caroline', names, date: date + 3 * DAY, records, lemmatize })).toBeNull();
    const onlyObservation = [record({ kind: 'observation', text: 'Caroline: I went to a LGBTQ support group' })];
    expect(findEvent({ text, speaker: 'Caroline', names, date, records: onlyObservation, lemmatize })).toBeNull();
  });
  it('an event told later is found dated back to the session before, not earlier', () => {
    const text = 'Caroline attends an LGBTQ support group for the first time.';
    const date = Date.UTC(2023, 4, 7, 12) + 5 * DAY;
    const args = { text, speaker: 'Caroline', names, date, records, lemmatize };
    expect(findEvent(args)).toBeNull();
    expect(findEvent({ ...args, since: date - 7 * DAY })).not.toBeNull();
    expect(findEvent({ ...args, since: date - 3 * DAY })).toBeNull();
  });
});
