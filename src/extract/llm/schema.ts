import type { z } from 'zod';
import { extractionResultSchema } from '../result.js';

/**
 * What the model writes for `extract-batch`: the ExtractionResult without `batch`, which code fills in from the
 * ExtractionBatch (the model never decides batch ids or times). Lenient like the public schema: missing lists,
 * nulls and empty strings are normalized away by zod.
 */
export const extractionOutputSchema = extractionResultSchema.omit({ batch: true });

export type ExtractionOutput = z.output<typeof extractionOutputSchema>;
