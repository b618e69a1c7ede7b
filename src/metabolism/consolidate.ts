import type { Entity, Transition } from '../domain/world.js';
import type { TierChange } from './plan.js';
import { utcDate } from '../domain/time.js';

/** Transitions an entity needs before summarizing it is worth a summary transition. */
export const MIN_TRANSITIONS_TO_SUMMARIZE = 3;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The summary transition that stands for an entity's detailed history once it is summarized (deterministic: the
 * change summaries condensed in order). The originals stay in the store; this one is added after them.
 */
export function summaryTransition(input: {
  /** Called only when a summary is made. */
  newId: () => string;
  entity: Entity;
  history: readonly Transition[];
  now: number;
}): Transition | null {
  const detailed = input.history.filter((t) => t.kind !== 'summary');
  if (detailed.length < MIN_TRANSITIONS_TO_SUMMARIZE) return null;
  const first = detailed[0];
  const last = detailed.at(-1);
  if (first === undefined || last === undefined) return null;
  const parts = detailed.map((t) => t.summary.trim()).filter((s) => s.length > 0);
  return {
    id: input.newId(),
    entityId: input.entity.id,
    kind: 'summary',
    fromState: first.fromState,
    toState: input.entity.state,
    summary: clip(
      `${detailed.length} changes from ${utcDate(first.eventTime)} to ${utcDate(last.eventTime)}: ${parts.join('; ')}`,
      600,
    ),
    eventTime: last.eventTime,
    recordedAt: input.now,
    confidence: 1,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  };
}

/** The archival transition recorded when an entity moves to cold storage. */
export function archivalTransition(input: { id: string; entity: Entity; change: TierChange; now: number }): Transition {
  return {
    id: input.id,
    entityId: input.entity.id,
    kind: 'archival',
    fromState: input.entity.state,
    toState: input.entity.state,
    summary: `Archived: not referenced for ${input.change.recencyDays} days, importance ${input.change.importance.toFixed(2)}.`,
    eventTime: input.now,
    recordedAt: input.now,
    confidence: 1,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  };
}
