import type { LaneResult } from '../types.js';
import { DEFAULT_IMPORTANCE, type LaneInput } from './types.js';

/** Safety net: the latest conversations before now, whatever the question says. */
export async function recentLane(input: LaneInput): Promise<LaneResult> {
  if (input.settings.limit === 0) return { lane: 'recent', hits: [], skipped: 'off for this intent' };
  const episodes = await input.store.episodes.list({
    until: input.now + 1,
    order: 'desc',
    limit: input.settings.limit,
  });
  return {
    lane: 'recent',
    hits: episodes.map((e) => ({
      ref: { kind: 'episode' as const, id: e.id },
      time: e.createdAt,
      importance: e.significance ?? DEFAULT_IMPORTANCE,
    })),
  };
}
