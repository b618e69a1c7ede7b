import { z } from 'zod';
import type { Entity, Relationship } from '../../../domain/world.js';
import { resolveSpan } from '../../../query/world-at/span.js';
import { findEntity } from '../../../world/lookup.js';
import type { HttpDeps } from '../deps.js';
import { defineRoute, flag, iso, type Route } from '../route.js';

const MAX_NODES = 300;

const graphEdge = z.object({
  id: z.string(),
  source: z.string(),
  target: z.string(),
  type: z.string(),
  since: z.string().nullable(),
  until: z.string().nullable().describe('when it ended (null: current, or current at `at`)'),
  discoveredBy: z.string().nullable().describe('set when dreaming added it'),
});

const graphResponse = z.object({
  centre: z.string().describe("the centre's id"),
  truncated: z.boolean().describe('the node cap left some neighbours out'),
  edgeTotal: z.number().int().describe('edges among the nodes before the `max_edges` cap'),
  nodes: z.array(
    z.object({ id: z.string(), name: z.string(), type: z.string(), importance: z.number(), tier: z.string() }),
  ),
  edges: z.array(graphEdge),
});
const MAX_EDGES = 3000;

/**
 * The neighbourhood of one entity: breadth-first over its relationships up to `depth` hops, most important
 * neighbours first, capped at `limit` nodes and `max_edges` edges (those touching the centre first, then between
 * more important entities, current before ended), so the browser never draws the whole world. With `at`, only the
 * relationships valid at that time (a period's end or a date); otherwise the current ones (and ended ones with
 * `ended=true`).
 */
export const graphRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/graph',
    summary: "An entity's neighbourhood as nodes and edges (filter by type, importance, time)",
    tag: 'explore',
    query: z.object({
      entity: z.string().trim().min(1).max(300).describe('the centre: a name or alias'),
      depth: z.coerce.number().int().min(1).max(3).default(1).describe('hops from the centre (1–3)'),
      limit: z.coerce.number().int().min(2).max(MAX_NODES).default(60).describe(`nodes at most (2–${MAX_NODES})`),
      types: z
        .string()
        .max(300)
        .optional()
        .describe('comma-separated entity types to keep (the centre is always kept)'),
      min_importance: z.coerce
        .number()
        .min(0)
        .max(1)
        .default(0)
        .describe('leave out neighbours less important than this'),
      at: z.string().trim().min(1).max(200).optional().describe('a period, date or time: edges valid then'),
      ended: flag.describe('also ended relationships (ignored with `at`)'),
      max_edges: z.coerce
        .number()
        .int()
        .min(1)
        .max(MAX_EDGES)
        .default(600)
        .describe(`edges at most (1–${MAX_EDGES}); \`edgeTotal\` says how many there were`),
    }),
    response: graphResponse,
    handler: async ({ query, deps }) => {
      const centre = await findEntity({ store: deps.store, name: query.entity });
      const types = query.types
        ? new Set(
            query.types
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          )
        : null;
      const at = await instantOf(deps, query.at);
      const nodes = new Map<string, Entity>([[centre.id, centre]]);
      const edges = new Map<string, Relationship>();
      let frontier = [centre.id];
      let truncated = false;
      for (let hop = 0; hop < query.depth && frontier.length > 0; hop++) {
        const found = await edgesOf({ deps, ids: frontier, at, ended: query.ended ?? false });
        const otherIds = [...new Set(found.flatMap((r) => [r.sourceId, r.targetId]).filter((id) => !nodes.has(id)))];
        const others = (await deps.store.entities.getMany(otherIds))
          .filter((e) => (types === null || types.has(e.type)) && e.importance >= query.min_importance)
          .sort((x, y) => y.importance - x.importance);
        const room = query.limit - nodes.size;
        if (others.length > room) truncated = true;
        const added = others.slice(0, Math.max(0, room));
        for (const e of added) nodes.set(e.id, e);
        for (const r of found) if (nodes.has(r.sourceId) && nodes.has(r.targetId)) edges.set(r.id, r);
        frontier = added.map((e) => e.id);
      }
      const kept = rankEdges({ edges: [...edges.values()], nodes, centre: centre.id }).slice(0, query.max_edges);
      return {
        centre: centre.id,
        truncated,
        edgeTotal: edges.size,
        nodes: [...nodes.values()].map((e) => ({
          id: e.id,
          name: e.name,
          type: e.type,
          importance: e.importance,
          tier: e.tier,
        })),
        edges: kept.map(edgeOut),
      };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/graph/links',
    summary:
      'The relationships between entities newly shown in a graph and those already shown (a node expanded in place)',
    tag: 'explore',
    body: z.object({
      ids: z.array(z.string().min(1).max(200)).min(1).max(MAX_NODES).describe('the entities newly shown'),
      among: z.array(z.string().min(1).max(200)).max(MAX_NODES).default([]).describe('the entities already shown'),
      at: z.string().trim().min(1).max(200).optional().describe('a period, date or time: edges valid then'),
      ended: z.boolean().default(false).describe('also ended relationships (ignored with `at`)'),
    }),
    response: z.object({
      edges: z
        .array(graphEdge)
        .describe('every relationship with one end in `ids` and the other in `ids` or `among`, each once'),
    }),
    handler: async ({ body, deps }) => {
      const ids = new Set(body.ids);
      const shown = new Set([...body.ids, ...body.among]);
      const found = await edgesOf({ deps, ids: [...ids], at: await instantOf(deps, body.at), ended: body.ended });
      const edges = new Map<string, Relationship>();
      for (const r of found) if (shown.has(r.sourceId) && shown.has(r.targetId)) edges.set(r.id, r);
      return { edges: [...edges.values()].slice(0, MAX_EDGES).map(edgeOut) };
    },
  }),
];

function edgeOut(r: Relationship): z.input<typeof graphEdge> {
  return {
    id: r.id,
    source: r.sourceId,
    target: r.targetId,
    type: r.type,
    since: iso(r.validFrom),
    until: iso(r.validTo),
    discoveredBy: r.discoveredBy,
  };
}

/** The instant a graph is drawn as of: `at` resolved (a period's end, a date), or null for now. */
async function instantOf(deps: HttpDeps, at: string | undefined): Promise<number | null> {
  if (at === undefined) return null;
  return resolveSpan({ text: at, now: deps.clock.now(), tz: deps.tz, periods: await deps.store.periods.list() }).at;
}

async function edgesOf(input: {
  deps: HttpDeps;
  ids: string[];
  at: number | null;
  ended: boolean;
}): Promise<Relationship[]> {
  const { store } = input.deps;
  if (input.at !== null) return store.relationships.validAt({ time: input.at, entityIds: input.ids, limit: 2000 });
  const lists = await Promise.all(
    input.ids.map((id) => store.relationships.forEntity(id, { includeEnded: input.ended })),
  );
  return lists.flat();
}

/** Edges touching the centre first, then by the importance of their less important end; current before ended. */
function rankEdges(input: { edges: Relationship[]; nodes: Map<string, Entity>; centre: string }): Relationship[] {
  const weight = (r: Relationship): number =>
    (r.sourceId === input.centre || r.targetId === input.centre ? 2 : 0) +
    Math.min(input.nodes.get(r.sourceId)?.importance ?? 0, input.nodes.get(r.targetId)?.importance ?? 0) -
    (r.validTo === null ? 0 : 0.5);
  return input.edges
    .map((r) => ({ r, w: weight(r) }))
    .sort((a, b) => b.w - a.w)
    .map((x) => x.r);
}
