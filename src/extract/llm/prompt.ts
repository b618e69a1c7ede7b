import { PieError } from '../../domain/errors.js';
import { definePrompt, type PromptModule } from '../../llm/prompt.js';
import type { ModelMessage } from '../../ports/llm.js';
import type { ExtractionBatch } from '../types.js';
import { extractionInstructions } from './instructions.js';
import { DEFAULT_CLIP_ASSISTANT_CHARS, renderBatch, type RenderOptions } from './render.js';
import { extractionOutputSchema, type ExtractionOutput } from './schema.js';

export const EXTRACT_BATCH_PROMPT = { name: 'extract-batch', version: 3 } as const;

/**
 * A cap, not a target: reasoning models (gpt-5*) spend part of it thinking, and an answer cut off at the cap is
 * invalid JSON, so it is generous.
 */
export const EXTRACT_MAX_OUTPUT_TOKENS = 16_000;

export function checkClip(value: number | null | undefined): number | null {
  if (value === undefined) return DEFAULT_CLIP_ASSISTANT_CHARS;
  if (value === null) return null;
  if (!Number.isInteger(value) || value < 0) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `The assistant-turn clip length must be a whole number of characters ≥ 0 (or none), not ${value}.`,
    );
  }
  return value;
}

/** The messages of extract-batch for a batch: the extraction rules, then the known world and the conversations. */
export function renderExtractionPrompt(batch: ExtractionBatch, options: RenderOptions = {}): ModelMessage[] {
  const clipAssistantChars = checkClip(options.clipAssistantChars);
  return [
    { role: 'system', content: extractionInstructions() },
    { role: 'user', content: renderBatch({ batch, options: { clipAssistantChars } }) },
  ];
}

/** The extract-batch prompt module (version 1). Clipping changes the rendered text and thus the cache key. */
export function createExtractBatchPrompt(options: RenderOptions = {}): PromptModule<ExtractionBatch, ExtractionOutput> {
  const clipAssistantChars = checkClip(options.clipAssistantChars);
  return definePrompt({
    ...EXTRACT_BATCH_PROMPT,
    schema: extractionOutputSchema,
    maxOutputTokens: EXTRACT_MAX_OUTPUT_TOKENS,
    render: (batch: ExtractionBatch) => renderExtractionPrompt(batch, { clipAssistantChars }),
  });
}
