import type { Entity, Period } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import { resolvePeriod } from '../world-at/span.js';
import { laneMarks, type TimelineMark } from './marks.js';

export type { TimelineMark } from './marks.js';

/** A life period drawn as a band; `row` stacks overlapping periods (0 = top). */
export interface TimelineBand {
  id: string;
  name: string;
  start: number;
  end: number | null;
  ongoing: boolean;
  row: number;
}

export interface TimelineLane {
  entity: Pick<Entity, 'id' | 'name' | 'type' | 'importance' | 'tier'>;
  firstSeen: number;
  lastSeen: number;
  /** At most `marksPerLane`, by time: contradictions (up to half), then changes sampled over the lane's life. */
  marks: TimelineMark[];
  /** The marks that matched the filters before the cap. */
  marksTotal: number;
  contradictions: number;
}

export interface LifeTimeline {
  /** The drawn range: the periods, the lanes and their marks (the filter's period alone when one is given). */
  start: number;
  end: number;
  periods: TimelineBand[];
  lanes: TimelineLane[];
  /** The period the view is limited to, when one was asked for. */
  period: TimelineBand | null;
  /** Attributes in the state of the entities considered, most common first (for the attribute filter). */
  attributes: { name: string; count: number }[];
  /** Entity types in the world, most common first (for the kind filter; periods are bands, not lanes). */
  types: { type: string; count: number }[];
  /** How many of the most important entities were considered for the lanes. */
  considered: number;
}

export interface LifeTimelineInput {
  store: WorldStore;
  now: number;
  /** Lanes: the most important entities (1–100). */
  limit: number;
  /** Marks drawn per lane. */
  marksPerLane: number;
  type?: string | undefined;
  attribute?: string | undefined;
  /** A period name (tolerant matching; NOT_FOUND with the closest names otherwise). */
  period?: string | undefined;
}

/** With an attribute filter, lanes are looked for among this many times `limit` of the most important entities. */
const ATTRIBUTE_POOL = 5;

/**
 * The life timeline: the periods as bands, the most important entities (not periods) as lanes, and their state
 * changes as marks. A period filter keeps the entities that changed inside it and the marks inside it; a kind filter
 * keeps one entity type; an attribute filter keeps the marks that set it and the lanes that have one. Bounded reads:
 * one list of entities, one query for the lanes' transitions, whatever the size of the world.
 */
export async function buildLifeTimeline(input: LifeTimelineInput): Promise<LifeTimeline> {
  const { store, now, limit } = input;
  const periodsList = await store.periods.list();
  const bands = stackBands(periodsList, now);
  const span = input.period ? resolvePeriod({ text: input.period, periods: periodsList, now }) : null;
  const focus = span ? (bands.find((b) => b.id === span.periodId) ?? null) : null;
  const pool = input.attribute ? limit * ATTRIBUTE_POOL : limit;
  const stats = await store.stats();

  const candidates = span
    ? await changedDuring(store, span.start, span.end, input.type, pool)
    : (
        await store.entities.list({
          orderBy: 'importance',
          excludeMerged: true,
          // Period entities rank with the rest but are bands: read past as many as exist (some have no period row).
          limit: pool + (input.type ? 0 : (stats.entitiesByType.period ?? 0)),
          ...(input.type ? { type: input.type } : {}),
        })
      )
        .filter((e) => e.type !== 'period')
        .slice(0, pool);

  const lanes: TimelineLane[] = [];
  for (const e of candidates) {
    const lane = await laneMarks({
      store,
      entity: e,
      cap: input.marksPerLane,
      since: span?.start,
      until: span?.end,
      attribute: input.attribute,
    });
    if (input.attribute && lane.total === 0) continue;
    lanes.push({
      entity: { id: e.id, name: e.name, type: e.type, importance: e.importance, tier: e.tier },
      firstSeen: e.firstSeen,
      lastSeen: e.lastSeen,
      marks: lane.marks,
      marksTotal: lane.total,
      contradictions: lane.contradictions,
    });
    if (lanes.length === limit) break;
  }

  const types = Object.entries(stats.entitiesByType)
    .filter(([type]) => type !== 'period')
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
  const attributeCounts = new Map<string, number>();
  for (const e of candidates)
    for (const a of Object.keys(e.state)) attributeCounts.set(a, (attributeCounts.get(a) ?? 0) + 1);
  const attributes = [...attributeCounts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  const range = span ? { start: span.start, end: span.end } : extent(bands, lanes, now);
  return { ...range, periods: bands, lanes, period: focus, attributes, types, considered: candidates.length };
}

/** Entities (not periods) with changes in [since, until), most important first. */
async function changedDuring(
  store: WorldStore,
  since: number,
  until: number,
  type: string | undefined,
  pool: number,
): Promise<Entity[]> {
  const counts = await store.transitions.countByEntity({ since, until });
  const entities = await store.entities.getMany(counts.map((c) => c.entityId));
  return entities
    .filter((e) => e.type !== 'period' && (type === undefined || e.type === type))
    .sort((a, b) => b.importance - a.importance || b.lastSeen - a.lastSeen || a.id.localeCompare(b.id))
    .slice(0, pool);
}

/** Periods in time order, each on the first row where it overlaps no earlier band. */
export function stackBands(periods: readonly Period[], now: number): TimelineBand[] {
  const rowEnds: number[] = [];
  return [...periods]
    .sort((a, b) => a.start - b.start || a.name.localeCompare(b.name))
    .map((p) => {
      const end = p.end ?? Math.max(p.start, now);
      let row = rowEnds.findIndex((e) => e <= p.start);
      if (row < 0) row = rowEnds.length;
      rowEnds[row] = end;
      return { id: p.entityId, name: p.name, start: p.start, end: p.end, ongoing: p.end === null || p.end > now, row };
    });
}

function extent(
  bands: readonly TimelineBand[],
  lanes: readonly TimelineLane[],
  now: number,
): { start: number; end: number } {
  const starts = [...bands.map((b) => b.start), ...lanes.flatMap((l) => l.marks.map((m) => m.time))];
  const ends = [
    ...bands.map((b) => b.end ?? Math.min(now, Math.max(b.start, now))),
    ...lanes.flatMap((l) => l.marks.map((m) => m.time)),
  ];
  if (starts.length === 0) return { start: now - 365 * 86_400_000, end: now };
  const start = Math.min(...starts);
  const end = Math.max(...ends);
  return end > start ? { start, end } : { start: start - 86_400_000, end: start + 86_400_000 };
}
