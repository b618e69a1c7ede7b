import { jaroWinkler } from '../../../resolve/similarity.js';
import type { JsonValue, SearchStatement } from '../../ast.js';
import { KipError } from '../../errors.js';
import { isVisibleEntity, nameKey, valueJson, type ConceptNode, type LinkNode } from '../../mapping.js';
import type { ExecContext } from '../context.js';

const DEFAULT_LIMIT = 10;

/**
 * SEARCH (spec §4.2). Keyword: PIE's full-text index over names, aliases and state values (BM25, relative to the
 * best hit) blended half and half with name similarity, so an exact name or alias scores 1. Semantic: cosine
 * similarity with the entity vectors of the configured embedder; without one (or without vectors) it degrades to
 * keyword silently, as the spec allows. Hybrid (the default): the better of the two per concept. Every hit carries
 * `metadata._score` in [0, 1]; THRESHOLD drops weaker hits.
 */
export async function executeSearch(ctx: ExecContext, stmt: SearchStatement): Promise<JsonValue[]> {
  const term = stmt.term.trim();
  if (term.length === 0) throw new KipError('KIP_2003', 'The SEARCH term is empty.');
  const limit = stmt.limit ?? DEFAULT_LIMIT;
  if (stmt.target === 'proposition') return searchPropositions(ctx, stmt, term, limit);
  const pie = stmt.type === undefined ? undefined : (await ctx.registry.conceptType(stmt.type)).pie;
  const scores = await conceptScores(ctx, term, stmt.mode ?? 'hybrid', Math.max(limit * 5, 50));
  await ctx.graph.prefetchEntities(scores.keys());
  const hits: { node: ConceptNode; score: number }[] = [];
  for (const [id, score] of scores) {
    const node = await ctx.graph.concept(id);
    if (!node || (pie !== undefined && node.entity.type !== pie)) continue;
    if (stmt.threshold !== undefined && score < stmt.threshold) continue;
    hits.push({ node, score });
  }
  hits.sort((a, b) => b.score - a.score || a.node.name.localeCompare(b.node.name));
  return hits.slice(0, limit).map((h) => withScore(h.node, h.score));
}

async function conceptScores(ctx: ExecContext, term: string, mode: string, pool: number): Promise<Map<string, number>> {
  const scores = mode === 'semantic' ? new Map<string, number>() : await keywordScores(ctx, term, pool);
  if (mode !== 'keyword') {
    const semantic = await semanticScores(ctx, term, pool);
    if (semantic === null) return mode === 'semantic' ? keywordScores(ctx, term, pool) : scores;
    for (const [id, s] of semantic) scores.set(id, Math.max(scores.get(id) ?? 0, s));
  }
  return scores;
}

async function keywordScores(ctx: ExecContext, term: string, pool: number): Promise<Map<string, number>> {
  const key = nameKey(term);
  const out = new Map<string, number>();
  const hits = await ctx.store.search.entities({ text: term, limit: Math.min(pool, 1000) });
  const best = hits[0]?.score ?? 0;
  for (const h of hits) {
    const relative = best < 0 && h.score < 0 ? h.score / best : 1;
    out.set(h.entityId, relative);
  }
  // Exact names and aliases are found even when the full-text index has no word for them ("$self", "C#").
  for (const e of await ctx.store.entities.findByKey(key)) if (!out.has(e.id)) out.set(e.id, 1);
  await ctx.graph.prefetchEntities(out.keys());
  for (const [id, relative] of out) {
    const e = await ctx.graph.entity(id);
    if (!e || !isVisibleEntity(e)) {
      out.delete(id);
      continue;
    }
    const similarity = Math.max(
      ...[e.name, ...e.aliases].map((n) => (nameKey(n) === key ? 1 : jaroWinkler(key, nameKey(n)))),
    );
    out.set(id, round(0.5 * relative + 0.5 * similarity));
  }
  return out;
}

/** Cosine similarities with the nearest entity vectors, or null when semantic search is unavailable. */
async function semanticScores(ctx: ExecContext, term: string, pool: number): Promise<Map<string, number> | null> {
  const embedder = ctx.options.embedder;
  if (!embedder) return null;
  const model = embedder.model;
  if ((await ctx.store.embeddings.count({ ownerKind: 'entity', model })) === 0) return null;
  const [query] = await embedder.embed([term]);
  if (!query) return null;
  const nearest = await ctx.store.embeddings.nearest({ ownerKind: 'entity', model, vector: query, limit: pool });
  return new Map(nearest.map((s) => [s.ownerId, round(Math.max(0, s.score))]));
}

/**
 * Propositions are found through their endpoints (a link scores 0.9 × the better endpoint's concept score) and
 * through their predicate (a term naming a predicate scores its links 0.8); a link whose attributes contain the
 * term gains 0.1.
 */
async function searchPropositions(
  ctx: ExecContext,
  stmt: SearchStatement,
  term: string,
  limit: number,
): Promise<JsonValue[]> {
  const pie = stmt.type === undefined ? undefined : (await ctx.registry.predicate(stmt.type)).pie;
  const concepts = await conceptScores(ctx, term, stmt.mode ?? 'hybrid', 50);
  await ctx.graph.prefetchEdges(concepts.keys());
  const scores = new Map<string, { link: LinkNode; score: number }>();
  const consider = (link: LinkNode, score: number) => {
    if (pie !== undefined && link.rel.type !== pie) return;
    const textHit = JSON.stringify(link.attributes).toLowerCase().includes(term.toLowerCase()) ? 0.1 : 0;
    const s = Math.min(1, round(score + textHit));
    if ((scores.get(link.id)?.score ?? -1) < s) scores.set(link.id, { link, score: s });
  };
  for (const [id, score] of concepts) {
    for (const rel of await ctx.graph.edges(id)) consider(ctx.graph.linkOf(rel), 0.9 * score);
  }
  const asPredicate = term.toLowerCase().replace(/\s+/g, '_');
  if ((await ctx.registry.predicateNames()).includes(asPredicate)) {
    for (const link of await ctx.graph.allLinks()) if (link.predicate === asPredicate) consider(link, 0.8);
  }
  const hits = [...scores.values()].filter((h) => stmt.threshold === undefined || h.score >= stmt.threshold);
  hits.sort((a, b) => b.score - a.score || a.link.id.localeCompare(b.link.id));
  return hits.slice(0, limit).map((h) => withScore(h.link, h.score));
}

function withScore(node: ConceptNode | LinkNode, score: number): JsonValue {
  const json = valueJson(node) as { metadata: Record<string, JsonValue> };
  json.metadata = { ...json.metadata, _score: score };
  return json as unknown as JsonValue;
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
