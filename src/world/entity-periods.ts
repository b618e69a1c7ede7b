import { periodName } from '../compile/time-format.js';
import type { Period } from '../domain/world.js';
import type { EntityMention } from '../ports/world-store.js';
import type { EntityTimeline } from './timeline.js';

export interface EntityPeriod {
  id: string;
  name: string;
  start: number;
  end: number | null;
  ongoing: boolean;
  /** The entity has a DURING edge to this period: it was first seen in it (extraction links new entities so). */
  during: boolean;
  /** Conversations that mention the entity inside the period. */
  mentions: number;
  /** Changes of its state (transitions other than its creation) inside the period. */
  changes: number;
}

/**
 * The life periods an entity belongs to or was active in: the one its DURING edges name, and every period its
 * mentions and changes fall in. A time falls in the period the timeline narrative names for it ("during junior year
 * at UMD": `periodName`, the latest-starting period that contains it), so the page and the narrative agree.
 * In time order.
 */
export function entityPeriods(input: {
  timeline: EntityTimeline;
  mentions: readonly EntityMention[];
  now: number;
}): EntityPeriod[] {
  const { timeline, now } = input;
  const byName = new Map<string, Period>();
  for (const p of timeline.periods) if (!byName.has(p.name)) byName.set(p.name, p);
  const byId = new Map(timeline.periods.map((p) => [p.entityId, p]));
  const rows = new Map<string, { period: Period; during: boolean; mentions: number; changes: number }>();
  const row = (p: Period) => {
    let r = rows.get(p.entityId);
    if (!r) rows.set(p.entityId, (r = { period: p, during: false, mentions: 0, changes: 0 }));
    return r;
  };
  const at = (time: number): Period | undefined => {
    const name = periodName(timeline.periods, time);
    return name === null ? undefined : byName.get(name);
  };
  for (const r of timeline.relationships) {
    const p = r.direction === 'out' && r.relationship.type === 'DURING' ? byId.get(r.other.id) : undefined;
    if (p) row(p).during = true;
  }
  for (const m of input.mentions) {
    const p = at(m.time);
    if (p) row(p).mentions++;
  }
  for (const t of timeline.transitions) {
    const p = t.kind === 'creation' ? undefined : at(t.eventTime);
    if (p) row(p).changes++;
  }
  return [...rows.values()]
    .filter((r) => r.period.entityId !== timeline.entity.id)
    .sort((a, b) => a.period.start - b.period.start)
    .map((r) => ({
      id: r.period.entityId,
      name: r.period.name,
      start: r.period.start,
      end: r.period.end,
      ongoing: r.period.end === null || r.period.end > now,
      during: r.during,
      mentions: r.mentions,
      changes: r.changes,
    }));
}
