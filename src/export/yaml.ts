/**
 * Just enough YAML for note front matter: every scalar is written as a JSON string or number, which YAML reads
 * back unchanged (JSON scalars are valid YAML flow scalars), so names with colons, quotes or "#" stay intact.
 */
export type FrontValue = string | number | boolean | null | readonly string[] | Readonly<Record<string, unknown>>;

const scalar = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value));
};

export function frontMatter(fields: ReadonlyArray<readonly [string, FrontValue | undefined]>): string {
  const lines = ['---'];
  for (const [key, value] of fields) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      lines.push(value.length === 0 ? `${key}: []` : `${key}:`);
      for (const item of value as readonly string[]) lines.push(`  - ${scalar(item)}`);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      lines.push(entries.length === 0 ? `${key}: {}` : `${key}:`);
      for (const [k, v] of entries) lines.push(`  ${JSON.stringify(k)}: ${scalar(v)}`);
    } else {
      lines.push(`${key}: ${scalar(value)}`);
    }
  }
  lines.push('---');
  return lines.join('\n');
}
