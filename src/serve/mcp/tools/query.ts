import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { stateText } from '../../../compile/timeline.js';
import { errorMessage } from '../../../domain/errors.js';
import { buildQueryContext, MAX_CONTEXT_TOKENS, MAX_QUESTION_CHARS, MIN_CONTEXT_TOKENS } from '../../../query/ask.js';
import type { DescribedItem } from '../../../query/items.js';
import { searchWorld } from '../../../query/search.js';
import { clip, localDate } from '../../cli/format.js';
import type { McpDeps } from '../deps.js';
import { guarded, iso, READ_ONLY, respond } from '../respond.js';
import { entityRefSchema, isoTime, limitInput, refOut, withBudget } from '../schemas.js';

const MAX_SEARCH_CHARS = 500;

const laneSchema = z.object({ lane: z.string(), hits: z.number().int(), skipped: z.string().optional() });

const queryOutput = withBudget({
  query: z.string(),
  intent: z
    .string()
    .describe('temporal_diff | current_state | entity_lookup | procedural | relationship | contradiction | general'),
  timeFormat: z.string().describe('the time format the context is written in'),
  wantsHistory: z.boolean().describe('true when superseded history was included, not only the current state'),
  entities: z.array(entityRefSchema).describe('entities in the context, in the order presented'),
  unknownNames: z.array(z.string()).describe('names in the question that match no entity'),
  timeRanges: z.array(z.object({ text: z.string(), start: isoTime, end: isoTime })),
  sources: z.array(z.object({ n: z.number().int(), episodeId: z.string(), title: z.string(), time: isoTime })),
  lanes: z.array(laneSchema),
  contextTokens: z.number().int().describe('tokens of the compiled context (within max_tokens)'),
});

/** Tokens kept free of the response budget for the budget note a client may see. */
const RESPONSE_MARGIN = 80;

const searchOutput = withBudget({
  query: z.string(),
  results: z.array(
    z.object({
      kind: z.enum(['entity', 'transition', 'episode', 'turn']),
      score: z.number(),
      lanes: z.array(z.string()),
      title: z.string().describe('entity name, change summary, or conversation title'),
      snippet: z.string().nullable(),
      time: isoTime.nullable(),
      entity: entityRefSchema.nullable(),
      episode: z.object({ id: z.string(), title: z.string() }).nullable(),
      turn: z.number().int().nullable().describe('1-based position of the turn in its conversation'),
    }),
  ),
  lanes: z.array(laneSchema),
});

export function registerQueryTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'query_world',
    {
      title: 'Ask the world model',
      description:
        'The main way to ask about the user\'s life and work: a question in words ("How has Tidepool changed since ' +
        'the spring?", "What was I working on during the gap semester?", "Who is Maya?") comes back as compiled ' +
        'temporal context — entities with their state and history, changes with when they happened, contradictions, ' +
        'relationships and the conversation turns that hold the evidence, filled up to max_tokens — each line citing a numbered source conversation. Answer from it and ' +
        "cite the sources. Use get_entity_timeline for one entity's full history and search_memory to find names.",
      inputSchema: {
        query: z
          .string()
          .min(1, { error: 'The query is empty; ask a question in words, e.g. "How has Tidepool changed?".' })
          .max(MAX_QUESTION_CHARS, {
            error: `The query is longer than ${MAX_QUESTION_CHARS} characters; ask one shorter question at a time.`,
          })
          .describe('a question in natural language'),
        time_format: z
          .enum(['auto', 'semantic', 'absolute', 'hybrid'])
          .optional()
          .describe(
            'how times are written: auto (default: exact dates for "when" questions, relative for "how long"), semantic, absolute or hybrid',
          ),
        max_tokens: z
          .number()
          .int()
          .min(MIN_CONTEXT_TOKENS, { error: `max_tokens must be at least ${MIN_CONTEXT_TOKENS}.` })
          .max(MAX_CONTEXT_TOKENS, { error: `max_tokens must be at most ${MAX_CONTEXT_TOKENS}.` })
          .optional()
          .describe(
            "the most tokens the context may have (default and upper bound: the server's response budget, pie mcp --max-tokens); the context is filled with evidence up to it",
          ),
      },
      outputSchema: queryOutput,
      annotations: READ_ONLY,
    },
    ({ query, time_format, max_tokens }) =>
      guarded(deps, {}, async () => {
        const context = await buildQueryContext({
          maxTokens: Math.max(
            MIN_CONTEXT_TOKENS,
            Math.min(max_tokens ?? deps.maxTokens, deps.maxTokens) - RESPONSE_MARGIN,
          ),
          tokenizer: { name: 'response', count: deps.countTokens },
          store: deps.store,
          question: query,
          now: deps.clock.now(),
          tz: deps.tz,
          format: time_format ?? 'auto',
          client: null,
          embedder: deps.embedder,
          recordAccess: false,
        });
        await recordAccess(
          deps,
          context.subgraph.entities.map((b) => b.entity.id),
        );
        const plan = context.plan;
        return respond(deps, {
          text: context.text,
          structured: {
            query: plan.question,
            intent: plan.intent,
            timeFormat: plan.timeFormat,
            wantsHistory: plan.wantsHistory,
            entities: context.subgraph.entities.map((b) => refOut(b.entity)),
            unknownNames: plan.unknownNames,
            timeRanges: plan.timeRanges.map((r) => ({ text: r.text, start: iso(r.start), end: iso(r.end) })),
            sources: context.sources.map((s) => ({ ...s, time: iso(s.time) })),
            lanes: context.lanes,
            contextTokens: context.tokens,
          },
          narrow:
            'Ask about one entity or a shorter time span (e.g. "How did Tidepool change in 2025?"), or use get_entity_timeline for one entity.',
        });
      }),
  );

  server.registerTool(
    'search_memory',
    {
      title: 'Search memory',
      description:
        'Hybrid search (full text, time references, graph neighbours, vectors when configured) over entities, state ' +
        'changes, conversations and single turns, best first. Use it to find the exact name of an entity, or where ' +
        'something came up; use query_world to get an answerable context for a question.',
      inputSchema: {
        query: z
          .string()
          .min(1, { error: 'The search text is empty; give at least one word to look for.' })
          .max(MAX_SEARCH_CHARS, {
            error: `The search text is longer than ${MAX_SEARCH_CHARS} characters; search for a few distinctive words.`,
          })
          .describe('words to look for; time references such as "last spring" narrow the search'),
        limit: limitInput('results', 10, 50),
      },
      outputSchema: searchOutput,
      annotations: READ_ONLY,
    },
    ({ query, limit }) =>
      guarded(deps, {}, async () => {
        const result = await searchWorld({
          store: deps.store,
          text: query,
          limit: limit ?? 10,
          now: deps.clock.now(),
          tz: deps.tz,
          embedder: deps.embedder,
          recordAccess: false,
        });
        await recordAccess(
          deps,
          result.items.flatMap((i) => (i.kind === 'entity' ? [i.entity.id] : [])),
        );
        const lines = result.items.flatMap((item, i) => itemLines(item, i + 1, deps.tz));
        return respond(deps, {
          text: lines.length > 0 ? lines.join('\n') : `Nothing matches "${query}". Try other or fewer words.`,
          structured: { query, results: result.items.map(itemOut), lanes: result.lanes },
          narrow: 'Pass a smaller limit or more specific words.',
        });
      }),
  );
}

/**
 * Entities placed in an answer count as accessed (importance uses it), as in `pie ask`. Bookkeeping only: a busy
 * database (another process writing) never fails the read, and read-only servers count nothing.
 */
async function recordAccess(deps: McpDeps, ids: string[]): Promise<void> {
  if (deps.readOnly || ids.length === 0) return;
  try {
    await deps.store.entities.incrementAccess(ids);
  } catch (error) {
    deps.log(`access counts not recorded: ${errorMessage(error)}`);
  }
}

function itemOut(item: DescribedItem) {
  const base = { kind: item.kind, score: item.score, lanes: item.lanes, snippet: item.snippet ?? null };
  switch (item.kind) {
    case 'entity':
      return {
        ...base,
        title: item.entity.name,
        snippet: item.snippet ?? (stateText(item.entity.state) || null),
        time: iso(item.entity.lastSeen),
        entity: refOut(item.entity),
        episode: null,
        turn: null,
      };
    case 'transition':
      return {
        ...base,
        title: item.transition.summary,
        time: iso(item.transition.eventTime),
        entity: item.entity ? refOut(item.entity) : null,
        episode: item.episode ? { id: item.episode.id, title: item.episode.title } : null,
        turn: null,
      };
    case 'episode':
      return {
        ...base,
        title: item.episode.title,
        snippet: item.snippet ?? item.episode.summary,
        time: iso(item.episode.createdAt),
        entity: null,
        episode: { id: item.episode.id, title: item.episode.title },
        turn: null,
      };
    case 'turn':
      return {
        ...base,
        title: item.episode.title,
        time: iso(item.episode.createdAt),
        entity: null,
        episode: { id: item.episode.id, title: item.episode.title },
        turn: item.seq + 1,
      };
  }
}

function itemLines(item: DescribedItem, n: number, tz: string): string[] {
  switch (item.kind) {
    case 'entity': {
      const state = stateText(item.entity.state);
      return [
        `${n}. ${item.entity.name} (${item.entity.type}), last seen ${localDate(item.entity.lastSeen, tz)}`,
        ...(state ? [`   ${clip(state, 200)}`] : []),
      ];
    }
    case 'transition':
      return [
        `${n}. ${localDate(item.transition.eventTime, tz)}, ${item.entity?.name ?? 'unknown entity'}: ${clip(item.transition.summary, 200)}`,
        ...(item.episode ? [`   from the conversation “${item.episode.title}”`] : []),
      ];
    case 'episode':
      return [
        `${n}. Conversation “${item.episode.title}”, ${localDate(item.episode.createdAt, tz)}`,
        ...((item.snippet ?? item.episode.summary)
          ? [`   ${clip(item.snippet ?? item.episode.summary ?? '', 240)}`]
          : []),
      ];
    case 'turn':
      return [
        `${n}. Conversation “${item.episode.title}”, ${localDate(item.episode.createdAt, tz)}, turn ${item.seq + 1}`,
        ...(item.snippet ? [`   ${clip(item.snippet, 240)}`] : []),
      ];
  }
}
