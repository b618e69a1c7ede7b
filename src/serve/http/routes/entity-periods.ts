import type { EntityMention } from '../../../ports/world-store.js';
import { entityPeriods as periodsOf, type EntityPeriod } from '../../../world/entity-periods.js';
import type { EntityTimeline } from '../../../world/timeline.js';
import { iso } from '../route.js';

/** An entity's periods as the API returns them (times as ISO strings); the rules are in world/entity-periods.ts. */
export type EntityPeriodOut = Omit<EntityPeriod, 'start' | 'end'> & { start: string; end: string | null };

export function entityPeriods(input: {
  timeline: EntityTimeline;
  mentions: readonly EntityMention[];
  now: number;
}): EntityPeriodOut[] {
  return periodsOf(input).map((p) => ({ ...p, start: iso(p.start), end: iso(p.end) }));
}
