import { PieError } from '../domain/errors.js';
import type { Transition } from '../domain/world.js';
import type { Observation } from '../ports/pyramid-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { clampImportance } from './lines.js';

/** Adds one observation (pie observe); importance 1–10, default 5. */
export async function observe(input: {
  store: WorldStore;
  text: string;
  importance?: number;
  time: number;
  now: number;
  newId: () => string;
  source?: string;
}): Promise<Observation> {
  const text = input.text.replace(/\s+/g, ' ').trim();
  if (text === '')
    throw new PieError(
      'INVALID_ARGUMENT',
      'The observation is empty; write one sentence, e.g. pie observe "I prefer dark mode".',
    );
  const importance = input.importance ?? 5;
  if (!Number.isInteger(importance) || importance < 1 || importance > 10) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `--importance must be a whole number from 1 to 10, not ${String(input.importance)}.`,
    );
  }
  const observation: Observation = {
    id: input.newId(),
    text,
    importance,
    modelId: null,
    entityId: null,
    episodeId: null,
    eventTime: input.time,
    recordedAt: input.now,
    source: input.source ?? 'manual',
  };
  await input.store.pyramid.addObservation(observation);
  return observation;
}

/** Importance of a world transition as an observation: contradictions are notable, maintenance records are skipped. */
const KIND_IMPORTANCE: Partial<Record<string, number>> = {
  creation: 5,
  update: 6,
  contradiction: 7,
  resolution: 6,
};

/** The observation a transition of the world model stands for, or null for maintenance records. Pure. */
export function observationFromTransition(t: Transition, entityName: string, now: number): Observation | null {
  const base = KIND_IMPORTANCE[t.kind];
  if (base === undefined || t.summary.trim() === '') return null;
  const summary = t.summary.replace(/\s+/g, ' ').trim();
  const text = summary.toLowerCase().includes(entityName.toLowerCase()) ? summary : `${entityName}: ${summary}`;
  return {
    id: `obs-transition-${t.id}`,
    text,
    importance: clampImportance(base + (t.confidence >= 0.9 ? 1 : 0)),
    modelId: null,
    entityId: t.entityId,
    episodeId: t.episodeId,
    eventTime: t.eventTime,
    recordedAt: now,
    source: 'world',
  };
}

/**
 * Observations derived from the world model's transitions (what ingestion learned), one per transition with a
 * stable id, so running it again adds only what is new. Returns how many were added.
 */
export async function observeWorld(input: { store: WorldStore; now: number; pageSize?: number }): Promise<number> {
  const { store } = input;
  const transitions = await store.transitions.list({ order: 'asc' });
  const names = new Map<string, string>();
  let added = 0;
  for (const t of transitions) {
    let name = names.get(t.entityId);
    if (name === undefined) {
      name = (await store.entities.get(t.entityId))?.name ?? 'something';
      names.set(t.entityId, name);
    }
    const o = observationFromTransition(t, name, input.now);
    if (o && (await store.pyramid.addObservation(o))) added += 1;
  }
  return added;
}
