import type { Episode, Transition } from '../../domain/world.js';
import { questionKeywords } from '../keywords.js';
import type { LaneHit, LaneResult } from '../types.js';
import { DEFAULT_IMPORTANCE, type LaneInput } from './types.js';

/** Rows read per range before ranking; a year of a heavy user's history is a few hundred conversations. */
const SCAN = 400;
const DAY = 86_400_000;
/** Ranges longer than this are sampled for activity (start, middle and end windows of SAMPLE_DAYS each). */
const FULL_SCAN_DAYS = 120;
const SAMPLE_DAYS = 30;

/**
 * The entities mentioned most in a range. Counting mentions over a whole year of a heavy history is the costliest
 * query of a question, so long ranges are sampled at their start, middle and end.
 */
async function mostActive(input: {
  store: LaneInput['store'];
  range: { start: number; end: number };
  limit: number;
}): Promise<{ entityId: string }[]> {
  const windows = activityWindows(input.range);
  if (windows.length === 1) return input.store.mentions.activeBetween({ ...windows[0]!, limit: input.limit });
  const counts = new Map<string, number>();
  // The windows are read side by side (a server store runs them at once), then counted in order.
  const perWindow = await Promise.all(
    windows.map((w) => input.store.mentions.activeBetween({ ...w, limit: input.limit * 2 })),
  );
  for (const active of perWindow) {
    for (const a of active) counts.set(a.entityId, (counts.get(a.entityId) ?? 0) + a.mentions);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, input.limit)
    .map(([entityId]) => ({ entityId }));
}

/**
 * Pure: the windows activity is counted in — the range itself, or three samples of a long one. Times stay whole
 * milliseconds (the middle of a range an odd number of milliseconds long is rounded down), as every stored time is.
 */
export function activityWindows(range: { start: number; end: number }): { since: number; until: number }[] {
  const { start, end } = range;
  if (end - start <= FULL_SCAN_DAYS * DAY) return [{ since: start, until: end }];
  const half = (SAMPLE_DAYS * DAY) / 2;
  const mid = start + Math.floor((end - start) / 2);
  return [
    { since: start, until: start + SAMPLE_DAYS * DAY },
    { since: mid - half, until: mid + half },
    { since: end - SAMPLE_DAYS * DAY, until: end },
  ];
}

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
      mostActive({ store: input.store, range, limit: perRange }),
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
    const changes = rankTransitions(transitions, words, plan.entityIds).slice(0, perRange);
    // As in the lexical lane: a change is as important as its entity, discounted by how sure it is.
    const owners = new Map(
      (await store.entities.getMany([...new Set(changes.map((t) => t.entityId))])).map((e) => [e.id, e.importance]),
    );
    const transitionHits = changes.map((t): LaneHit => ({
      ref: { kind: 'transition', id: t.id },
      time: t.eventTime,
      importance: (owners.get(t.entityId) ?? DEFAULT_IMPORTANCE) * t.confidence,
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
