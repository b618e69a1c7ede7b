import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpanTagger, type SpanTagger } from '../nlp.js';
import { rel, said, T0 } from '../test-kit.js';

let tagger: SpanTagger;
beforeAll(async () => {
  tagger = await loadSpanTagger();
});

const DAY = 86_400_000;

describe('where a speaker has been and comes from', () => {
  it.each([
    ['Still working on my biz. Took a short trip last week to Rome to clear my mind a little.', 'Rome'],
    ['Last year I took a solo trip and took this pic in Spain.', 'Spain'],
    ['When I was younger, my family and I went on a road trip to Oregon.', 'Oregon'],
    ['I was in Chicago, it was awesome!', 'Chicago'],
    ['I went to a place in London a few years ago - it was like walking into a movie!', 'London'],
    ['Check out this pic from one of my trips to New York City!', 'New York City'],
    ['I took that pic on a hike last summer near Fort Wayne.', 'Fort Wayne'],
    ['Never had a chance to visit it. Been only to Rome once.', 'Rome'],
    ['Last week I went to a Harry Potter conference in the UK - it was incredible!', 'United Kingdom'],
  ])('%s → VISITED %s', (text, place) => {
    expect(rel(said('Maria', text, tagger), 'Maria', 'VISITED', place)).toBeDefined();
  });

  it.each([
    ['This necklace is a gift from my grandma in my home country, Sweden.', 'Sweden'],
    ["I'm originally from Boston, so the winters here feel mild.", 'Boston'],
    ['I grew up in Ohio with three brothers.', 'Ohio'],
  ])('%s → FROM %s', (text, place) => {
    const found = said('Caroline', text, tagger);
    expect(rel(found, 'Caroline', 'FROM', place)).toBeDefined();
    expect(rel(found, 'Caroline', 'VISITED', place)).toBeUndefined();
  });

  it.each([
    ["I'm planning a trip to the East Coast.", 'East Coast'],
    ["Next month, I'm off to Ireland for a semester.", 'Ireland'],
    ['I want to visit Paris someday.', 'Paris'],
    ["I haven't been to Edinburgh yet, but it sounds great.", 'Edinburgh'],
    ['Have you been to Italy?', 'Italy'],
    // Someone else's trip is theirs, not the speaker's.
    ['Italy was awesome, the food was amazing.', 'Italy'],
  ])('no visit in: %s', (text, place) => {
    expect(rel(said('John', text, tagger), 'John', 'VISITED', place)).toBeUndefined();
  });

  it('dates the visit by the time the sentence gives, else leaves it to when it was said', () => {
    const lastWeek = rel(said('Jon', 'Took a short trip last week to Rome.', tagger), 'Jon', 'VISITED', 'Rome');
    const week = Date.parse(lastWeek?.eventTime ?? '');
    expect(week).toBeLessThan(T0 - 3 * DAY);
    expect(week).toBeGreaterThan(T0 - 14 * DAY);
    const undated = rel(said('Jon', 'I was in Chicago, it was awesome!', tagger), 'Jon', 'VISITED', 'Chicago');
    expect(undated?.eventTime).toBeUndefined();
  });

  it('keeps the sentence an event as well as an edge', () => {
    const found = said('Jon', 'Took a short trip last week to Rome to clear my mind.', tagger);
    expect(rel(found, 'Jon', 'VISITED', 'Rome')).toBeDefined();
    expect(found.stateChanges.some((c) => c.entityName === 'Jon' && /trip/i.test(c.whatChanged))).toBe(true);
  });

  // Said on 15 January 2025.
  it.each([
    // A range said whole is dated from its first day (the visit had been dated by "27th of April" alone).
    [
      'I took ten Uber rides during my vacation to Hawaii from the 20th to the 27th of December.',
      'Hawaii',
      '2024-12-20',
    ],
    ["I've been to Chicago before, exactly two months ago, for a wedding.", 'Chicago', '2024-11-16'],
    // A time of another clause is not the visit's.
    ['I was in Chicago, but last week I stayed home.', 'Chicago', undefined],
    ['I was in Chicago, which my sister left last year.', 'Chicago', undefined],
  ])('%s → VISITED %s dated %s', (text, place, day) => {
    const found = rel(said('Jon', text, tagger), 'Jon', 'VISITED', place);
    expect(found).toBeDefined();
    expect(found?.eventTime?.slice(0, 10)).toBe(day);
  });
});
