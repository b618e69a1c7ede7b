import type { Entity, Transition, TransitionKind } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';

/** One change of an entity's state, drawn as a mark on its lane. */
export interface TimelineMark {
  id: string;
  kind: TransitionKind;
  time: number;
  summary: string;
  /** The attributes the change set (the keys of its new state). */
  attributes: string[];
  contradiction: boolean;
  unresolved: boolean;
  episodeId: string | null;
}

export interface LaneMarks {
  marks: TimelineMark[];
  /** Marks matching the filters before the cap. */
  total: number;
  /** Contradictions among them (with an attribute filter: among the drawn marks). */
  contradictions: number;
}

/** Time buckets a busy lane is sampled in: its changes spread over its whole life, not its latest few. */
const BUCKETS = 30;

export function markOf(t: Transition): TimelineMark {
  return {
    id: t.id,
    kind: t.kind,
    time: t.eventTime,
    summary: t.summary,
    attributes: Object.keys(t.toState),
    contradiction: t.kind === 'contradiction',
    unresolved: t.kind === 'contradiction' && t.resolvedBy === null,
    episodeId: t.episodeId,
  };
}

/**
 * The marks of one lane in [since, until), at most `cap`, by time. A lane with more changes than the cap keeps its
 * contradictions (up to half the cap, spread evenly) and samples the rest in time buckets, so a hub with thousands of changes costs a few small indexed
 * reads. With an attribute, the marks are the changes that set it (found from the attribute's facts).
 */
export async function laneMarks(input: {
  store: WorldStore;
  entity: Entity;
  cap: number;
  since?: number | undefined;
  until?: number | undefined;
  attribute?: string | undefined;
}): Promise<LaneMarks> {
  const { store, entity, cap } = input;
  const window = {
    entityIds: [entity.id],
    ...(input.since === undefined ? {} : { since: input.since }),
    ...(input.until === undefined ? {} : { until: input.until }),
  };
  if (input.attribute !== undefined) return attributeMarks({ ...input, attribute: input.attribute });
  const counts = await store.transitions.countByKind({ entityId: entity.id, ...window });
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const contradictions = counts.contradiction ?? 0;
  if (total <= cap) {
    return { marks: (await store.transitions.list(window)).map(markOf), total, contradictions };
  }
  // Contradictions take at most half the marks (a world with many would otherwise draw nothing else), spread evenly.
  const allFlagged = await store.transitions.list({ ...window, kind: 'contradiction' });
  const flagged = evenly(allFlagged, Math.min(allFlagged.length, Math.ceil(cap / 2)));
  const [first] = await store.transitions.list({ ...window, limit: 1 });
  const [last] = await store.transitions.list({ ...window, order: 'desc', limit: 1 });
  const room = cap - flagged.length;
  const rest: Transition[] = [];
  if (first && last && room > 0) {
    const buckets = Math.min(BUCKETS, room);
    const width = (last.eventTime + 1 - first.eventTime) / buckets;
    for (let i = 0; i < buckets; i++) {
      // Each bucket's share of the room (shares differ by one at most and add up to it).
      const per = Math.floor(((i + 1) * room) / buckets) - Math.floor((i * room) / buckets);
      const since = first.eventTime + Math.floor(i * width);
      const until = i === buckets - 1 ? last.eventTime + 1 : first.eventTime + Math.floor((i + 1) * width);
      // Contradictions are a few percent of changes: twice the share leaves room for the ones skipped here.
      const got = await store.transitions.list({ ...window, since, until, limit: per * 2 });
      rest.push(...got.filter((t) => t.kind !== 'contradiction').slice(0, per));
    }
  }
  const marks = [...flagged, ...rest].sort(byTime).map(markOf);
  return { marks, total, contradictions };
}

function byTime(a: Transition, b: Transition): number {
  return a.eventTime - b.eventTime || a.recordedAt - b.recordedAt || a.id.localeCompare(b.id);
}

/** The changes that set `attribute`: one per fact of it (sampled evenly when over the cap), found at the fact's start. */
async function attributeMarks(input: {
  store: WorldStore;
  entity: Entity;
  cap: number;
  since?: number | undefined;
  until?: number | undefined;
  attribute: string;
}): Promise<LaneMarks> {
  const { store, entity, cap, attribute } = input;
  const facts = (await store.facts.history(entity.id, attribute)).filter(
    (f) =>
      (input.since === undefined || f.validFrom >= input.since) &&
      (input.until === undefined || f.validFrom < input.until),
  );
  const sampled = facts.length <= cap ? facts : evenly(facts, cap);
  const marks: TimelineMark[] = [];
  const seen = new Set<string>();
  for (const f of sampled) {
    const at = await store.transitions.list({
      entityIds: [entity.id],
      since: f.validFrom,
      until: f.validFrom + 1,
      limit: 20,
    });
    const t = at.find((x) => attribute in x.toState && !seen.has(x.id));
    if (!t) continue;
    seen.add(t.id);
    marks.push(markOf(t));
  }
  return { marks, total: facts.length, contradictions: marks.filter((m) => m.contradiction).length };
}

/** `n` items spread evenly over `list`, in order. */
function evenly<T>(list: readonly T[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    const x = list[Math.floor(((i + 0.5) * list.length) / n)];
    if (x !== undefined) out.push(x);
  }
  return out;
}
