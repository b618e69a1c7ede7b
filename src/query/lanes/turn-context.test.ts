import { describe, expect, it } from 'vitest';
import { NEIGHBOUR_SHARE, rankTurnsInContext, spreadOver, type MatchedTurn } from './turn-context.js';

const m = (episodeId: string, seq: number, score: number, snippet = `${episodeId}#${seq}`): MatchedTurn => ({
  episodeId,
  seq,
  score,
  time: 1000 + seq,
  snippet,
});
const keys = (turns: { episodeId: string; seq: number }[]): string[] => turns.map((t) => `${t.episodeId}#${t.seq}`);

describe('rankTurnsInContext', () => {
  it('a turn whose neighbours also match outranks a slightly better turn that stands alone', () => {
    // a#5 scores 4 alone; b#3 scores 3.5 with neighbours b#2 (2) and b#4 (1): 3.5 + share × 3 > 4.
    const ranked = rankTurnsInContext({
      matched: [m('a', 5, 4), m('b', 3, 3.5), m('b', 2, 2), m('b', 4, 1)],
      turnCount: () => 10,
    });
    expect(keys(ranked).slice(0, 2)).toEqual(['b#3', 'a#5']);
    expect(ranked[0]?.score).toBeCloseTo(3.5 + NEIGHBOUR_SHARE * 3, 12);
    expect(ranked[1]?.score).toBe(4);
  });

  it('brings in the unmatched turns next to a match, within the conversation, without a snippet', () => {
    const ranked = rankTurnsInContext({
      matched: [m('a', 0, 2), m('b', 4, 1)],
      turnCount: (id) => (id === 'a' ? 3 : 5),
    });
    // a#-1 and b#5 lie outside their conversations.
    expect(keys(ranked)).toEqual(['a#0', 'b#4', 'a#1', 'b#3']);
    expect(ranked[2]).toEqual({ episodeId: 'a', seq: 1, score: NEIGHBOUR_SHARE * 2, time: 1000 });
    expect(ranked[0]?.snippet).toBe('a#0');
  });

  it('adds no neighbour for a conversation it knows nothing about, and counts a repeated hit once', () => {
    const ranked = rankTurnsInContext({ matched: [m('a', 1, 2), m('a', 1, 2)], turnCount: () => undefined });
    expect(keys(ranked)).toEqual(['a#1']);
    expect(ranked[0]?.score).toBe(2);
  });

  it('with share 0 keeps the BM25 order, matched turns before the neighbours they brought in', () => {
    const ranked = rankTurnsInContext({ matched: [m('a', 2, 3), m('a', 5, 1)], turnCount: () => 10, share: 0 });
    expect(keys(ranked)).toEqual(['a#2', 'a#5', 'a#1', 'a#3', 'a#4', 'a#6']);
  });
});

describe('spreadOver', () => {
  it('takes at most n turns of a conversation before the others, keeping the order otherwise', () => {
    const turns = ['a', 'a', 'a', 'b', 'a', 'c', 'b'].map((episodeId, seq) => ({ episodeId, seq }));
    expect(keys(spreadOver(turns, 2))).toEqual(['a#0', 'a#1', 'b#3', 'c#5', 'b#6', 'a#2', 'a#4']);
    expect(keys(spreadOver(turns, 10))).toEqual(keys(turns));
  });
});
