import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { MetricTable } from './metrics.js';

export interface SystemColumn {
  key: string;
  label: string;
}

export const SYSTEMS: readonly SystemColumn[] = [
  { key: 'bm25', label: 'BM25' },
  { key: 'pie', label: 'PIE' },
  { key: 'pie_turns', label: 'PIE turns' },
];

export const QA_SYSTEMS: readonly SystemColumn[] = [
  { key: 'naive_rag', label: 'naive_rag' },
  { key: 'pie', label: 'PIE' },
];

/** A markdown table: one row per group, "n", then each metric for each system side by side (percent). */
export function metricMarkdown(
  table: MetricTable,
  metrics: readonly string[],
  systems: readonly SystemColumn[] = SYSTEMS,
): string {
  const header = ['group', 'n', ...metrics.flatMap((m) => systems.map((s) => `${m} ${s.label}`))];
  const rows = shown(table).map((g) => [
    g,
    String(table.count(g, 'pie')),
    ...metrics.flatMap((m) => systems.map((s) => pct(table.mean(g, s.key, m)))),
  ]);
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A plain-text table for the terminal (same content, aligned columns). */
export function metricText(
  table: MetricTable,
  metrics: readonly string[],
  systems: readonly SystemColumn[] = SYSTEMS,
): string {
  const header = ['group', 'n', ...metrics.flatMap((m) => systems.map((s) => `${m} ${s.label}`))];
  const rows = shown(table).map((g) => [
    g,
    String(table.count(g, 'pie')),
    ...metrics.flatMap((m) => systems.map((s) => pct(table.mean(g, s.key, m)))),
  ]);
  return textTable([header, ...rows]);
}

/** Rows as plain-text columns, each padded to its widest cell, two spaces apart (no trailing spaces). */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows
    .map((row) =>
      row
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Rows as a markdown table: the first row is the header. */
export function markdownTable(rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(header.map(() => '---')), ...body.map(line)];
}

export function pct(value: number | null): string {
  return value === null ? '–' : `${(value * 100).toFixed(1)}`;
}

/** Replaces (or appends) the section between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` (bench/report.ts format). */
export function writeMarkedSection(file: string, name: string, markdown: string): void {
  const begin = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(begin);
  const stop = current.indexOf(end);
  const next =
    start >= 0 && stop > start
      ? current.slice(0, start) + block + current.slice(stop + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
}

function shown(table: MetricTable): string[] {
  return table.groups.filter((g) => table.count(g, 'pie') > 0);
}
