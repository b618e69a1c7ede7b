import type { WorldStore } from '../ports/world-store.js';
import { localDate } from './time/calendar.js';
import { yearlessSpan } from './time/chrono.js';
import type { TimeRange } from './time/types.js';

/**
 * A month or a day named without a year ("On April 27th, how long did I run?", "what did I cook in March?") is read
 * as the latest one before now. When that one holds no conversation and an earlier year's does, the question is
 * about the memory's: the range moves back to the latest year whose same month or day has a conversation (at most
 * back to the memory's first), marked `movedToMemory` so the context says how it was read. Asked in 2026 of a
 * memory from 2023, "April 27th" was 27 April 2026, after everything the memory holds. Ranges with a year, and
 * year-less ones whose latest reading holds a conversation, are kept as they are.
 */
export async function anchorYearlessInMemory(input: {
  store: WorldStore;
  ranges: readonly TimeRange[];
  tz: string;
}): Promise<TimeRange[]> {
  const { store, tz } = input;
  if (!input.ranges.some((r) => r.yearless)) return [...input.ranges];
  const [firstEpisode] = await store.episodes.list({ limit: 1 });
  if (!firstEpisode) return [...input.ranges];
  const firstYear = localDate(firstEpisode.createdAt, tz).year;
  const holds = async (span: { start: number; end: number }) =>
    (await store.episodes.count({ since: span.start, until: span.end })) > 0;
  const out: TimeRange[] = [];
  for (const range of input.ranges) {
    const { yearless } = range;
    if (!yearless || (await holds(range))) {
      out.push(range);
      continue;
    }
    let moved: TimeRange | null = null;
    for (let year = localDate(range.start, tz).year - 1; year >= firstYear && moved === null; year -= 1) {
      const span = yearlessSpan(yearless, year, tz);
      if (await holds(span)) moved = { ...range, start: span.start, end: span.end, movedToMemory: true };
    }
    out.push(moved ?? range);
  }
  return out;
}
