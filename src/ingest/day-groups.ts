import { localDayKey } from '../domain/time.js';

export interface DatedItem {
  id: string;
  time: number;
}

export interface DayGroup<T extends DatedItem> {
  /** Local calendar day, YYYY-MM-DD in the user's zone. */
  day: string;
  items: T[];
}

/** Groups items by the local day of their time, days in chronological order, items by (time, id) within a day. */
export function groupByLocalDay<T extends DatedItem>(input: { items: readonly T[]; tz: string }): DayGroup<T>[] {
  const sorted = [...input.items].sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const groups: DayGroup<T>[] = [];
  let current: DayGroup<T> | undefined;
  for (const item of sorted) {
    const day = localDayKey(item.time, input.tz);
    if (!current || current.day !== day) {
      current = { day, items: [] };
      groups.push(current);
    }
    current.items.push(item);
  }
  return groups;
}
