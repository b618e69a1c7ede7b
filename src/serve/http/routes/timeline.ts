import { z } from 'zod';
import { attributeHistory } from '../../../query/timeline/attributes.js';
import { buildLifeTimeline } from '../../../query/timeline/life.js';
import { markSource } from '../../../query/timeline/source.js';
import { findEntity } from '../../../world/lookup.js';
import { refOut } from '../../mcp/schemas.js';
import { defineRoute, type Route } from '../route.js';
import {
  attributeHistorySchema,
  attributeLaneOut,
  lifeTimelineOut,
  lifeTimelineSchema,
  markSourceOut,
  markSourceSchema,
} from './timeline-shapes.js';

const name = z.string().trim().min(1).max(200);

export const timelineRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/timeline',
    summary:
      'The life timeline: periods as bands, the most important entities as lanes, their state changes as marks (capped)',
    tag: 'time',
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(30).describe('lanes: the most important entities (1–100)'),
      marks: z.coerce.number().int().min(1).max(500).default(60).describe('marks drawn per lane (1–500)'),
      type: z.string().trim().min(1).max(60).optional().describe('only entities of this type (kind)'),
      attribute: name.optional().describe('only changes that set this attribute, and the entities that have one'),
      period: name.optional().describe('only this period: the entities that changed in it, and its changes'),
    }),
    response: lifeTimelineSchema,
    handler: async ({ query, deps }) => {
      const timeline = await buildLifeTimeline({
        store: deps.store,
        now: deps.clock.now(),
        limit: query.limit,
        marksPerLane: query.marks,
        type: query.type,
        attribute: query.attribute,
        period: query.period,
      });
      return lifeTimelineOut(timeline);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/timeline/marks/{id}',
    summary: 'Where one change was said: its conversation and the matching turn (for a preview)',
    tag: 'time',
    response: markSourceSchema,
    handler: async ({ params, deps }) =>
      markSourceOut(await markSource({ store: deps.store, transitionId: params.id ?? '' })),
  }),
  defineRoute({
    method: 'get',
    path: '/api/entities/{name}/attributes',
    summary: "How each attribute of an entity's state changed: its values over time (swimlanes)",
    tag: 'explore',
    query: z.object({
      per_attribute: z.coerce.number().int().min(1).max(200).default(40).describe('latest values per attribute'),
    }),
    response: attributeHistorySchema,
    handler: async ({ query, params, deps }) => {
      const entity = await findEntity({ store: deps.store, name: params.name ?? '' });
      const history = await attributeHistory({
        store: deps.store,
        entityId: entity.id,
        perAttribute: query.per_attribute,
        maxAttributes: 30,
      });
      return {
        entity: refOut(entity),
        attributesTotal: history.attributesTotal,
        lanes: history.lanes.map(attributeLaneOut),
      };
    },
  }),
];
