import { PlanContext, type PlanInput } from './context.js';
import type { Mutation } from './mutations.js';
import { planBeliefs, planDecisions } from './plan-beliefs.js';
import { planAnnotations, planLocations, planPeriod, planStatedPeriods } from './plan-period.js';
import { OpenEdges, planRelationships } from './plan-relationships.js';
import { planEntities, planStateChanges } from './plan-state.js';
import { WorkingSet, type WorldSlice } from './working-set.js';

/**
 * Applying an ExtractionResult, as a pure function: the resolved names, the slice of the world the batch touches,
 * and the result in; the mutations that record it out. The order matters and is part of the rules:
 * 1. new declared entities are created with their state (creation transitions);
 * 2. state changes become update/contradiction transitions and supersede facts;
 * 3. known declared entities get one update transition for attributes that still differ;
 * 4. beliefs (with reversals), decisions (ABOUT their subjects), relationships and actions (versioned edges);
 * 5. locations, the period (with DURING links for entities first seen here, and for those whose first mention moved
 *    here, which lose a link to another period), other periods with a stated start,
 *    episode annotations.
 */
export function planApply(input: PlanInput, slice: WorldSlice): Mutation[] {
  const ws = new WorkingSet({
    slice,
    recordedAt: input.recordedAt,
    newId: input.newId,
    batchId: input.result.batch.id,
  });
  const ctx = new PlanContext(input, ws);
  const edges = new OpenEdges(slice.relationships, slice.ended ?? [], slice.history ?? []);

  planEntities(ctx, 'new');
  planStateChanges(ctx);
  planEntities(ctx, 'existing');
  planBeliefs(ctx, edges);
  planDecisions(ctx, edges);
  planRelationships(ctx, edges);
  planLocations(ctx);
  planPeriod(ctx, edges, slice, { newIds: ws.newIds(), movedIds: ws.movedIds() });
  planStatedPeriods(ctx, slice.periods);
  planAnnotations(ctx);
  return ws.finish();
}
