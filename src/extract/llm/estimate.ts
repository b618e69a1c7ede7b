import { toModelJsonSchema } from '../../llm/prompt.js';
import type { Tokenizer } from '../../ports/tokenizer.js';
import type { ExtractionBatch } from '../types.js';
import { EXTRACT_MAX_OUTPUT_TOKENS, renderExtractionPrompt } from './prompt.js';
import type { RenderOptions } from './render.js';
import { extractionOutputSchema } from './schema.js';

/** Chat formats add a few tokens per message (role markers); OpenAI documents about 3–4. */
const TOKENS_PER_MESSAGE = 4;

export interface ExtractionTokenEstimate {
  /** Tokens of the rendered messages: exact for the tokenizer's model family, an estimate for others. */
  promptTokens: number;
  /** Tokens of the JSON Schema sent for structured output (providers count it as input). */
  schemaTokens: number;
  /** promptTokens + schemaTokens. */
  inputTokens: number;
  /**
   * A rough guess of the answer's size (300 + 150 per conversation + 8 % of the prompt, capped at the output
   * limit); reasoning models spend more on thinking. Only for `--dry-run` cost ranges.
   */
  outputTokensGuess: number;
}

const schemaTokenCache = new WeakMap<Tokenizer, number>();

/** The schema never changes: count its tokens once per tokenizer. */
function schemaTokenCount(tokenizer: Tokenizer): number {
  let n = schemaTokenCache.get(tokenizer);
  if (n === undefined) {
    n = tokenizer.count(JSON.stringify(toModelJsonSchema(extractionOutputSchema)));
    schemaTokenCache.set(tokenizer, n);
  }
  return n;
}

/** Count the tokens an extract-batch call would send, without calling a model (for `--dry-run`). */
export function estimateExtractionTokens(input: {
  batch: ExtractionBatch;
  tokenizer: Tokenizer;
  options?: RenderOptions;
}): ExtractionTokenEstimate {
  const messages = renderExtractionPrompt(input.batch, input.options ?? {});
  const promptTokens = messages.reduce((sum, m) => sum + input.tokenizer.count(m.content) + TOKENS_PER_MESSAGE, 0);
  const schemaTokens = schemaTokenCount(input.tokenizer);
  const outputTokensGuess = Math.min(
    EXTRACT_MAX_OUTPUT_TOKENS,
    Math.round(300 + 150 * input.batch.episodes.length + 0.08 * promptTokens),
  );
  return { promptTokens, schemaTokens, inputTokens: promptTokens + schemaTokens, outputTokensGuess };
}
