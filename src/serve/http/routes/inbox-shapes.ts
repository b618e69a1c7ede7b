import { z } from 'zod';
import { FINDING_KINDS } from '../../../audit/detectors.js';
import { SLEEP_TASK_ACTIONS, SLEEP_TASK_STATUSES } from '../../../ports/sleep-task-store.js';
import { entityRefSchema, isoTime, stateSchema } from '../../mcp/schemas.js';

/** The inbox's answers (OpenAPI response schemas; the handlers' return types are checked against them). */
const ref = entityRefSchema.extend({
  importance: z.number(),
  tier: z.enum(['active', 'summarized', 'archived']),
});
const source = z
  .object({ episodeId: z.string(), title: z.string(), time: isoTime })
  .nullable()
  .describe('the conversation it came from');

const claim = z.object({
  state: stateSchema.nullable().describe('the values claimed (a state contradiction)'),
  entity: ref.nullable().describe('the belief that claims it (two conflicting beliefs)'),
  time: isoTime.nullable(),
  source,
  summary: z.string().nullable().describe('the change that stated it'),
});

const contradiction = z.object({
  kind: z.enum(['state', 'edge']).describe('state: a contradiction transition; edge: a CONTRADICTS relationship'),
  id: z.string().describe('what POST /api/inbox/contradictions takes'),
  entity: ref,
  other: ref.nullable().describe('the belief recorded as contradicting it'),
  summary: z.string(),
  older: claim,
  newer: claim,
});

const side = ref.extend({
  aliases: z.array(z.string()),
  state: stateSchema,
  firstSeen: isoTime,
  lastSeen: isoTime,
  source,
});

const merge = z.object({
  a: side,
  b: side,
  into: z.string().describe('the entity a merge keeps by the sleep cycle’s rule'),
  why: z.string(),
  taskId: z.string(),
  status: z.enum(SLEEP_TASK_STATUSES),
  attempts: z.number().int(),
  since: isoTime,
});

const task = z.object({
  id: z.string(),
  action: z.enum(SLEEP_TASK_ACTIONS),
  reason: z.string(),
  status: z.enum(SLEEP_TASK_STATUSES),
  attempts: z.number().int(),
  result: z.string().nullable(),
  priority: z.number(),
  createdAt: isoTime,
  subjects: z.array(ref),
});

const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), offset: z.number().int(), limit: z.number().int() });

export const inboxResponse = z.object({
  contradictions: page(contradiction).optional(),
  merges: page(merge).optional(),
  tasks: page(task).optional(),
});

export const countsResponse = z.object({
  contradictions: z.number().int(),
  merges: z.number().int(),
  tasks: z.number().int(),
  total: z.number().int(),
});

const finding = z.object({
  kind: z.enum(FINDING_KINDS),
  entity: entityRefSchema,
  why: z.string(),
  action: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('archive') }),
    z.object({ kind: z.literal('retype'), type: z.string() }),
    z.object({ kind: z.literal('merge'), into: z.object({ id: z.string(), name: z.string() }) }),
    z.object({ kind: z.literal('review'), what: z.string() }),
  ]),
  safe: z.boolean().describe('pie audit --fix would apply it'),
  source: z.object({ episodeId: z.string(), title: z.string(), excerpt: z.string().nullable() }).nullable(),
  detail: z.string().optional(),
  other: entityRefSchema.optional().describe('the other entity of a likely duplicate'),
});

export const auditResponse = page(finding).extend({ entities: z.number().int() });

export const decisionResponse = z.object({
  runId: z.string().describe('undo it with POST /api/undo {run_id}'),
  kind: z.string().describe('the maintenance log kind: inbox, or audit for an audit fix'),
  message: z.string(),
  journaled: z.number().int().describe('row changes journaled'),
});
