import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BENCHMARKS_MD = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));

/**
 * Replaces (or appends) the section of docs/benchmarks.md between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`,
 * so each benchmark owns its section and re-running it updates its figures in place.
 */
export function writeSection(input: { name: string; markdown: string; file?: string }): void {
  const file = input.file ?? BENCHMARKS_MD;
  const begin = `<!-- bench:${input.name} -->`;
  const end = `<!-- /bench:${input.name} -->`;
  const block = `${begin}\n${input.markdown.trim()}\n${end}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(begin);
  const stop = current.indexOf(end);
  const next =
    start >= 0 && stop > start
      ? current.slice(0, start) + block + current.slice(stop + end.length)
      : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
}

export function machineLine(): string {
  return `Node ${process.version}, ${process.platform}/${process.arch}, run on ${new Date().toISOString().slice(0, 10)}`;
}

export function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
