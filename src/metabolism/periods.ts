import type { Period } from '../domain/world.js';
import { DAY_MS } from '../domain/time.js';

/**
 * Period boundary refinement, as a pure rule. A period's start and end were set from the batches that named it;
 * the evidence is what is linked to it since: the DURING links of the entities that appeared in it (things that
 * happened in it) and the episodes that mention it (talk about it, which may come before it, as plans, or after it,
 * as memories: "Telling my parents about the gap semester" is said during junior year). A boundary moves only when
 * the evidence says so:
 * - widen: something that happened in it before the start (or after the end) moves the boundary out to it; a mention
 *   alone never does;
 * - narrow: when at least `minEvidence` items (of both kinds) exist and the boundary lies more than `slackDays`
 *   outside all of them, it moves in to the earliest (latest) one;
 * - an open end (null: the period is still going on) stays open; with no evidence nothing changes.
 */

export interface PeriodRules {
  slackDays: number;
  minEvidence: number;
}

export const DEFAULT_PERIOD_RULES: PeriodRules = { slackDays: 1, minEvidence: 2 };

export interface PeriodRefinement {
  entityId: string;
  name: string;
  from: { start: number; end: number | null };
  to: { start: number; end: number | null };
  evidence: number;
}

export function refinePeriod(input: {
  period: Period;
  /** Times of what happened in the period (its DURING links), any order. */
  evidence: readonly number[];
  /** Times of the episodes that mention it, any order: they hold a boundary but never widen it. */
  mentions?: readonly number[];
  rules?: PeriodRules;
}): PeriodRefinement | null {
  const { period } = input;
  const rules = input.rules ?? DEFAULT_PERIOD_RULES;
  const happened = input.evidence.filter((t) => Number.isFinite(t));
  const times = [...happened, ...(input.mentions ?? []).filter((t) => Number.isFinite(t))];
  if (times.length === 0) return null;
  const first = Math.min(...times);
  const last = Math.max(...times);
  const slack = rules.slackDays * DAY_MS;
  const enough = times.length >= rules.minEvidence;
  let start = period.start;
  const firstHappened = Math.min(...happened);
  if (firstHappened < start) start = firstHappened;
  else if (enough && first - start > slack) start = first;
  let end = period.end;
  const lastHappened = Math.max(...happened);
  if (end !== null && lastHappened > end) end = lastHappened;
  else if (end !== null && enough && end - last > slack) end = last;
  if (end !== null && end < start) end = start;
  if (start === period.start && end === period.end) return null;
  return {
    entityId: period.entityId,
    name: period.name,
    from: { start: period.start, end: period.end },
    to: { start, end },
    evidence: times.length,
  };
}
