import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpanTagger, type SpanTagger } from '../nlp.js';
import { change, known, rel, run, said } from '../test-kit.js';

let tagger: SpanTagger;
beforeAll(async () => {
  tagger = await loadSpanTagger();
});
const at = Date.UTC(2025, 4, 20, 15);
const read = (text: string, preamble = {}) => run([text], { tagger, at, preamble });

describe("the speaker's people: their homes, children, engagements and breakups", () => {
  it.each([
    ['My brother Dan lives in Chicago.', 'Dan', 'Chicago'],
    ['I called Dan. Dan lives in Chicago with his wife.', 'Dan', 'Chicago'],
    ['My sister Nora moved to Denver last year.', 'Nora', 'Denver'],
    ['I talked to Dan yesterday. He lives in Chicago now.', 'Dan', 'Chicago'],
  ])("someone else's home is theirs, not the speaker's: %s", (text, who, place) => {
    const r = read(text);
    expect(rel(r, who, 'LIVES_IN', place)?.ended).toBe(false);
    expect(rel(r, 'User', 'LIVES_IN', place)).toBeUndefined();
  });

  it("a figure a text is about is not one of the speaker's people", () => {
    const r = read('To avoid arrest for his views, Rousseau moved to England.');
    expect(r.relationships.filter((x) => x.type === 'LIVES_IN')).toEqual([]);
    const known = { mentionedEntities: [{ name: 'Dan', type: 'person', aliases: [], state: { relation: 'brother' } }] };
    expect(rel(read('Dan moved to Boston.', known), 'Dan', 'LIVES_IN', 'Boston')).toBeDefined();
  });

  it('a move another person plans is no home yet, and the sentence keeps its event', () => {
    expect(rel(read('My friend Jake is moving to Seattle.'), 'Jake', 'LIVES_IN', 'Seattle')).toBeUndefined();
    const r = read('My sister Nora moved to Denver last year.');
    expect(change(r, 'User', 'latest_event')?.newStateAspect).toBe('my sister Nora moved to Denver');
    expect(rel(r, 'Nora', 'LIVES_IN', 'Denver')?.eventTime?.slice(0, 4)).toBe('2024');
  });

  it.each([
    ["I'm 34 and live in Berlin.", 'Berlin'],
    ['I work remotely and live in Lisbon now.', 'Lisbon'],
  ])('the speaker living somewhere, said after another clause: %s', (text, place) => {
    expect(rel(read(text), 'User', 'LIVES_IN', place)).toBeDefined();
  });

  it('a place the speaker would like to live in is no home', () => {
    expect(rel(read("I'd love to retire and live in Lisbon."), 'User', 'LIVES_IN', 'Lisbon')).toBeUndefined();
  });

  it.each([
    ['My wife Anna and I just had a baby girl named Lily.', 'Lily', 'daughter'],
    ['We welcomed our son Noah last week.', 'Noah', 'son'],
  ])('a child born is family: %s', (text, child, relation) => {
    const r = read(text);
    expect(rel(r, child, 'FAMILY_OF', 'User')?.properties).toEqual({ relation });
    expect(r.entities.find((e) => e.name === child)?.type).toBe('person');
  });

  it.each([
    ['I got engaged to Chris last weekend!', 'fiance'],
    ['Chris and I got married in June.', 'spouse'],
    ['I married Chris in 2019.', 'spouse'],
  ])('an engagement or a marriage is family, and the event stays: %s', (text, relation) => {
    const r = read(text);
    expect(rel(r, 'Chris', 'FAMILY_OF', 'User')?.properties).toEqual({ relation });
    expect(change(r, 'User', 'latest_event')).toBeDefined();
  });

  it('a breakup ends the relation the speaker named and records the ex, with no open edge beside', () => {
    const r = read('I broke up with my girlfriend Sarah last week.');
    const edges = r.relationships.filter((x) => x.source === 'User' && x.target === 'Sarah');
    expect(edges).toEqual([
      expect.objectContaining({ type: 'KNOWS', ended: true, properties: { relation: 'girlfriend' } }),
    ]);
    expect(change(r, 'Sarah', 'relation')).toMatchObject({
      oldStateAspect: 'girlfriend',
      newStateAspect: 'ex-girlfriend',
    });
    expect(r.entities.find((e) => e.name === 'Sarah')?.state.relation).toBeUndefined();
  });

  it('a breakup with someone named before ends the relation known from then, in its direction', () => {
    const preamble = { mentionedEntities: [known('Anna', 'person', [], { relation: 'wife' })] };
    const r = read('Anna and I separated in March.', preamble);
    expect(rel(r, 'Anna', 'FAMILY_OF', 'User')).toMatchObject({ ended: true, properties: { relation: 'wife' } });
    expect(change(r, 'Anna', 'relation')?.newStateAspect).toBe('ex-wife');
  });

  it("between named speakers the ex is the speaker's", () => {
    const r = said('Caroline', 'I broke up with my boyfriend Mark last month.', tagger);
    expect(rel(r, 'Caroline', 'KNOWS', 'Mark')?.ended).toBe(true);
    expect(change(r, 'Mark', 'relation')?.whatChanged).toBe('Broke up with Caroline');
  });

  it('a hedged or asked breakup changes nothing', () => {
    for (const text of ['Should I break up with my girlfriend Sarah?', 'I might split up with Sarah.']) {
      expect(read(text).relationships.filter((x) => x.ended)).toEqual([]);
    }
  });
});
