import type { RetrievalPreset, Scoring } from './presets.js';
import type { ItemRef, LaneHit, LaneName, LaneResult, RankedItem } from './types.js';

const DAY = 86_400_000;

export function itemKey(ref: ItemRef): string {
  return ref.kind === 'turn' ? `turn:${ref.episodeId}#${ref.seq}` : `${ref.kind}:${ref.id}`;
}

/** e^(−ln2 · age / half-life): 1 today, 0.5 after one half-life. Unknown or future times count as now. */
export function recencyWeight(input: { time: number | null; now: number; halfLifeDays: number }): number {
  if (input.time === null) return 0.5;
  const ageDays = Math.max(0, (input.now - input.time) / DAY);
  return Math.exp((-Math.LN2 * ageDays) / input.halfLifeDays);
}

/** similarity·w + importance·w + recency·w; landmarks (importance ≥ floor) keep full recency. */
export function combinedScore(input: { similarity: number; importance: number; recency: number; scoring: Scoring }) {
  const { scoring } = input;
  const recency = input.importance >= scoring.landmarkFloor ? 1 : input.recency;
  return scoring.similarity * input.similarity + scoring.importance * input.importance + scoring.recency * recency;
}

/**
 * Lanes that are safety nets rather than evidence: the recent lane returns the latest conversations whatever the
 * question says, so its rank is no vote for an item another lane found (adding it let any recent conversation that
 * shares one common word with the question outrank the turns that answer it).
 */
const SAFETY_NETS: ReadonlySet<LaneName> = new Set(['recent']);

/**
 * Reciprocal-rank fusion across lanes (Σ weight / (k + rank), rank 1-based; a safety net's share only for items no
 * other lane found), normalized so the best item has
 * similarity 1, then re-scored with importance and recency. Ties break by key so results are deterministic.
 */
export function fuse(input: { lanes: readonly LaneResult[]; preset: RetrievalPreset; now: number }): RankedItem[] {
  const { preset } = input;
  const acc = new Map<string, { hit: LaneHit; rrf: number; net: number; lanes: LaneName[]; snippet?: string }>();
  for (const lane of input.lanes) {
    const weight = preset.lanes[lane.lane].weight;
    lane.hits.forEach((hit: LaneHit, index) => {
      const key = itemKey(hit.ref);
      const entry = acc.get(key) ?? { hit, rrf: 0, net: 0, lanes: [] };
      const share = weight / (preset.rrfK + index + 1);
      if (SAFETY_NETS.has(lane.lane)) entry.net = Math.max(entry.net, share);
      else entry.rrf += share;
      if (!entry.lanes.includes(lane.lane)) entry.lanes.push(lane.lane);
      if (entry.snippet === undefined && hit.snippet !== undefined) entry.snippet = hit.snippet;
      acc.set(key, entry);
    });
  }
  // A safety net's hit counts only where no other lane found the item.
  for (const e of acc.values()) if (e.rrf === 0) e.rrf = e.net;
  const best = Math.max(0, ...[...acc.values()].map((e) => e.rrf));
  const ranked: RankedItem[] = [...acc.entries()].map(([key, e]) => {
    const facts = e.hit;
    const recency = recencyWeight({ time: facts.time, now: input.now, halfLifeDays: preset.scoring.halfLifeDays });
    const similarity = best > 0 ? e.rrf / best : 0;
    return {
      key,
      ref: e.hit.ref,
      rrf: e.rrf,
      importance: facts.importance,
      time: facts.time,
      recency,
      lanes: e.lanes,
      score: combinedScore({ similarity, importance: facts.importance, recency, scoring: preset.scoring }),
      ...(e.snippet === undefined ? {} : { snippet: e.snippet }),
    };
  });
  return ranked.sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).slice(0, preset.topK);
}
