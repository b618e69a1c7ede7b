import { z } from 'zod';
import { definePrompt } from '../llm/index.js';

/**
 * The sleep cycle's model prompts (versioned: change the version whenever the wording or the schema changes
 * meaning). The model classifies and observes; code decides what is written, with which times and evidence.
 */

const verdictSchema = z.object({
  verdicts: z.array(
    z.object({
      key: z.string(),
      verdict: z.enum(['superseded', 'unsettled']),
      reason: z.string().transform((s) => s.trim()),
    }),
  ),
});
export type ContradictionVerdicts = z.infer<typeof verdictSchema>;

/** sleep-contradiction-verdicts@1: has the newer state of each contradiction won, or is it still unsettled? */
export const CONTRADICTION_VERDICTS = definePrompt({
  name: 'sleep-contradiction-verdicts',
  version: 1,
  schema: verdictSchema,
  maxOutputTokens: 1500,
  render: (input: { items: string }) => [
    {
      role: 'system',
      content:
        'Each item is a contradiction in a personal memory: a newer state replaced an older one it contradicted. ' +
        'From the later history given, decide whether the newer state has clearly won ("superseded": the older ' +
        'state is history) or whether it is still unsettled ("unsettled": the evidence goes both ways or is too ' +
        'thin). Prefer "unsettled" when in doubt. Answer with {"verdicts":[{"key":"C1","verdict":"superseded",' +
        '"reason":"one short sentence"}]} covering every item.',
    },
    { role: 'user', content: input.items },
  ],
});

const insightSchema = z.object({
  insights: z
    .array(
      z.object({
        text: z
          .string()
          .min(1)
          .transform((s) => s.trim()),
        evidence: z.array(z.string()),
        confidence: z.number().min(0).max(1),
      }),
    )
    .max(10),
});
export type DreamInsights = z.infer<typeof insightSchema>;

/** sleep-deep-dream@1: insights about one cluster of related entities and their recent changes. */
export const DEEP_DREAM = definePrompt({
  name: 'sleep-deep-dream',
  version: 1,
  schema: insightSchema,
  maxOutputTokens: 1500,
  render: (input: { cluster: string; changes: string }) => [
    {
      role: 'system',
      content:
        "You reflect on one area of a person's life from their memory graph: related entities (each with a key " +
        'like E1) and their recent changes. Write up to 5 insights that no single conversation states: how their ' +
        'thinking or work in this area evolved, tensions, patterns, what looks stale. Each insight names the keys of ' +
        'the entities it rests on and a confidence from 0 to 1. Do not invent facts. Answer with ' +
        '{"insights":[{"text":"…","evidence":["E1","E2"],"confidence":0.6}]}.',
    },
    { role: 'user', content: `Entities:\n${input.cluster}\n\nRecent changes, oldest first:\n${input.changes}` },
  ],
});

/** sleep-mega-dream@1: cross-domain synthesis over the most important entities and the procedures. */
export const MEGA_DREAM = definePrompt({
  name: 'sleep-mega-dream',
  version: 1,
  schema: insightSchema,
  maxOutputTokens: 2000,
  render: (input: { entities: string; procedures: string }) => [
    {
      role: 'system',
      content:
        "You look across every domain of a person's memory graph: their most important entities (each with a key " +
        'like E1) and the recurring patterns (procedures) found in their history. Write up to 5 high-level ' +
        'insights: how their thinking evolved across domains, blind spots, under-explored connections between ' +
        'domains, where they seem to be heading. Each insight names the keys of the entities it rests on and a ' +
        'confidence from 0 to 1. Do not invent facts. Answer with ' +
        '{"insights":[{"text":"…","evidence":["E1","E4"],"confidence":0.5}]}.',
    },
    {
      role: 'user',
      content: `Most important entities:\n${input.entities}\n\nProcedures:\n${input.procedures}`,
    },
  ],
});
