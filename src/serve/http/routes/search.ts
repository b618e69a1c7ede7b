import { z } from 'zod';
import type { Entity } from '../../../domain/world.js';
import type { DescribedItem } from '../../../query/items.js';
import { nameInQuestion, type NameMatch } from '../../../query/named-entities.js';
import { searchWorld, type SearchResult } from '../../../query/search.js';
import { describeRange } from '../../../query/time/index.js';
import { INTENTS } from '../../../query/types.js';
import type { WorldStore } from '../../../ports/world-store.js';
import { entityOut, entityRefSchema, entitySchema, isoTime, refOut } from '../../mcp/schemas.js';
import { defineRoute, iso, type Route } from '../route.js';

/** Entity cards shown above the results at most. */
const MAX_CARDS = 3;

const itemSchema = z.object({
  kind: z.enum(['entity', 'transition', 'episode', 'turn']),
  score: z.number(),
  lanes: z.array(z.string()).describe('the lanes that found it'),
  time: isoTime.nullable(),
  snippet: z.string().nullable().describe('matched words between « and »'),
  title: z.string().describe('entity name, change summary or conversation title'),
  entity: entityRefSchema.nullable(),
  episodeId: z.string().nullable(),
  seq: z.number().int().nullable().describe('the matching turn (0-based) of a turn hit'),
});

const cardSchema = entitySchema.extend({
  matched: z.string().describe('the name or alias the query names it by'),
  exact: z.boolean().describe('the whole query is that name or alias'),
  changes: z.number().int().describe('transitions in its history'),
  latestChange: z
    .object({
      kind: z.string(),
      summary: z.string(),
      time: isoTime,
      episodeId: z.string().nullable(),
      episodeTitle: z.string().nullable(),
    })
    .nullable(),
});

const conversationSchema = z.object({
  episodeId: z.string(),
  title: z.string(),
  time: isoTime,
  snippet: z.string().nullable().describe('where the conversation itself (title or summary) matched'),
  turns: z.array(z.object({ seq: z.number().int(), snippet: z.string().nullable(), time: isoTime.nullable() })),
});

const laneSchema = z.object({
  lane: z.enum(['recent', 'temporal', 'lexical', 'vector', 'graph']),
  hits: z.number().int(),
  skipped: z.string().optional().describe('why the lane did not run'),
});

const readingSchema = z.object({
  intent: z.enum(INTENTS),
  entities: z.array(entityRefSchema).describe('entities the query names'),
  timeRanges: z.array(
    z.object({
      text: z.string().describe('the words that were read as a time'),
      kind: z.string(),
      start: isoTime,
      end: isoTime.describe('exclusive'),
      label: z.string().describe('the range in words, e.g. "spring 2025 (1 Mar – 31 May 2025)"'),
    }),
  ),
  wantsHistory: z.boolean().describe('superseded history searched too, not only the current state'),
  lanes: z.array(laneSchema),
});

const searchResponse = z.object({
  query: z.string(),
  items: z.array(itemSchema).describe('every result, best first'),
  lanes: z.array(laneSchema),
  entities: z.array(cardSchema).describe('entities the query names (exact names first): shown before the results'),
  conversations: z
    .array(conversationSchema)
    .describe('the conversation and turn results grouped by conversation, best first'),
  reading: readingSchema.describe('how the query was read: what to show when nothing matches'),
});

export const searchRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/search',
    summary: 'Hybrid search over entities, changes, conversations and turns (the same as pie search / search_memory)',
    tag: 'explore',
    query: z.object({
      q: z.string().trim().min(1, { error: 'give at least one word' }).max(500).describe('words to look for'),
      limit: z.coerce.number().int().min(1).max(50).default(20).describe('results (1–50)'),
    }),
    response: searchResponse,
    handler: async ({ query, deps }) => {
      const result = await searchWorld({
        store: deps.store,
        text: query.q,
        limit: query.limit,
        now: deps.clock.now(),
        tz: deps.tz,
        embedder: deps.embedder,
        recordAccess: false,
        // The entity cards below lead; the list stays the fused ranking.
        namedFirst: false,
      });
      return {
        query: query.q,
        items: result.items.map(itemOut),
        lanes: result.lanes,
        entities: await entityCards({ store: deps.store, question: query.q, result }),
        conversations: conversations(result.items),
        reading: {
          intent: result.plan.intent,
          entities: result.named.map(refOut),
          timeRanges: result.plan.timeRanges.map((r) => ({
            text: r.text,
            kind: r.kind,
            start: iso(r.start),
            end: iso(r.end),
            label: describeRange(r, deps.tz),
          })),
          wantsHistory: result.plan.wantsHistory,
          lanes: result.lanes,
        },
      };
    },
  }),
];

/**
 * The entities the query names by a name or alias (the search plan's, plus a period when the whole query is its
 * name), those named by the whole query first: each with its current state and its latest change.
 */
async function entityCards(input: {
  store: WorldStore;
  question: string;
  result: SearchResult;
}): Promise<z.infer<typeof cardSchema>[]> {
  const { store, question } = input;
  const periodIds = input.result.plan.timeRanges.flatMap((r) => (r.periodId ? [r.periodId] : []));
  const periods = await store.entities.getMany(periodIds);
  const found: { entity: Entity; match: NameMatch }[] = [];
  for (const entity of [...input.result.named, ...periods]) {
    const match = nameInQuestion({ question, entity });
    if (!match || found.some((f) => f.entity.id === entity.id)) continue;
    if (entity.type === 'period' && !match.exact) continue;
    found.push({ entity, match });
  }
  const shown = found.sort((a, b) => Number(b.match.exact) - Number(a.match.exact)).slice(0, MAX_CARDS);
  return Promise.all(
    shown.map(async ({ entity, match }) => {
      const [latest, changes] = await Promise.all([
        store.transitions.list({ entityIds: [entity.id], order: 'desc', limit: 1 }),
        store.transitions.count({ entityIds: [entity.id] }),
      ]);
      const last = latest[0];
      const episode = last?.episodeId ? await store.episodes.get(last.episodeId) : null;
      return {
        ...entityOut(entity),
        matched: match.name,
        exact: match.exact,
        changes,
        latestChange: last
          ? {
              kind: last.kind,
              summary: last.summary,
              time: iso(last.eventTime),
              episodeId: last.episodeId,
              episodeTitle: episode?.title ?? null,
            }
          : null,
      };
    }),
  );
}

/** Conversation and turn hits grouped by conversation, in the order of each conversation's best hit. */
function conversations(items: readonly DescribedItem[]): z.infer<typeof conversationSchema>[] {
  const groups = new Map<string, z.infer<typeof conversationSchema>>();
  for (const item of items) {
    if (item.kind !== 'episode' && item.kind !== 'turn') continue;
    const e = item.episode;
    const group = groups.get(e.id) ?? {
      episodeId: e.id,
      title: e.title,
      time: iso(e.createdAt),
      snippet: null,
      turns: [],
    };
    groups.set(e.id, group);
    if (item.kind === 'episode') group.snippet = item.snippet ?? null;
    else group.turns.push({ seq: item.seq, snippet: item.snippet ?? null, time: iso(item.time) });
  }
  for (const group of groups.values()) group.turns.sort((a, b) => a.seq - b.seq);
  return [...groups.values()];
}

function itemOut(item: DescribedItem): z.infer<typeof itemSchema> {
  const base = {
    kind: item.kind,
    score: Number(item.score.toFixed(4)),
    lanes: item.lanes,
    time: iso(item.time),
    snippet: item.snippet ?? null,
  };
  switch (item.kind) {
    case 'entity':
      return { ...base, title: item.entity.name, entity: refOut(item.entity), episodeId: null, seq: null };
    case 'transition':
      return {
        ...base,
        title: item.transition.summary,
        entity: item.entity ? refOut(item.entity) : null,
        episodeId: item.episode?.id ?? null,
        seq: null,
      };
    case 'episode':
      return { ...base, title: item.episode.title, entity: null, episodeId: item.episode.id, seq: null };
    case 'turn':
      return { ...base, title: item.episode.title, entity: null, episodeId: item.episode.id, seq: item.seq };
  }
}
