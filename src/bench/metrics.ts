/** recall@k: the share of the gold ids found in the first k of the ranking (0…1). */
export function recallAt(ranked: readonly string[], gold: readonly string[], k: number): number {
  if (gold.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}

/** NDCG@k with binary relevance: DCG of the first k over the DCG of an ideal ranking of the gold ids. */
export function ndcgAt(ranked: readonly string[], gold: readonly string[], k: number): number {
  if (gold.length === 0) return 0;
  const relevant = new Set(gold);
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Means of named metrics per group and system ("temporal" × "pie" → {"turn_recall@5": 0.4}). */
export class MetricTable {
  private readonly sums = new Map<string, Map<string, number>>();
  private readonly counts = new Map<string, number>();
  readonly groups: string[] = [];

  /** Fixes the order groups are listed in (groups seen later are appended). */
  declare(groups: readonly string[]): void {
    for (const g of groups) if (!this.groups.includes(g)) this.groups.push(g);
  }

  add(group: string, system: string, metrics: Record<string, number>): void {
    const key = `${group}\u0000${system}`;
    if (!this.groups.includes(group)) this.groups.push(group);
    const sums = this.sums.get(key) ?? new Map<string, number>();
    for (const [name, value] of Object.entries(metrics)) sums.set(name, (sums.get(name) ?? 0) + value);
    this.sums.set(key, sums);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  count(group: string, system: string): number {
    return this.counts.get(`${group}\u0000${system}`) ?? 0;
  }

  mean(group: string, system: string, metric: string): number | null {
    const n = this.count(group, system);
    const sum = this.sums.get(`${group}\u0000${system}`)?.get(metric);
    return n === 0 || sum === undefined ? null : sum / n;
  }

  toJSON(): Record<string, Record<string, Record<string, number>>> {
    const out: Record<string, Record<string, Record<string, number>>> = {};
    for (const [key, sums] of this.sums) {
      const [group = '', system = ''] = key.split('\u0000');
      const n = this.counts.get(key) ?? 1;
      const row = (out[group] ??= {});
      row[system] = Object.fromEntries([...sums].map(([m, s]) => [m, s / n]));
      row[system].n = n;
    }
    return out;
  }
}
