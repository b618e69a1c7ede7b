import { z } from 'zod';

/**
 * ExtractionResult: the output of every extractor (LLM, offline rules, pre-computed) and the input of `pie apply`.
 * The shape is a public contract (DESIGN.md §3). Parsing is lenient where models are sloppy (missing optional
 * fields, null for absent) and strict where a wrong value would corrupt history (names, types, times).
 *
 * Extensions beyond the DESIGN.md example, all optional:
 * - `episodeId` on items: which conversation of the batch the item came from (defaults to the batch's first episode);
 * - `eventTime` on items: an ISO date stated in the conversation ("we launched on March 3"), else the episode's time;
 * - `attribute` on state changes: which state attribute changed (else inferred from the old value, else "status");
 * - `replaces` on beliefs: the statement of an earlier belief this one reverses;
 * - `actions` (actor, verb, object) and `locations`, absorbed from the flowcharts' episode semantics;
 * - `episodes`: per-episode summary/significance/user state when a batch holds several conversations;
 * - `observations` (text, importance 1–10, about, episodeId, eventTime): first-person observations for pyramid memory.
 */

const name = z.string().trim().min(1).max(300);
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const isoTime = z.string().refine((s) => ISO_DATE.test(s.trim()) && Number.isFinite(Date.parse(s)), {
  message: 'not an ISO date',
});
/**
 * An optional event time stated in a conversation. Models sometimes write "March 3" or "last week": such values are
 * dropped (the episode's time is used) rather than failing the whole result.
 */
const optionalEventTime = z
  .string()
  .nullish()
  .transform((v) =>
    typeof v === 'string' && ISO_DATE.test(v.trim()) && Number.isFinite(Date.parse(v)) ? v.trim() : undefined,
  );
const optionalText = z
  .string()
  .nullish()
  .transform((v) => (v === null || v === undefined || v.trim() === '' ? undefined : v.trim()));
const confidence = z.number().min(0).max(1);

/** A field models may leave out or set to null: absent becomes the given default (made fresh for each parse). */
function orElse<S extends z.ZodType, D>(schema: S, fallback: () => D) {
  return schema
    .nullish()
    .transform((v): NonNullable<z.output<S>> | D => (v ?? fallback()) as NonNullable<z.output<S>> | D);
}

/** A list models may leave out or set to null: absent becomes []. */
function listOf<S extends z.ZodType>(item: S) {
  return orElse(z.array(item), (): z.output<S>[] => []);
}
export const stateValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const state = z.record(z.string(), stateValueSchema);
const emptyState = (): z.output<typeof state> => ({});

export const extractedEntitySchema = z.object({
  name,
  type: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .transform((t) => t.toLowerCase()),
  aliases: listOf(name),
  state: orElse(state, emptyState),
  matchesExisting: orElse(z.string(), () => null),
  episodeId: optionalText,
  eventTime: optionalEventTime,
});

export const extractedRelationshipSchema = z.object({
  source: name,
  target: name,
  type: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .transform((t) => t.toUpperCase().replace(/[\s-]+/g, '_')),
  properties: orElse(state, emptyState),
  /** True when the conversation says the relationship ended ("Maya left the team"). */
  ended: orElse(z.boolean(), () => false),
  confidence: orElse(confidence, () => 0.8),
  episodeId: optionalText,
  eventTime: optionalEventTime,
});

export const extractedStateChangeSchema = z.object({
  entityName: name,
  whatChanged: z.string().trim().min(1),
  attribute: optionalText,
  oldStateAspect: optionalText,
  newStateAspect: z.string().trim().min(1),
  isContradiction: orElse(z.boolean(), () => false),
  confidence: orElse(confidence, () => 0.8),
  episodeId: optionalText,
  eventTime: optionalEventTime,
});

export const extractedBeliefSchema = z.object({
  statement: name,
  domain: optionalText,
  confidence: orElse(confidence, () => 0.7),
  replaces: optionalText,
  episodeId: optionalText,
  eventTime: optionalEventTime,
});

export const extractedDecisionSchema = z.object({
  summary: name,
  reasoning: optionalText,
  alternatives: listOf(z.string()),
  relatedEntities: listOf(z.string()),
  episodeId: optionalText,
  eventTime: optionalEventTime,
});

export const extractedActionSchema = z.object({
  actor: name,
  verb: z.string().trim().min(1).max(60),
  object: name,
  episodeId: optionalText,
  eventTime: optionalEventTime,
});

/**
 * A first-person observation for pyramid memory (spec/pyramid-memory.md), optional: extractors may add what the day
 * says about the person beyond the graph. Code decides its id, time and model.
 */
export const extractedObservationSchema = z.object({
  text: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('one first-person sentence about the user, e.g. "User prefers vim keybindings"'),
  /** Out-of-range values are clamped rather than failing the whole result. */
  importance: orElse(
    z.number().transform((n) => Math.min(10, Math.max(1, Math.round(n)))),
    () => 5,
  ).describe('1 trivial … 5 normal … 7 notable … 10 critical'),
  about: optionalText.describe('the name of the entity it is about, if any'),
  episodeId: optionalText,
  eventTime: optionalEventTime,
});

export const episodeAnnotationSchema = z.object({
  id: z.string().min(1),
  summary: optionalText,
  significance: orElse(confidence, () => undefined),
  userState: optionalText,
});

export const extractionResultSchema = z.object({
  batch: z.object({
    id: z.string().min(1),
    date: isoTime,
    episodeIds: z.array(z.string().min(1)).min(1),
  }),
  entities: listOf(extractedEntitySchema),
  relationships: listOf(extractedRelationshipSchema),
  stateChanges: listOf(extractedStateChangeSchema),
  beliefs: listOf(extractedBeliefSchema),
  decisions: listOf(extractedDecisionSchema),
  actions: listOf(extractedActionSchema),
  locations: listOf(name),
  periodContext: optionalText,
  summary: optionalText,
  significance: orElse(confidence, () => undefined),
  userState: optionalText,
  episodes: listOf(episodeAnnotationSchema),
  /** Optional; absent or null means none (the observations of what changed are derived from the transitions). */
  observations: z
    .array(extractedObservationSchema)
    .nullish()
    .transform((v) => v ?? undefined)
    .optional()
    .describe('optional: first-person observations about the user for pyramid memory'),
});

export type ExtractionResult = z.output<typeof extractionResultSchema>;
export type ExtractionResultInput = z.input<typeof extractionResultSchema>;
export type ExtractedEntity = ExtractionResult['entities'][number];
export type ExtractedRelationship = ExtractionResult['relationships'][number];
export type ExtractedStateChange = ExtractionResult['stateChanges'][number];
export type ExtractedBelief = ExtractionResult['beliefs'][number];
export type ExtractedDecision = ExtractionResult['decisions'][number];
export type ExtractedAction = ExtractionResult['actions'][number];
export type ExtractedObservation = NonNullable<ExtractionResult['observations']>[number];
