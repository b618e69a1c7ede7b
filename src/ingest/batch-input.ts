import type { StoredTurn } from '../domain/world.js';
import type { ExtractionBatch, BatchEpisode } from '../extract/types.js';
import type { WorldStore } from '../ports/world-store.js';
import type { NameIndex } from '../resolve/name-index.js';
import type { PlannedBatch } from './batches.js';
import { batchTexts, buildPreamble, type PreambleOptions } from './preamble.js';

/** Stored turns as an extractor sees them. */
export function toBatchTurns(turns: readonly StoredTurn[]): BatchEpisode['turns'] {
  return turns.map((t) => ({ role: t.role, text: t.text, time: t.time, ...(t.speaker ? { speaker: t.speaker } : {}) }));
}

/** A whole stored episode as an extractor sees it, or undefined when it does not exist. */
export async function loadBatchEpisode(store: WorldStore, id: string): Promise<BatchEpisode | undefined> {
  const episode = await store.episodes.get(id);
  if (!episode) return undefined;
  const turns = toBatchTurns(await store.episodes.turns(id));
  return { id: episode.id, title: episode.title, createdAt: episode.createdAt, model: episode.model, turns };
}

/**
 * A planned batch as an extractor receives it: each slice's turns (titled "part k of n" when a conversation was
 * split) and a preamble built from the world as it is now. `episode` supplies whole episodes: from the store for
 * a real run, from the not-yet-imported conversations for a dry run.
 */
export async function buildBatchInput(input: {
  store: WorldStore;
  index: NameIndex;
  planned: PlannedBatch;
  tz: string;
  episode?: (id: string) => Promise<BatchEpisode | undefined>;
  preamble?: PreambleOptions;
}): Promise<ExtractionBatch> {
  const { store, planned } = input;
  const load = input.episode ?? ((id: string) => loadBatchEpisode(store, id));
  const episodes: BatchEpisode[] = [];
  for (const slice of planned.slices) {
    const e = await load(slice.episodeId);
    if (!e) continue;
    const part = slice.parts > 1 ? ` (part ${slice.part} of ${slice.parts})` : '';
    episodes.push({ ...e, title: `${e.title}${part}`, turns: e.turns.slice(slice.fromTurn, slice.toTurn) });
  }
  const preamble = await buildPreamble({
    store,
    index: input.index,
    batchTime: planned.time,
    texts: batchTexts({ episodes }),
    ...(input.preamble ? { options: input.preamble } : {}),
  });
  return { id: planned.id, date: planned.time, tz: input.tz, episodes, preamble };
}
