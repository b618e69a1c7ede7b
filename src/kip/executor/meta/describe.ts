import type { DescribeStatement, JsonObject, JsonValue } from '../../ast.js';
import { CONCEPT_TYPE, PROPOSITION_TYPE, valueJson } from '../../mapping.js';
import type { ExecContext } from '../context.js';
import { fingerprint, paginate, type Page } from '../find.js';
import type { TypeDef } from '../registry.js';

/**
 * DESCRIBE (spec §4.1). PRIMER: the agent's identity ($self), the user (PIE's own entity for them), the domain map (each domain's description and
 * member count) with the size of the schema and of PIE's world; DOMAINS: the Domain concepts; CONCEPT TYPES /
 * PROPOSITION TYPES: the names (registered and found in PIE's data), paged; CONCEPT TYPE / PROPOSITION TYPE: the
 * definition.
 */
export async function executeDescribe(
  ctx: ExecContext,
  stmt: DescribeStatement,
): Promise<Page<JsonValue> | { result: JsonValue }> {
  switch (stmt.what) {
    case 'primer':
      return { result: await primer(ctx) };
    case 'domains':
      return { result: (await domains(ctx)).map((d) => d.json) };
    case 'concept_types':
      return paginate(await ctx.registry.conceptTypeNames(), page(stmt));
    case 'proposition_types':
      return paginate(await ctx.registry.predicateNames(), page(stmt));
    case 'concept_type': {
      const def = await ctx.registry.conceptType(stmt.name ?? '');
      const instances = await ctx.store.entities.count({ type: def.pie });
      return { result: { ...definition(ctx, def, CONCEPT_TYPE), instances } };
    }
    case 'proposition_type': {
      const def = await ctx.registry.predicate(stmt.name ?? '');
      return { result: definition(ctx, def, PROPOSITION_TYPE) };
    }
  }
}

function page(stmt: DescribeStatement) {
  return { limit: stmt.limit, cursor: stmt.cursor, fingerprint: fingerprint(stmt) };
}

function definition(ctx: ExecContext, def: TypeDef, metaType: string): JsonObject {
  if (def.definition) return valueJson(ctx.graph.conceptOf(def.definition)) as JsonObject;
  const what = metaType === CONCEPT_TYPE ? 'entity type' : 'relationship type';
  const attributes =
    Object.keys(def.attributes).length > 0
      ? def.attributes
      : { description: `PIE ${what} "${def.pie}", found in the data (not registered).` };
  return { id: null, type: metaType, name: def.kip, attributes, metadata: {} };
}

async function domains(
  ctx: ExecContext,
): Promise<{ name: string; json: JsonValue; description: JsonValue; members: number }[]> {
  const def = await ctx.registry.conceptType('Domain');
  const list = await ctx.graph.conceptsOfType(def.pie);
  const belongs = (await ctx.registry.predicate('belongs_to_domain')).pie;
  await ctx.graph.prefetchEdges(list.map((d) => d.id));
  const out = [];
  for (const d of list) {
    const members = (await ctx.graph.edges(d.id)).filter((r) => r.type === belongs && r.targetId === d.id).length;
    out.push({ name: d.name, json: valueJson(d), description: d.attributes['description'] ?? null, members });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** PIE's entity for the person whose history this is ("I", "me"); see src/world/apply-batch.ts. */
const USER_ID = 'self';

async function primer(ctx: ExecContext): Promise<JsonObject> {
  const person = await ctx.registry.conceptType('Person');
  const self = (await ctx.graph.conceptsNamed('$self', person.pie))[0];
  const stats = await ctx.store.stats();
  const user = await ctx.graph.concept(USER_ID);
  return {
    identity: self ? valueJson(ctx.graph.conceptOf(self)) : null,
    user: user ? valueJson(user) : null,
    domain_map: (await domains(ctx)).map((d) => ({ name: d.name, description: d.description, members: d.members })),
    schema: {
      concept_types: (await ctx.registry.conceptTypeNames()).length,
      proposition_types: (await ctx.registry.predicateNames()).length,
    },
    world: {
      entities: stats.entities,
      relationships: stats.relationships,
      episodes: stats.episodes,
      first_episode_at: stats.firstEpisodeAt === null ? null : new Date(stats.firstEpisodeAt).toISOString(),
      last_episode_at: stats.lastEpisodeAt === null ? null : new Date(stats.lastEpisodeAt).toISOString(),
    },
  };
}
