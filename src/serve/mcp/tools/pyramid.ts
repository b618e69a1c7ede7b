import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { localDayKey } from '../../../domain/time.js';
import { getPyramid, renderPyramid, type Pyramid } from '../../../pyramid/index.js';
import type { McpDeps } from '../deps.js';
import { guarded, iso, READ_ONLY, respond } from '../respond.js';
import { isoTime, withBudget } from '../schemas.js';

const summarySchema = z.object({
  id: z.string(),
  start: isoTime.describe('window start (inclusive)'),
  end: isoTime.describe('window end (exclusive)'),
  text: z.string().describe('lines "[N] text", N the importance 1–10'),
  method: z.string().describe('"deterministic" (most important lines, no model) or "llm:<provider:model>"'),
  sources: z.number().int().describe('observations (tier 0) or summaries (tiers above) it was made from'),
});

const tierSchema = z.object({
  tier: z.number().int(),
  spanDays: z.number().int().describe('days one summary of this tier covers (3^tier)'),
  summaries: z.array(summarySchema).describe('the latest 3, oldest first'),
});

const pyramidOutput = withBudget({
  model: z.object({
    name: z.string(),
    description: z.string(),
    isBase: z.boolean().describe('self, user and system always exist; other models are discovered topics'),
  }),
  tiers: z.array(tierSchema).describe('highest tier (long-term context) first, tier 0 (recent detail) last'),
});

/** get_pyramid(model): pyramid retrieval (the last 3 summaries of each tier) of one mental model. */
export function registerPyramidTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'get_pyramid',
    {
      title: 'Pyramid memory of a mental model',
      description:
        'A compact, bounded picture of one mental model from pyramid memory: the latest 3 summaries of each time ' +
        'tier (tier N covers 3^N days), long-term context first and recent detail last, each line "[N] text" with ' +
        'its importance 1–10. Models: "user" (the person), "self" (the assistant), "system" (tools and setup) and ' +
        'discovered topics such as a person or project ("maya-chen"); an unknown name lists the known ones.',
      inputSchema: {
        model: z
          .string()
          .trim()
          .min(1, { error: 'The model name is empty; give one such as "user", "self", "system" or a topic.' })
          .max(100, { error: 'The model name is longer than 100 characters; give a short name such as "user".' })
          .describe('the mental model: user, self, system or a discovered topic (names are lower case, hyphenated)'),
      },
      outputSchema: pyramidOutput,
      annotations: READ_ONLY,
    },
    ({ model }) =>
      guarded(deps, { subject: 'model', name: model }, async () => {
        const pyramid = await getPyramid({ store: deps.store, model });
        return respond(deps, {
          text: pyramidText(pyramid, deps.tz),
          structured: pyramidOut(pyramid),
          narrow: 'The pyramid keeps the highest tiers first; ask query_world about a shorter time span for detail.',
        });
      }),
  );
}

function pyramidText(p: Pyramid, tz: string): string {
  if (p.tiers.length === 0) {
    return `# ${p.model.name}\n\nThe model "${p.model.name}" has no summaries yet; they are built by pie summarize.`;
  }
  const latest = p.tiers.at(-1)?.summaries.at(-1);
  const head = latest ? ` Latest day summarized: ${localDayKey(latest.end - 1, tz)}.` : '';
  return `${renderPyramid(p, tz)}\n\n(Pyramid memory: the latest 3 summaries of each tier.${head})`;
}

function pyramidOut(p: Pyramid) {
  return {
    model: { name: p.model.name, description: p.model.description, isBase: p.model.isBase },
    tiers: p.tiers.map((t) => ({
      tier: t.tier,
      spanDays: t.spanDays,
      summaries: t.summaries.map((s) => ({
        id: s.id,
        start: iso(s.start),
        end: iso(s.end),
        text: s.text,
        method: s.method,
        sources: s.sourceIds.length,
      })),
    })),
  };
}
