import { localParts, zonedTimeToUtc } from '../domain/time.js';

/**
 * Tier arithmetic of the pyramid (spec/pyramid-memory.md): tier 0 covers one local calendar day, tier N covers
 * STEP^N days, and windows are aligned on day numbers (days since 1970-01-01 in the user's zone), so tier N+1
 * window k holds exactly tier N windows STEP·k … STEP·k+STEP-1. Pure functions.
 */
export const STEP = 3;
const DAY_MS = 86_400_000;

/** How many days a summary of `tier` covers: STEP^tier. */
export function tierSpanDays(tier: number): number {
  if (!Number.isInteger(tier) || tier < 0) throw new RangeError(`tier must be a non-negative integer, got ${tier}`);
  return STEP ** tier;
}

/** The local calendar day of an instant as a day number (days since 1970-01-01). */
export function dayNumber(ms: number, tz: string): number {
  const p = localParts(ms, tz);
  return Math.round(Date.UTC(p.year, p.month - 1, p.day) / DAY_MS);
}

/** The instant local day `day` begins in `tz`. */
export function dayStart(day: number, tz: string): number {
  const d = new Date(day * DAY_MS);
  return zonedTimeToUtc({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, tz);
}

/** The first and last day numbers of the tier window that holds `day`. */
export function windowOf(day: number, tier: number): { first: number; last: number } {
  const span = tierSpanDays(tier);
  const first = Math.floor(day / span) * span;
  return { first, last: first + span - 1 };
}

/** The highest tier worth building for a history from `firstDay` to `lastDay`: the smallest N with STEP^N ≥ span. */
export function maxTier(firstDay: number, lastDay: number): number {
  const span = Math.max(1, lastDay - firstDay + 1);
  let tier = 0;
  while (tierSpanDays(tier) < span) tier += 1;
  return tier;
}

/** Items grouped by the first day of their tier window (windows in ascending order, items in input order). */
export function groupByWindow<T>(items: readonly T[], dayOf: (item: T) => number, tier: number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const { first } = windowOf(dayOf(item), tier);
    const group = groups.get(first);
    if (group) group.push(item);
    else groups.set(first, [item]);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => a - b));
}

export interface TierItem {
  tier: number;
  start: number;
}

/**
 * Pyramid retrieval: the latest `perTier` items of every tier, tiers from the highest (long-term context) to tier 0
 * (recent detail), each tier oldest first so it reads in time order.
 */
export function selectPyramid<T extends TierItem>(items: readonly T[], perTier = STEP): T[] {
  const byTier = new Map<number, T[]>();
  for (const item of items) byTier.set(item.tier, [...(byTier.get(item.tier) ?? []), item]);
  const out: T[] = [];
  for (const tier of [...byTier.keys()].sort((a, b) => b - a)) {
    const latest = [...(byTier.get(tier) ?? [])].sort((a, b) => b.start - a.start).slice(0, perTier);
    out.push(...latest.reverse());
  }
  return out;
}
