/** Shared types of the question time-reference finder. */
import type { Period } from '../../domain/world.js';

export type TimeRangeKind = 'explicit' | 'relative' | 'season' | 'period' | 'year' | 'month' | 'vague';

export interface TimeRange {
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive. */
  end: number;
  /** The words in the question that produced it, e.g. "last spring". */
  text: string;
  /** How it was found. */
  kind: TimeRangeKind;
  /** For kind 'period': the period entity id. */
  periodId?: string;
  /** A month or a day named without a year and read alone (no range, modifier or list gave it one). */
  yearless?: Yearless;
  /**
   * Set when the year `now` implies held no conversation and the range was moved back to the latest year whose same
   * month or day does (planQuery): "On April 27th, how long did I run?" asked in 2026 of a memory from 2023.
   */
  movedToMemory?: boolean;
}

export interface FindTimeRangesInput {
  text: string;
  now: number;
  tz: string;
  periods: readonly Period[];
}

/** What every matcher receives. */
export interface MatchContext extends FindTimeRangesInput {
  /** The bounded start used for open-ended-past phrases ("before 2024", "a long time ago"). */
  floor: number;
}

/** A month (and day) named without a year, kept so "between May and July 2024" can move May into 2024. */
export interface Yearless {
  month: number;
  day?: number;
}

/** A match before overlap resolution; [from, to) are character offsets in the question. */
export interface Candidate {
  from: number;
  to: number;
  start: number;
  end: number;
  kind: TimeRangeKind;
  periodId?: string;
  /** Breaks ties between equally long matches: lower wins. */
  rank: number;
  /** Breaks remaining ties (period coverage): higher wins. */
  score?: number;
  yearless?: Yearless;
}

/** Tie-break order for equally long matches: a named period beats a calendar reading of the same words. */
export const RANK = { period: 0, season: 1, relative: 2, explicit: 3, vague: 4, year: 5 } as const;
