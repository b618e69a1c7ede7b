import { isDeepStrictEqual } from 'node:util';
import type { RawRow } from '../ports/maintenance-store.js';

/**
 * The row a forced undo writes back, from the run's journal images (`before`, `after`) and the row as it is now.
 * Pure. What the run changed goes back; what changed after the run stays:
 * - a row still as the run left it gets its `before` image (as an undo that was not forced);
 * - a row gone since (forgotten, deleted) stays gone, and a row the run inserted or deleted that exists changed stays;
 * - otherwise column by column: a column still as the run left it gets its `before` value, a column changed since
 *   keeps its value (an ingest's new state, last-seen time or version after a sleep that changed the tier).
 */
export function undoneRow(input: { before: RawRow | null; after: RawRow | null; now: RawRow | null }): RawRow | null {
  const { before, after, now } = input;
  if (isDeepStrictEqual(now, after)) return before;
  if (now === null || before === null || after === null) return now;
  const row: RawRow = { ...now };
  for (const column of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!(column in now)) continue;
    if (isDeepStrictEqual(now[column], after[column])) {
      const value = before[column];
      if (value === undefined) delete row[column];
      else row[column] = value;
    }
  }
  return row;
}
