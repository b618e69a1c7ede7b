export { estimateExtractionTokens, type ExtractionTokenEstimate } from './estimate.js';
export { createLlmExtractor, finalizeExtraction, type LlmExtractorOptions } from './extractor.js';
export { SUGGESTED_RELATIONSHIP_TYPES, extractionInstructions } from './instructions.js';
export {
  EXTRACT_BATCH_PROMPT,
  EXTRACT_MAX_OUTPUT_TOKENS,
  createExtractBatchPrompt,
  renderExtractionPrompt,
} from './prompt.js';
export { DEFAULT_CLIP_ASSISTANT_CHARS, episodeRef, relativeBefore, type RenderOptions } from './render.js';
export { extractionOutputSchema, type ExtractionOutput } from './schema.js';
