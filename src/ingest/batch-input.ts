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

/** Loads a planned batch's turns and builds its preamble from the world as it is now. */
export async function buildBatchInput(input: {
  store: WorldStore;
  index: NameIndex;
  planned: PlannedBatch;
  tz: string;
  preamble?: PreambleOptions;
}): Promise<ExtractionBatch> {
  const { store, planned } = input;
  const episodes: BatchEpisode[] = [];
  for (const slice of planned.slices) {
    const episode = await store.episodes.get(slice.episodeId);
    if (!episode) continue;
    const turns = (await store.episodes.turns(slice.episodeId)).slice(slice.fromTurn, slice.toTurn);
    const part = slice.parts > 1 ? ` (part ${slice.part} of ${slice.parts})` : '';
    episodes.push({
      id: episode.id,
      title: `${episode.title}${part}`,
      createdAt: episode.createdAt,
      model: episode.model,
      turns: toBatchTurns(turns),
    });
  }
  const partial = { episodes };
  const preamble = await buildPreamble({
    store,
    index: input.index,
    batchTime: planned.time,
    texts: batchTexts(partial),
    ...(input.preamble ? { options: input.preamble } : {}),
  });
  return { id: planned.id, date: planned.time, tz: input.tz, episodes, preamble };
}
