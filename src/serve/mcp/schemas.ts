import { z } from 'zod';
import type { Entity } from '../../domain/world.js';
import { budgetSchema } from './budget.js';
import { iso } from './respond.js';

/** Shapes shared by the tools' output schemas. Times are ISO 8601 strings in UTC. */
export const isoTime = z.string().describe('ISO 8601 time, UTC');
export const stateValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const stateSchema = z.record(z.string(), stateValue).describe('attribute → value');

export const entityRefSchema = z.object({ id: z.string(), name: z.string(), type: z.string() });
export type EntityRefOut = z.infer<typeof entityRefSchema>;

export const entitySchema = entityRefSchema.extend({
  aliases: z.array(z.string()),
  state: stateSchema.describe('current state: attribute → value'),
  firstSeen: isoTime,
  lastSeen: isoTime,
  importance: z.number(),
  tier: z.string().describe('active | summarized | archived'),
});
export type EntityOut = z.infer<typeof entitySchema>;

export const sourceSchema = z.object({ episodeId: z.string(), title: z.string(), time: isoTime });

export const relationshipSchema = z.object({
  type: z.string(),
  source: entityRefSchema,
  target: entityRefSchema,
  properties: stateSchema,
  since: isoTime,
  until: isoTime.nullable().describe('null while it holds'),
});

export const TIME_FORMATS = ['semantic', 'absolute', 'hybrid'] as const;
export const timeFormatInput = z
  .enum(TIME_FORMATS)
  .optional()
  .describe(
    'how times are written: semantic ("4 months ago, during …"), absolute ("1 July 2025") or hybrid (both; the default)',
  );

export const limitInput = (what: string, fallback: number, max: number) =>
  z
    .number()
    .int()
    .min(1, { error: `limit must be at least 1 (it counts ${what}).` })
    .max(max, { error: `limit can be at most ${max}; narrow the request instead of asking for more ${what}.` })
    .optional()
    .describe(`how many ${what} to list (default ${fallback}, at most ${max})`);

/** Every structured result carries what the token budget did to it. */
export function withBudget<S extends z.ZodRawShape>(shape: S) {
  return z.object({ ...shape, budget: budgetSchema });
}

export function refOut(e: Pick<Entity, 'id' | 'name' | 'type'>): EntityRefOut {
  return { id: e.id, name: e.name, type: e.type };
}

export function entityOut(e: Entity): EntityOut {
  return {
    ...refOut(e),
    aliases: e.aliases,
    state: e.state,
    firstSeen: iso(e.firstSeen),
    lastSeen: iso(e.lastSeen),
    importance: e.importance,
    tier: e.tier,
  };
}
