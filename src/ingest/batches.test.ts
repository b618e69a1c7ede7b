import { describe, expect, it } from 'vitest';
import { planBatches, splitEpisode } from './batches.js';

const day = (d: number, h = 12): number => Date.UTC(2024, 2, d, h);

describe('planBatches', () => {
  it('one batch per local day when under the cap, in time order', () => {
    const batches = planBatches({
      tz: 'UTC',
      maxTokens: 100,
      episodes: [
        { id: 'b', time: day(16), turnTokens: [10, 10] },
        { id: 'a', time: day(15), turnTokens: [10] },
        { id: 'c', time: day(16, 18), turnTokens: [5] },
      ],
    });
    expect(batches.map((b) => [b.id, b.slices.map((s) => s.episodeId), b.tokens])).toEqual([
      ['2024-03-15', ['a'], 10],
      ['2024-03-16', ['b', 'c'], 25],
    ]);
  });

  it('splits a day above the cap between conversations', () => {
    const batches = planBatches({
      tz: 'UTC',
      maxTokens: 50,
      episodes: [
        { id: 'a', time: day(15, 9), turnTokens: [30] },
        { id: 'b', time: day(15, 10), turnTokens: [30] },
        { id: 'c', time: day(15, 11), turnTokens: [10] },
      ],
    });
    expect(batches.map((b) => [b.id, b.slices.map((s) => s.episodeId)])).toEqual([
      ['2024-03-15', ['a']],
      ['2024-03-15#2', ['b', 'c']],
    ]);
  });

  it('splits a long conversation between turns, never dropping one; an oversized turn travels alone', () => {
    expect(splitEpisode({ id: 'x', time: 0, turnTokens: [20, 20, 20, 90, 5] }, 50)).toEqual([
      { episodeId: 'x', fromTurn: 0, toTurn: 2, part: 1, parts: 4, tokens: 40 },
      { episodeId: 'x', fromTurn: 2, toTurn: 3, part: 2, parts: 4, tokens: 20 },
      { episodeId: 'x', fromTurn: 3, toTurn: 4, part: 3, parts: 4, tokens: 90 },
      { episodeId: 'x', fromTurn: 4, toTurn: 5, part: 4, parts: 4, tokens: 5 },
    ]);
    expect(splitEpisode({ id: 'y', time: 0, turnTokens: [] }, 50)).toEqual([
      { episodeId: 'y', fromTurn: 0, toTurn: 0, part: 1, parts: 1, tokens: 0 },
    ]);
  });

  it('parts of a split conversation fill batches in order', () => {
    const batches = planBatches({
      tz: 'UTC',
      maxTokens: 50,
      episodes: [{ id: 'long', time: day(15), turnTokens: [30, 30, 30] }],
    });
    expect(batches.map((b) => [b.id, b.slices.map((s) => `${s.episodeId}:${s.part}/${s.parts}`)])).toEqual([
      ['2024-03-15', ['long:1/3']],
      ['2024-03-15#2', ['long:2/3']],
      ['2024-03-15#3', ['long:3/3']],
    ]);
  });
});
