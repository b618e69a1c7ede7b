import { z } from 'zod';
import { compileTimeline } from '../../../compile/timeline.js';
import type { Entity, Transition } from '../../../domain/world.js';
import { resolveEntityType } from '../../../world/entity-types.js';
import { findEntity, othersNamed } from '../../../world/lookup.js';
import { loadTimeline, type TimelineRelationship } from '../../../world/timeline.js';
import { entityOut, refOut } from '../../mcp/schemas.js';
import { defineRoute, iso, pageQuery, type Page, type Route } from '../route.js';
import { entityPeriods } from './entity-periods.js';

const TIERS = ['active', 'summarized', 'archived'] as const;
const MAX_RELATIONSHIPS = 100;

function latestRelationships(list: readonly TimelineRelationship[], max: number): TimelineRelationship[] {
  const current = list.filter((r) => r.relationship.validTo === null);
  const ended = list.filter((r) => r.relationship.validTo !== null);
  return [...current.slice(-max), ...ended.slice(-Math.max(0, max - current.length))];
}

export const entityRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/entities',
    summary: 'Entities, most important first (paginated)',
    tag: 'explore',
    query: z.object({
      type: z
        .string()
        .max(60)
        .optional()
        .describe(
          'only this type (person, project, tool, …; any case); an unknown type is a 400 naming the known ones',
        ),
      tier: z.enum(TIERS).optional().describe('only this tier'),
      sort: z.enum(['importance', 'lastSeen', 'name']).default('importance').describe('order'),
      ...pageQuery(50, 500),
    }),
    handler: async ({ query, deps }) => {
      // As stored (`Tool` finds `tool`), as the CLI and get_world_snapshot match it.
      const type = query.type ? await resolveEntityType({ store: deps.store, type: query.type }) : undefined;
      const filter = { ...(type ? { type } : {}), ...(query.tier ? { tier: query.tier } : {}) };
      const [items, total] = await Promise.all([
        deps.store.entities.list({ ...filter, orderBy: query.sort, offset: query.offset, limit: query.limit }),
        deps.store.entities.count(filter),
      ]);
      const page: Page<ReturnType<typeof entityOut>> = {
        items: items.map(entityOut),
        total,
        offset: query.offset,
        limit: query.limit,
      };
      return page;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/entities/{name}',
    summary:
      'One entity (name, alias or id; of several with one name, the most important): its state, periods, relationships, sources and a page of its timeline with contradictions marked',
    tag: 'explore',
    query: z.object({
      time_format: z
        .enum(['semantic', 'absolute', 'hybrid'])
        .default('hybrid')
        .describe('how the narrative writes times'),
      ...pageQuery(100, 1000),
    }),
    handler: async ({ query, params, deps }) => {
      const entity = await findEntity({ store: deps.store, name: params.name ?? '' });
      const [full, mentions, others] = await Promise.all([
        loadTimeline({ store: deps.store, entity }),
        deps.store.mentions.forEntity(entity.id),
        othersNamed({ store: deps.store, entity }),
      ]);
      const now = deps.clock.now();
      const own = full.periods.find((p) => p.entityId === entity.id);
      const shown = full.transitions.slice(query.offset, query.offset + query.limit);
      const ids = new Set(shown.map((t) => t.episodeId));
      const sources = full.sources.filter((s) => ids.has(s.episodeId));
      const titles = new Map(full.sources.map((s) => [s.episodeId, s.title]));
      const relationships = latestRelationships(full.relationships, MAX_RELATIONSHIPS);
      const narrative = compileTimeline({
        timeline: { ...full, transitions: shown, relationships, sources },
        time: { now, tz: deps.tz, format: query.time_format },
      });
      const transitions: Page<ReturnType<typeof transitionOut>> = {
        items: shown.map((t) => transitionOut(t, titles)),
        total: full.transitions.length,
        offset: query.offset,
        limit: query.limit,
      };
      return {
        entity: entityOut(entity),
        // When the entity is itself a period: its span.
        period: own ? { start: iso(own.start), end: iso(own.end), ongoing: own.end === null || own.end > now } : null,
        // The periods it was first seen in (DURING) or mentioned or changed in.
        periods: entityPeriods({ timeline: full, mentions, now }),
        narrative,
        transitions,
        // A hub can have thousands of edges: the latest ones (current first), with the total.
        relationships: relationships.map((r) => relationshipOut(entity, r)),
        relationshipsTotal: full.relationships.length,
        // The other entities of its name (each opened by its id).
        sameName: others.map(refOut),
        sources: sources.map((s) => ({ episodeId: s.episodeId, title: s.title, time: iso(s.time) })),
      };
    },
  }),
];

function transitionOut(t: Transition, titles: Map<string, string>) {
  return {
    id: t.id,
    kind: t.kind,
    summary: t.summary,
    time: iso(t.eventTime),
    recordedAt: iso(t.recordedAt),
    from: t.fromState,
    to: t.toState,
    confidence: t.confidence,
    episodeId: t.episodeId,
    episodeTitle: t.episodeId === null ? null : (titles.get(t.episodeId) ?? null),
    contradiction: t.kind === 'contradiction',
    unresolvedContradiction: t.kind === 'contradiction' && t.resolvedBy === null,
  };
}

function relationshipOut(entity: Entity, r: TimelineRelationship) {
  const self = refOut(entity);
  const other = refOut(r.other);
  const rel = r.relationship;
  return {
    id: rel.id,
    type: rel.type,
    direction: r.direction,
    source: r.direction === 'out' ? self : other,
    target: r.direction === 'out' ? other : self,
    properties: rel.properties,
    since: iso(rel.validFrom),
    until: iso(rel.validTo),
    episodeId: rel.episodeId,
  };
}
