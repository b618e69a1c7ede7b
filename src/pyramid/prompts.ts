import { z } from 'zod';
import { definePrompt, defineTextPrompt } from '../llm/index.js';

const FORMAT =
  'Write telegram-style lines, one fact per line, each starting with its importance as [N] (1 trivial, 5 normal, ' +
  '7 notable, 10 critical). Mark the few that matter most with IMPORTANT:, CRITICAL: or ESSENTIAL:. Keep names, ' +
  'dates, numbers and places; drop filler words and repetitions; no other text.';

/** pyramid-summarize-observations@1: a tier-0 summary of one (day, model). */
export const SUMMARIZE_OBSERVATIONS = defineTextPrompt({
  name: 'pyramid-summarize-observations',
  version: 1,
  maxOutputTokens: 800,
  render: (input: { model: string; window: string; lines: string }) => [
    {
      role: 'system',
      content: `You compress observations about the mental model "${input.model}" (${input.window}) into a summary. ${FORMAT}`,
    },
    { role: 'user', content: `Observations:\n${input.lines}` },
  ],
});

/** pyramid-summarize-summaries@1: tier N+1 from up to three tier N summaries. */
export const SUMMARIZE_SUMMARIES = defineTextPrompt({
  name: 'pyramid-summarize-summaries',
  version: 1,
  maxOutputTokens: 900,
  render: (input: { model: string; window: string; tier: number; lines: string }) => [
    {
      role: 'system',
      content: `You merge summaries about the mental model "${input.model}" into one tier-${input.tier} summary covering ${input.window}. Keep what stays relevant over time. ${FORMAT}`,
    },
    { role: 'user', content: `Summaries, oldest first:\n${input.lines}` },
  ],
});

const assignmentSchema = z.object({
  assignments: z.array(
    z.object({
      observationId: z.string(),
      modelName: z
        .string()
        .min(1)
        .transform((s) => s.trim()),
    }),
  ),
});

/** pyramid-assign-models@1: the assign_model tool of the spec, as structured output for a batch. */
export const ASSIGN_MODELS = definePrompt({
  name: 'pyramid-assign-models',
  version: 1,
  schema: assignmentSchema,
  maxOutputTokens: 1500,
  render: (input: { models: string; observations: string }) => [
    {
      role: 'system',
      content:
        'Assign each observation to one mental model: "self" (the assistant: its capabilities, preferences, ' +
        'learnings), "user" (the person: identity, preferences, projects, life events), "system" (the technical ' +
        'environment: tools, configurations, software), or a distinct person, project, company or topic that ' +
        'deserves its own model (lower case, hyphenated, e.g. "maya-chen"). Reuse existing models when they fit. ' +
        'Answer with {"assignments":[{"observationId":"…","modelName":"…"}]} covering every observation.',
    },
    { role: 'user', content: `Existing models:\n${input.models}\n\nObservations:\n${input.observations}` },
  ],
});
