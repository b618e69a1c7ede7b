import type { Episode, Transition } from '../../domain/world.js';
import { questionKeywords } from '../keywords.js';
import type { LaneHit, LaneResult } from '../types.js';
import { DEFAULT_IMPORTANCE, type LaneInput } from './types.js';

/** Rows read per range before ranking; a year of a heavy user's history is a few hundred conversations. */
const SCAN = 400;

/**
 * Everything the question's time references cover (explicit dates, seasons, vague anchors, period names): the
 * entities most active then, the transitions and conversations in the range, ranked by how many of the question's
 * words they share, then by significance. Without a time reference the lane is skipped.
 */
export async function temporalLane(input: LaneInput): Promise<LaneResult> {
  const { store, plan, settings } = input;
  if (plan.timeRanges.length === 0) return { lane: 'temporal', hits: [], skipped: 'no time reference in the question' };
  if (settings.limit === 0) return { lane: 'temporal', hits: [], skipped: 'off for this intent' };
  const words = questionKeywords(plan.question).map((w) => w.toLowerCase());
  const perRange = Math.max(1, Math.ceil(settings.limit / plan.timeRanges.length));
  const hits: LaneHit[] = [];
  for (const range of plan.timeRanges) {
    const window = { since: range.start, until: range.end };
    const [episodes, general, named, active] = await Promise.all([
      store.episodes.list({ ...window, limit: SCAN }),
      store.transitions.list({ ...window, limit: SCAN }),
      plan.entityIds.length > 0
        ? store.transitions.list({ ...window, entityIds: plan.entityIds, limit: SCAN })
        : Promise.resolve([]),
      store.mentions.activeBetween({ ...window, limit: perRange }),
    ]);
    const transitions = [...new Map([...named, ...general].map((t) => [t.id, t])).values()];
    const entities = await store.entities.getMany(active.map((a) => a.entityId));
    const entityHits: LaneHit[] = entities.map((e) => ({
      ref: { kind: 'entity', id: e.id },
      time: e.lastSeen,
      importance: e.importance,
    }));
    const ranked = [
      ...rankEpisodes(episodes, words).map((e): LaneHit => ({
        ref: { kind: 'episode', id: e.id },
        time: e.createdAt,
        importance: e.significance ?? DEFAULT_IMPORTANCE,
      })),
    ];
    const transitionHits = rankTransitions(transitions, words, plan.entityIds).map((t): LaneHit => ({
      ref: { kind: 'transition', id: t.id },
      time: t.eventTime,
      importance: t.confidence,
    }));
    hits.push(...interleave([ranked, transitionHits, entityHits]).slice(0, perRange));
  }
  return { lane: 'temporal', hits };
}

function overlap(text: string, words: readonly string[]): number {
  const lower = text.toLowerCase();
  let n = 0;
  for (const w of words) if (lower.includes(w)) n++;
  return n;
}

function rankEpisodes(episodes: Episode[], words: readonly string[]): Episode[] {
  return episodes
    .map((e) => ({ e, s: overlap(`${e.title} ${e.summary ?? ''}`, words) + (e.significance ?? 0) }))
    .sort((a, b) => b.s - a.s || a.e.createdAt - b.e.createdAt)
    .map((x) => x.e);
}

function rankTransitions(transitions: Transition[], words: readonly string[], entityIds: string[]): Transition[] {
  const named = new Set(entityIds);
  return transitions
    .map((t) => ({ t, s: overlap(t.summary, words) + (named.has(t.entityId) ? 2 : 0) + t.confidence }))
    .sort((a, b) => b.s - a.s || a.t.eventTime - b.t.eventTime)
    .map((x) => x.t);
}

/** Round-robin over ranked lists, so no single kind crowds out the others. */
export function interleave<T>(lists: readonly T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) out.push(l[i] as T);
  return out;
}
