import type { EntityMention } from '../../../ports/world-store.js';
import { entityPeriods as periodsOf } from '../../../world/entity-periods.js';
import type { EntityTimeline } from '../../../world/timeline.js';
import { iso } from '../route.js';

/** An entity's periods as the API returns them (times as ISO strings); the rules are in world/entity-periods.ts. */
export interface EntityPeriodOut {
  id: string;
  name: string;
  start: string;
  end: string | null;
  ongoing: boolean;
  during: boolean;
  mentions: number;
  changes: number;
}

export function entityPeriods(input: {
  timeline: EntityTimeline;
  mentions: readonly EntityMention[];
  now: number;
}): EntityPeriodOut[] {
  return periodsOf(input).map((p) => ({ ...p, start: iso(p.start), end: iso(p.end) }));
}
