/** The time axis of the entity page's attribute bars (attribute-lanes.ts). Pure. */

const DAY = 86_400_000;
/** Room after the last change for a value still held, as a share of the history's own length. */
const TAIL = 0.25;

/**
 * The span the bars are drawn over: from the first value to now, so a value still held has room; but when the
 * quiet stretch since the last change is longer than the history itself (an export of 2023 read in 2026), the bars
 * end a quarter of the history after it, and the value still held runs to the edge. Otherwise ten days of changes
 * drawn against three and a half years were one bar of the current value.
 */
export function swimSpan(input: { times: readonly number[]; lastSeen: number; now: number }): {
  start: number;
  end: number;
} {
  const times = input.times.filter(Number.isFinite);
  const seen = Number.isFinite(input.lastSeen) ? [input.lastSeen] : [];
  const start = Math.min(...times, ...seen);
  const last = Math.max(...times, ...seen);
  if (!Number.isFinite(start)) return { start: 0, end: 1 };
  const history = last - start;
  const now = Number.isFinite(input.now) ? input.now : last;
  const end = now - last > history ? last + Math.max(history * TAIL, DAY) : Math.max(last, now);
  return { start, end: Math.max(end, start + 1) };
}
