import { localParts } from '../../domain/time.js';

const numberFormat = new Intl.NumberFormat('en-US');

export function num(n: number): string {
  return numberFormat.format(n);
}

/** "2024-03-15 14:02" in the user's zone ("2024-03-15 14:02:07" with `seconds`). */
export function localDateTime(ms: number, tz: string, options: { seconds?: boolean } = {}): string {
  const p = localParts(ms, tz);
  const time = `${pad(p.hour)}:${pad(p.minute)}${options.seconds ? `:${pad(p.second)}` : ''}`;
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${time}`;
}

export function localDate(ms: number, tz: string): string {
  const p = localParts(ms, tz);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Aligned plain-text columns; the last column is not padded. */
export function table(rows: readonly (readonly string[])[], options: { indent?: string } = {}): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  const indent = options.indent ?? '';
  return rows
    .map((row) => indent + row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '))
    .join('\n');
}

/** "system 3, code 2" from a count map, largest first; "none" when empty. */
export function countList(counts: Record<string, number>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (entries.length === 0) return 'none';
  return entries
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ${num(n)}`)
    .join(', ');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${num(n)} ${n === 1 ? one : many}`;
}

/** Collapses whitespace and cuts to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}
