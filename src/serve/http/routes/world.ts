import { z } from 'zod';
import { compileDiff } from '../../../compile/diff.js';
import { compileSnapshot } from '../../../compile/snapshot.js';
import type { TimeContext } from '../../../compile/time-format.js';
import { PieError } from '../../../domain/errors.js';
import { listContradictions } from '../../../query/world-at/contradictions.js';
import { undatedPeriods } from '../../../query/undated-periods.js';
import { DEFAULT_DIFF_LIMIT, diffWorld } from '../../../query/world-at/diff.js';
import { snapshotAt } from '../../../query/world-at/snapshot.js';
import { nowSpan, resolveSpan } from '../../../query/world-at/span.js';
import { contradictionOut, diffOut, diffSchema, snapshotOut, snapshotSchema } from '../../mcp/tools/history-shapes.js';
import type { HttpDeps } from '../deps.js';
import { defineRoute, flag, iso, pageQuery, type Route } from '../route.js';

const timeFormat = z
  .enum(['semantic', 'absolute', 'hybrid'])
  .default('hybrid')
  .describe('how compiled text writes times');
const spanText = z.string().trim().min(1).max(200);
const compiledText = z.string().describe('the compiled text: what a model is given (pie snapshot / pie diff print it)');

export const worldRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/episodes/{id}',
    summary: 'One source conversation (episode) with its turns: where a change in a timeline came from',
    tag: 'explore',
    handler: async ({ params, deps }) => {
      const id = params.id ?? '';
      const episode = await deps.store.episodes.get(id);
      if (!episode) throw new PieError('NOT_FOUND', `No episode "${id}".`);
      const turns = await deps.store.episodes.turns(id);
      return {
        id: episode.id,
        title: episode.title,
        source: episode.source,
        time: iso(episode.createdAt),
        summary: episode.summary,
        extraction: episode.extraction,
        turns: turns.map((t) => ({ seq: t.seq, role: t.role, speaker: t.speaker, time: iso(t.time), text: t.text })),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/periods',
    summary: 'Life periods in time order (the same list as pie periods / list_periods)',
    tag: 'time',
    handler: async ({ deps }) => {
      const now = deps.clock.now();
      const periods = await deps.store.periods.list();
      return {
        items: periods.map((p) => ({
          name: p.name,
          start: iso(p.start),
          end: iso(p.end),
          ongoing: p.end === null || p.end > now,
        })),
        // Periods the conversations name without dates (someone's childhood): no band on a time axis.
        undated: (await undatedPeriods(deps.store)).map((p) => ({
          name: p.name,
          status: p.status,
          lastMentioned: iso(p.lastSeen),
        })),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/snapshot',
    summary: 'The world at the end of a period or at a date (the same as pie snapshot / get_world_snapshot)',
    tag: 'time',
    query: z.object({
      at: spanText
        .optional()
        .describe('a period name, a date (2024-05-01) or a time such as "May 2024"; omitted = now'),
      type: z.string().max(60).optional().describe('only entities of this type (any case); an unknown type is a 400'),
      limit: z.coerce.number().int().min(1).max(200).default(30).describe('entities shown (1–200)'),
      time_format: timeFormat,
    }),
    response: z.object({ text: compiledText, snapshot: z.object(snapshotSchema) }),
    handler: async ({ query, deps }) => {
      const time = await timeContext(deps, query.time_format);
      const span =
        query.at === undefined
          ? nowSpan({ now: time.now })
          : resolveSpan({ text: query.at, now: time.now, tz: time.tz, periods: time.periods });
      const snapshot = await snapshotAt({
        store: deps.store,
        at: span.at,
        span,
        limit: query.limit,
        ...(query.type ? { type: query.type } : {}),
      });
      return { text: compileSnapshot({ snapshot, time }), snapshot: snapshotOut(snapshot) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/diff',
    summary: 'What changed between the ends of two periods or dates (the same as pie diff / diff_periods)',
    tag: 'time',
    query: z.object({
      a: spanText.describe('the earlier period, date or time'),
      b: spanText.describe('the later period, date or time ("now" for the present)'),
      limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_DIFF_LIMIT).describe('items per kind of change'),
      time_format: timeFormat,
    }),
    response: z.object({ text: compiledText, diff: z.object(diffSchema) }),
    handler: async ({ query, deps }) => {
      const time = await timeContext(deps, query.time_format);
      const args = { now: time.now, tz: time.tz, periods: time.periods };
      const a = resolveSpan({ ...args, text: query.a });
      const b = resolveSpan({ ...args, text: query.b });
      const diff = await diffWorld({ store: deps.store, a, b, limit: query.limit });
      return { text: compileDiff({ diff, time }), diff: diffOut(diff) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contradictions',
    summary: 'Contradictions, newest first (paginated; the same as pie contradictions / get_contradictions)',
    tag: 'time',
    query: z.object({
      entity: z.string().trim().min(1).max(300).optional().describe('only those about this entity'),
      all: flag.describe('include resolved ones'),
      ...pageQuery(25, 200),
    }),
    handler: async ({ query, deps }) => {
      const list = await listContradictions({
        store: deps.store,
        all: query.all ?? false,
        ...(query.entity === undefined ? {} : { entityName: query.entity }),
      });
      return {
        items: list.slice(query.offset, query.offset + query.limit).map(contradictionOut),
        total: list.length,
        offset: query.offset,
        limit: query.limit,
      };
    },
  }),
];

export async function timeContext(deps: HttpDeps, format: TimeContext['format']): Promise<TimeContext> {
  return { now: deps.clock.now(), tz: deps.tz, format, periods: await deps.store.periods.list() };
}
