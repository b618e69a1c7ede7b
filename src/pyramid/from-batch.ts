import { createHash } from 'node:crypto';
import type { Transition } from '../domain/world.js';
import type { ExtractedObservation, ExtractionResult } from '../extract/result.js';
import type { Observation } from '../ports/pyramid-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { normalizeName } from '../resolve/normalize.js';
import type { Mutation } from '../world/apply/mutations.js';
import { clampImportance } from './lines.js';
import { observationFromTransition } from './observe.js';

/**
 * Observations of one applied extraction batch (ingest, `pie apply`, ingest_episode): one per transition it recorded,
 * derived exactly as `pie observe --from-world` does (same ids, so that command and `pie summarize` add none of them
 * again), plus the observations the extractor wrote itself, with ids from the batch and their text, so applying the
 * same result twice adds nothing. Pure.
 */
export function batchObservations(input: {
  batchId: string;
  /** The transitions the batch recorded. */
  transitions: readonly Transition[];
  /** The observations the extraction carried (optional in ExtractionResult). */
  extracted: readonly ExtractedObservation[];
  /** Entity id → name, for the transitions' entities. */
  names: ReadonlyMap<string, string>;
  /** The entity an `about` name stands for in the world after the batch (null when none). */
  entityByName: (name: string) => string | null;
  /** The batch's episodes (an extracted observation's episode must be one of them) and their times. */
  episodeTimes: ReadonlyMap<string, number>;
  batchTime: number;
  recordedAt: number;
}): Observation[] {
  const out: Observation[] = [];
  for (const t of input.transitions) {
    const o = observationFromTransition(t, input.names.get(t.entityId) ?? 'something', input.recordedAt);
    if (o) out.push(o);
  }
  const firstEpisode = [...input.episodeTimes.keys()][0] ?? null;
  for (const x of input.extracted) {
    const text = x.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const episodeId = x.episodeId !== undefined && input.episodeTimes.has(x.episodeId) ? x.episodeId : firstEpisode;
    const stated = x.eventTime === undefined ? NaN : Date.parse(x.eventTime);
    const eventTime = Number.isFinite(stated)
      ? stated
      : ((episodeId === null ? undefined : input.episodeTimes.get(episodeId)) ?? input.batchTime);
    const digest = createHash('sha256')
      .update(`${input.batchId}\n${episodeId ?? ''}\n${text}`)
      .digest('hex');
    out.push({
      id: `obs-extract-${digest.slice(0, 24)}`,
      text,
      importance: clampImportance(x.importance),
      modelId: null,
      entityId: x.about === undefined ? null : input.entityByName(x.about),
      episodeId,
      eventTime,
      recordedAt: input.recordedAt,
      source: 'extraction',
    });
  }
  return out;
}

/**
 * Records the observations of an applied batch inside its transaction (the apply step's checkpoint): names of the
 * changed entities and `about` names are looked up in the world as it stands after the batch. Returns how many were
 * new.
 */
export async function recordBatchObservations(input: {
  tx: WorldStore;
  result: ExtractionResult;
  mutations: readonly Mutation[];
  /** The batch's episodes that exist, with their times (as the apply step read them). */
  episodeTimes: ReadonlyMap<string, number>;
  recordedAt: number;
}): Promise<number> {
  const { tx, result } = input;
  const transitions = input.mutations.flatMap((m) => (m.op === 'transition.insert' ? [m.transition] : []));
  const extracted = result.observations ?? [];
  if (transitions.length === 0 && extracted.length === 0) return 0;
  const names = new Map<string, string>();
  for (const m of input.mutations) if (m.op === 'entity.insert') names.set(m.entity.id, m.entity.name);
  for (const t of transitions) {
    if (!names.has(t.entityId)) names.set(t.entityId, (await tx.entities.get(t.entityId))?.name ?? 'something');
  }
  const about = new Map<string, string | null>();
  for (const x of extracted) {
    if (x.about === undefined || about.has(x.about)) continue;
    const found = await tx.entities.findByKey(normalizeName(x.about));
    about.set(x.about, found.sort((a, b) => b.importance - a.importance)[0]?.id ?? null);
  }
  const observations = batchObservations({
    batchId: result.batch.id,
    transitions,
    extracted,
    names,
    entityByName: (name) => about.get(name) ?? null,
    episodeTimes: input.episodeTimes,
    batchTime: Date.parse(result.batch.date),
    recordedAt: input.recordedAt,
  });
  let added = 0;
  for (const o of observations) if (await tx.pyramid.addObservation(o)) added += 1;
  return added;
}
