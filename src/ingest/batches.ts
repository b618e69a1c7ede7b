import { groupByLocalDay } from './day-groups.js';

/** What the batch planner needs of an episode: its time and its turns' sizes. */
export interface PlannableEpisode {
  id: string;
  time: number;
  /** Estimated tokens of each turn, in order. */
  turnTokens: number[];
}

/** A contiguous range of an episode's turns: the whole episode, or one part of a long one. */
export interface EpisodeSlice {
  episodeId: string;
  fromTurn: number;
  /** Exclusive. */
  toTurn: number;
  part: number;
  parts: number;
  tokens: number;
}

export interface PlannedBatch {
  /** "2024-03-15", or "2024-03-15#2" for the second batch of a long day. */
  id: string;
  day: string;
  time: number;
  slices: EpisodeSlice[];
  tokens: number;
}

/**
 * Chronological daily batches in the user's zone, capped by a token budget (pie-paper §4.2). A day above the cap is
 * split between conversations; a conversation above the cap is split between turns into parts that stay in order.
 * No turn is ever dropped; a single turn larger than the cap travels alone.
 */
export function planBatches(input: {
  episodes: readonly PlannableEpisode[];
  tz: string;
  maxTokens: number;
}): PlannedBatch[] {
  const { maxTokens } = input;
  const batches: PlannedBatch[] = [];
  for (const { day, items } of groupByLocalDay({ items: input.episodes, tz: input.tz })) {
    const dayBatches: { slices: EpisodeSlice[]; tokens: number; time: number }[] = [];
    let current: { slices: EpisodeSlice[]; tokens: number; time: number } | undefined;
    for (const episode of items) {
      for (const slice of splitEpisode(episode, maxTokens)) {
        if (!current || (current.tokens + slice.tokens > maxTokens && current.slices.length > 0)) {
          current = { slices: [], tokens: 0, time: episode.time };
          dayBatches.push(current);
        }
        current.slices.push(slice);
        current.tokens += slice.tokens;
      }
    }
    dayBatches.forEach((b, i) => {
      batches.push({ id: i === 0 ? day : `${day}#${i + 1}`, day, time: b.time, slices: b.slices, tokens: b.tokens });
    });
  }
  return batches;
}

/** Splits one episode into parts of at most `maxTokens` (by whole turns). */
export function splitEpisode(episode: PlannableEpisode, maxTokens: number): EpisodeSlice[] {
  const ranges: { from: number; to: number; tokens: number }[] = [];
  let from = 0;
  let tokens = 0;
  episode.turnTokens.forEach((t, i) => {
    if (i > from && tokens + t > maxTokens) {
      ranges.push({ from, to: i, tokens });
      from = i;
      tokens = 0;
    }
    tokens += t;
  });
  ranges.push({ from, to: episode.turnTokens.length, tokens });
  return ranges.map((r, i) => ({
    episodeId: episode.id,
    fromTurn: r.from,
    toTurn: r.to,
    part: i + 1,
    parts: ranges.length,
    tokens: r.tokens,
  }));
}
