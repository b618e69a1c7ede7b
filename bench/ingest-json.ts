import { z } from 'zod';

/**
 * The parts of `pie ingest --json` the benchmarks read. Parsed with zod so a change of the CLI's output fails the
 * benchmark loudly instead of printing `undefined` into docs/benchmarks.md.
 */
const importSchema = z.object({
  conversations: z.number(),
  turns: z.number(),
  outcomes: z.object({ inserted: z.number(), updated: z.number(), unchanged: z.number() }),
});

const extractionRunSchema = z.object({
  extractor: z.string(),
  runId: z.string(),
  status: z.string(),
  batches: z.object({ planned: z.number(), done: z.number(), failed: z.number(), notStarted: z.number() }),
  episodes: z.number(),
  usage: z.object({ calls: z.number(), cachedCalls: z.number(), inputTokens: z.number(), outputTokens: z.number() }),
  failures: z.array(z.object({ batchId: z.string(), reason: z.string() })),
});

const ingestSchema = z.object({ import: importSchema, extraction: extractionRunSchema });

const costSchema = z.object({ usd: z.number(), known: z.boolean() });

const dryRunSchema = z.object({
  import: importSchema,
  extraction: z.object({
    batches: z.array(z.object({ episodes: z.number(), inputTokens: z.number(), contentTokens: z.number() })),
    episodes: z.number(),
    days: z.number(),
    inputTokens: z.number(),
    outputTokensGuess: z.number(),
    model: z.object({ provider: z.string(), model: z.string() }),
    cost: z.object({ input: costSchema, output: costSchema }),
  }),
});

export type IngestJson = z.infer<typeof ingestSchema>;
export type DryRunJson = z.infer<typeof dryRunSchema>;

export function parseIngestJson(input: { stdout: string }): IngestJson {
  return ingestSchema.parse(JSON.parse(input.stdout));
}

export function parseDryRunJson(input: { stdout: string }): DryRunJson {
  return dryRunSchema.parse(JSON.parse(input.stdout));
}
