import { z } from 'zod';
import type { AttributeLane } from '../../../query/timeline/attributes.js';
import type { LifeTimeline, TimelineBand, TimelineMark } from '../../../query/timeline/life.js';
import type { MarkSource } from '../../../query/timeline/source.js';
import { entityRefSchema, isoTime, stateSchema, stateValue } from '../../mcp/schemas.js';
import { iso } from '../route.js';

/** The answers of the life timeline routes (ISO times), and the functions that write them. */

const TRANSITION_KIND = z.enum(['creation', 'update', 'contradiction', 'resolution', 'archival', 'summary']);

const bandSchema = z.object({
  id: z.string(),
  name: z.string(),
  start: isoTime,
  end: isoTime.nullable().describe('null: no known end'),
  ongoing: z.boolean(),
  row: z.number().int().describe('the band row (overlapping periods stack)'),
});

const markSchema = z.object({
  id: z.string().describe('the transition id'),
  kind: TRANSITION_KIND,
  time: isoTime,
  summary: z.string(),
  attributes: z.array(z.string()).describe('attributes the change set'),
  contradiction: z.boolean(),
  unresolved: z.boolean().describe('a contradiction no resolution has closed'),
  episodeId: z.string().nullable(),
});

export const lifeTimelineSchema = z.object({
  start: isoTime,
  end: isoTime,
  periods: z.array(bandSchema),
  period: bandSchema.nullable().describe('the period the view is limited to'),
  lanes: z.array(
    z.object({
      entity: entityRefSchema.extend({ importance: z.number(), tier: z.string() }),
      firstSeen: isoTime,
      lastSeen: isoTime,
      marks: z
        .array(markSchema)
        .describe("capped: contradictions (up to half the cap), then changes sampled over the lane's life; by time"),
      marksTotal: z.number().int().describe('marks matching the filters before the cap'),
      contradictions: z.number().int(),
    }),
  ),
  attributes: z.array(z.object({ name: z.string(), count: z.number().int() })),
  types: z.array(z.object({ type: z.string(), count: z.number().int() })),
  considered: z.number().int().describe('entities considered for the lanes'),
});

function bandOut(b: TimelineBand): z.infer<typeof bandSchema> {
  return { ...b, start: iso(b.start), end: iso(b.end) };
}

function markOut(m: TimelineMark): z.infer<typeof markSchema> {
  return { ...m, time: iso(m.time) };
}

export function lifeTimelineOut(t: LifeTimeline): z.infer<typeof lifeTimelineSchema> {
  return {
    ...t,
    start: iso(t.start),
    end: iso(t.end),
    periods: t.periods.map(bandOut),
    period: t.period ? bandOut(t.period) : null,
    lanes: t.lanes.map((l) => ({
      ...l,
      firstSeen: iso(l.firstSeen),
      lastSeen: iso(l.lastSeen),
      marks: l.marks.map(markOut),
    })),
  };
}

export const markSourceSchema = z.object({
  id: z.string(),
  kind: TRANSITION_KIND,
  summary: z.string(),
  time: isoTime,
  from: stateSchema.nullable().describe('the values before (the attributes it changed)'),
  to: stateSchema,
  contradiction: z.boolean(),
  entity: entityRefSchema,
  episode: z.object({ id: z.string(), title: z.string(), time: isoTime }).nullable(),
  turn: z
    .object({
      seq: z.number().int(),
      role: z.enum(['user', 'assistant']),
      text: z.string().describe('the turn, or an excerpt around what it says about the change'),
      truncated: z.boolean(),
    })
    .nullable()
    .describe('the turn that names the most of what changed'),
});

export function markSourceOut(s: MarkSource): z.infer<typeof markSourceSchema> {
  return { ...s, time: iso(s.time), episode: s.episode ? { ...s.episode, time: iso(s.episode.time) } : null };
}

export const attributeHistorySchema = z.object({
  entity: entityRefSchema,
  attributesTotal: z.number().int(),
  lanes: z.array(
    z.object({
      attribute: z.string(),
      total: z.number().int().describe('values it ever held'),
      values: z.array(
        z.object({
          value: stateValue,
          from: isoTime,
          to: isoTime.nullable().describe('null: still current'),
          episodeId: z.string().nullable(),
        }),
      ),
    }),
  ),
});

export function attributeLaneOut(l: AttributeLane) {
  return { ...l, values: l.values.map((v) => ({ ...v, from: iso(v.from), to: iso(v.to) })) };
}
