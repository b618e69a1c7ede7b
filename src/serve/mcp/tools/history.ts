import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { compileContradictions } from '../../../compile/contradictions.js';
import { compileDiff } from '../../../compile/diff.js';
import { compileSnapshot } from '../../../compile/snapshot.js';
import type { TimeContext, TimeFormat } from '../../../compile/time-format.js';
import { listContradictions } from '../../../query/world-at/contradictions.js';
import { diffWorld } from '../../../query/world-at/diff.js';
import { snapshotAt } from '../../../query/world-at/snapshot.js';
import { nowSpan, resolveSpan, type Span } from '../../../query/world-at/span.js';
import type { McpDeps } from '../deps.js';
import { toolError } from '../errors.js';
import { guarded, READ_ONLY, respond } from '../respond.js';
import { limitInput, timeFormatInput, withBudget } from '../schemas.js';
import {
  contradictionOut,
  contradictionSchema,
  diffOut,
  diffSchema,
  snapshotOut,
  snapshotSchema,
} from './history-shapes.js';

const MAX_SPAN_CHARS = 200;

const spanInput = (what: string) =>
  z
    .string()
    .min(1, { error: `The ${what} is empty; give a period name (list_periods lists them) or a date like 2024-05-01.` })
    .max(MAX_SPAN_CHARS, { error: `The ${what} is too long to be a period name or a date.` });

export function registerHistoryTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'get_world_snapshot',
    {
      title: 'The world at a time',
      description:
        'The whole world model as it was at a point in time, rebuilt from the recorded history: how many entities ' +
        'existed, the most important ones with their state then and their relationships then, and (for a period or ' +
        'month) which were active in it. Without `period`, the world now.',
      inputSchema: {
        period: spanInput('period')
          .optional()
          .describe(
            'a period name (list_periods), a date (2024-05-01) or a time such as "May 2024" or "spring 2025"; the world is read at its end. Omit for now.',
          ),
        type: z
          .string()
          .max(60)
          .optional()
          .describe(
            'only entities of this type (person, project, tool, belief, …; any case); an unknown type is an error naming the known ones',
          ),
        limit: limitInput('entities', 30, 200),
        time_format: timeFormatInput,
      },
      outputSchema: withBudget(snapshotSchema),
      annotations: READ_ONLY,
    },
    ({ period, type, limit, time_format }) =>
      guarded(deps, { subject: 'period', ...(period === undefined ? {} : { name: period }) }, async () => {
        const time = await timeContext(deps, time_format);
        const span =
          period === undefined
            ? nowSpan({ now: time.now })
            : resolveSpan({ text: period, now: time.now, tz: time.tz, periods: time.periods });
        const snapshot = await snapshotAt({
          store: deps.store,
          at: span.at,
          span,
          limit: limit ?? 30,
          ...(type === undefined ? {} : { type }),
        });
        return respond(deps, {
          text: compileSnapshot({ snapshot, time }),
          structured: snapshotOut(snapshot),
          narrow: 'Pass a smaller limit or a type (e.g. "project"), or ask get_entity_timeline about one entity.',
        });
      }),
  );

  server.registerTool(
    'diff_periods',
    {
      title: 'What changed between two periods',
      description:
        'What changed in the world model between the end of period A and the end of period B (period names, dates or ' +
        'times such as "spring 2025"; "now" for the present): new entities, changed state, relationships begun and ' +
        'ended, reversed beliefs, contradictions raised, and what went quiet or became active. E.g. ' +
        'diff_periods("junior year", "gap semester").',
      inputSchema: {
        period_a: spanInput('first period').describe('the earlier period, date or time'),
        period_b: spanInput('second period').describe('the later period, date or time ("now" for the present)'),
        limit: limitInput('items per kind of change', 10, 100),
        time_format: timeFormatInput,
      },
      outputSchema: withBudget(diffSchema),
      annotations: READ_ONLY,
    },
    ({ period_a, period_b, limit, time_format }) =>
      guarded(deps, {}, async () => {
        const time = await timeContext(deps, time_format);
        const args = { now: time.now, tz: time.tz, periods: time.periods };
        // Each end is resolved on its own, so an unknown name is reported as that name, with the known periods.
        const resolve = (name: string): { span: Span } | { error: CallToolResult } => {
          try {
            return { span: resolveSpan({ ...args, text: name }) };
          } catch (error) {
            return { error: toolError(error, { subject: 'period', name }, deps.log) };
          }
        };
        const a = resolve(period_a);
        if ('error' in a) return a.error;
        const b = resolve(period_b);
        if ('error' in b) return b.error;
        const diff = await diffWorld({ store: deps.store, a: a.span, b: b.span, limit: limit ?? 10 });
        return respond(deps, {
          text: compileDiff({ diff, time }),
          structured: diffOut(diff),
          narrow: 'Pass a smaller limit, or compare shorter periods.',
        });
      }),
  );

  server.registerTool(
    'get_contradictions',
    {
      title: 'Unresolved contradictions',
      description:
        "Contradictions in the world model: an entity's state that flipped against what was known (a pivot, a " +
        'reversed decision) and beliefs that conflict, each with when it happened and the source conversation. ' +
        'Unresolved ones by default, newest first.',
      inputSchema: {
        entity_name: z.string().min(1).max(300).optional().describe('only those about this entity (name or alias)'),
        include_resolved: z.boolean().optional().describe('also list resolved ones, marked as such (default false)'),
        limit: limitInput('contradictions', 25, 200),
        time_format: timeFormatInput,
      },
      outputSchema: withBudget({
        entity: z.string().nullable(),
        includeResolved: z.boolean(),
        total: z.number().int(),
        unresolved: z.number().int(),
        contradictions: z.array(contradictionSchema),
      }),
      annotations: READ_ONLY,
    },
    ({ entity_name, include_resolved, limit, time_format }) =>
      guarded(deps, { subject: 'entity', ...(entity_name === undefined ? {} : { name: entity_name }) }, async () => {
        const time = await timeContext(deps, time_format);
        const all = include_resolved ?? false;
        const list = await listContradictions({
          store: deps.store,
          all,
          ...(entity_name === undefined ? {} : { entityName: entity_name }),
        });
        const shown = list.slice(0, limit ?? 25);
        const text = compileContradictions({ contradictions: shown, entity: entity_name ?? null, all, time });
        const more = list.length - shown.length;
        return respond(deps, {
          text: more > 0 ? `${text}\n… and ${more} more (pass a larger limit, or an entity_name).` : text,
          structured: {
            entity: entity_name ?? null,
            includeResolved: all,
            total: list.length,
            unresolved: list.filter((c) => !c.resolved).length,
            contradictions: shown.map(contradictionOut),
          },
          narrow: 'Pass an entity_name or a smaller limit.',
        });
      }),
  );
}

async function timeContext(deps: McpDeps, format: TimeFormat | undefined): Promise<TimeContext> {
  return { now: deps.clock.now(), tz: deps.tz, format: format ?? 'hybrid', periods: await deps.store.periods.list() };
}
