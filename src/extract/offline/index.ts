/**
 * The offline extractor: deterministic rules over the user's own words, no network and no model (DESIGN.md §6).
 * Lower quality than an LLM by design, but it builds a recognizable world model: projects and their stages, people
 * and roles, tools adopted and dropped, beliefs and their reversals, decisions with reasons and alternatives,
 * commitments, preferences, places and life periods. See docs/offline-extractor.md.
 */
import { extractionResultSchema, type ExtractionResult } from '../result.js';
import { ZERO_USAGE, type ExtractionBatch, type Extractor } from '../types.js';
import { analyzeEpisodes } from './analyze.js';
import { assemble, SELF_NAME } from './assemble.js';
import { discover } from './discover.js';
import { loadSpanTagger, type SpanTagger } from './nlp.js';
import { episodeSentences } from './sentences.js';

export { SELF_NAME } from './assemble.js';

export const OFFLINE_EXTRACTOR_LABEL = 'offline-rules@1';

/** Extracts one batch with a given tagger (null: patterns and gazetteer only). Pure and synchronous. */
export function extractOffline(batch: ExtractionBatch, tagger: SpanTagger | null): ExtractionResult {
  const episodes = batch.episodes.map((episode) => ({ episode, sentences: episodeSentences(episode, SELF_NAME) }));
  const sentences = episodes.flatMap((e) => e.sentences);
  const discovery = discover({ sentences, preamble: batch.preamble, tagger, anonymousSelf: SELF_NAME });
  const analyses = analyzeEpisodes({
    episodes,
    registry: discovery.registry,
    preamble: batch.preamble,
    tz: batch.tz,
    tagger,
  });
  return extractionResultSchema.parse(assemble({ batch, discovery, analyses }));
}

export function createOfflineExtractor(): Extractor {
  return {
    kind: 'offline',
    label: OFFLINE_EXTRACTOR_LABEL,
    async extract({ batch, signal }) {
      signal?.throwIfAborted();
      const tagger = await loadSpanTagger();
      signal?.throwIfAborted();
      return { result: extractOffline(batch, tagger), usage: { ...ZERO_USAGE } };
    },
  };
}
