/**
 * Time references in a question, as ranges of epoch ms in the user's zone: explicit dates (chrono.ts), bare years
 * (years.ts), phrases relative to now (relative.ts), holidays (holidays.ts), seasons and parts of a year
 * (seasons.ts), vague anchors (vague.ts) and named periods (periods.ts); combine.ts resolves overlaps and applies
 * "between … and …", "before / after / since / until / during". Each module's doc comment states its conventions.
 * Pure: `now` is the only clock, `tz` the only zone.
 */
import { PLAUSIBLE_MIN_MS } from '../../domain/time.js';
import { bareMonthCandidates, chronoCandidates } from './chrono.js';
import { applyModifiers, joinRanges, selectNonOverlapping } from './combine.js';
import { holidayCandidates } from './holidays.js';
import { periodCandidates } from './periods.js';
import { relativeCandidates } from './relative.js';
import { seasonCandidates } from './seasons.js';
import type { Candidate, FindTimeRangesInput, MatchContext, TimeRange } from './types.js';
import { vagueCandidates } from './vague.js';
import { yearCandidates } from './years.js';

export type { FindTimeRangesInput, TimeRange, TimeRangeKind } from './types.js';
export { describeRange } from './describe.js';
export { matchPeriod } from './periods.js';

/** Earliest start for open-ended ranges ("before 2024"): 1990-01-01 or the earliest period, whichever is earlier. */
function floorOf(input: FindTimeRangesInput): number {
  return input.periods.reduce((min, p) => Math.min(min, p.start), PLAUSIBLE_MIN_MS);
}

function toRange(c: Candidate, text: string): TimeRange {
  const range: TimeRange = { start: c.start, end: c.end, text: text.slice(c.from, c.to), kind: c.kind };
  if (c.periodId !== undefined) range.periodId = c.periodId;
  if (c.yearless !== undefined) range.yearless = c.yearless;
  return range;
}

/** Every time reference in the question, in order of appearance, non-overlapping (a longer match wins). */
export function findTimeRanges(input: FindTimeRangesInput): TimeRange[] {
  const ctx: MatchContext = { ...input, floor: floorOf(input) };
  const candidates = [
    ...periodCandidates(ctx),
    ...seasonCandidates(ctx),
    ...relativeCandidates(ctx),
    ...holidayCandidates(ctx),
    ...vagueCandidates(ctx),
    ...yearCandidates(ctx),
    ...chronoCandidates(ctx),
    ...bareMonthCandidates(ctx),
  ];
  const chosen = applyModifiers(joinRanges(selectNonOverlapping(candidates), ctx), ctx);
  return chosen.map((c) => toRange(c, input.text));
}
