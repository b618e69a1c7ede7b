import { isoString } from '../../domain/time.js';
import type { LlmClient } from '../../llm/types.js';
import type { ExtractionResult } from '../result.js';
import type { ExtractionBatch, Extractor, ExtractorOutput } from '../types.js';
import { createExtractBatchPrompt } from './prompt.js';
import { episodeRef, type RenderOptions } from './render.js';
import type { ExtractionOutput } from './schema.js';

export interface LlmExtractorOptions extends RenderOptions {
  client: LlmClient;
}

/**
 * Resolves the conversation ids the model wrote ("c2", or a real id echoed back) to episode ids of the batch.
 * An id that names no conversation of the batch is dropped (the item then belongs to the batch's first episode,
 * per the ExtractionResult contract); in a one-conversation batch every item belongs to that conversation.
 */
function episodeResolver(batch: ExtractionBatch): (id: string | undefined) => string | undefined {
  const ids = new Map<string, string>();
  batch.episodes.forEach((episode, index) => {
    ids.set(episodeRef(index), episode.id);
    ids.set(episode.id, episode.id);
  });
  const only = batch.episodes.length === 1 ? batch.episodes[0]?.id : undefined;
  return (id) => (id === undefined ? only : (ids.get(id.trim()) ?? ids.get(id.trim().toLowerCase()) ?? only));
}

function withEpisode<T extends { episodeId?: string | undefined }>(
  items: T[],
  resolve: (id: string | undefined) => string | undefined,
): T[] {
  return items.map((item) => {
    const episodeId = resolve(item.episodeId);
    const { episodeId: _dropped, ...rest } = item;
    return (episodeId === undefined ? rest : { ...rest, episodeId }) as T;
  });
}

/** The model's answer plus what code decides: the batch identity and the episode ids. */
export function finalizeExtraction(input: { batch: ExtractionBatch; output: ExtractionOutput }): ExtractionResult {
  const { batch, output } = input;
  const resolve = episodeResolver(batch);
  const seen = new Set<string>();
  const episodes = output.episodes.flatMap((annotation) => {
    const id = resolve(annotation.id);
    if (id === undefined || seen.has(id)) return [];
    seen.add(id);
    return [{ ...annotation, id }];
  });
  return {
    ...output,
    batch: { id: batch.id, date: isoString(batch.date), episodeIds: batch.episodes.map((e) => e.id) },
    entities: withEpisode(output.entities, resolve),
    relationships: withEpisode(output.relationships, resolve),
    stateChanges: withEpisode(output.stateChanges, resolve),
    beliefs: withEpisode(output.beliefs, resolve),
    decisions: withEpisode(output.decisions, resolve),
    actions: withEpisode(output.actions, resolve),
    ...(output.observations ? { observations: withEpisode(output.observations, resolve) } : {}),
    episodes,
  };
}

/**
 * The LLM extractor: one `extract-batch` call per batch through the LlmClient (cached, validated, retried,
 * accounted). A twice-invalid answer surfaces as PieError LLM_INVALID_OUTPUT so the ingest marks the batch failed
 * with its reason; nothing is silently emptied.
 */
export function createLlmExtractor(options: LlmExtractorOptions): Extractor {
  const { client } = options;
  const prompt = createExtractBatchPrompt(
    options.clipAssistantChars === undefined ? {} : { clipAssistantChars: options.clipAssistantChars },
  );
  return {
    kind: 'llm',
    label: client.label,
    async extract(input): Promise<ExtractorOutput> {
      const { object, usage } = await client.generate({
        prompt,
        input: input.batch,
        ...(input.signal === undefined ? {} : { signal: input.signal }),
      });
      return { result: finalizeExtraction({ batch: input.batch, output: object }), usage };
    },
  };
}
