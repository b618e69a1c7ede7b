import { z } from 'zod';
import { definePrompt } from '../llm/index.js';
import { INTENTS } from './types.js';

/**
 * classify-query@1: when a model is configured, it reads the question's intent and the names it mentions; the
 * rules' answer is the fallback when the call fails. Code still decides the time ranges and the retrieval.
 */
export const CLASSIFY_QUERY_PROMPT = definePrompt({
  name: 'classify-query',
  version: 1,
  maxOutputTokens: 300,
  schema: z.object({
    intent: z.enum(INTENTS),
    entities: z
      .array(z.string())
      .nullish()
      .transform((v) => v ?? []),
    wantsHistory: z
      .boolean()
      .nullish()
      .transform((v) => v ?? null),
  }),
  render: (input: { question: string; knownNames: string[] }) => [
    {
      role: 'system',
      content:
        "You route questions about a person's life to a temporal world model. Classify the question's intent:\n" +
        '- temporal_diff: how something changed or evolved, or what differed between two times\n' +
        '- current_state: the present state of something named\n' +
        '- entity_lookup: who or what something named is\n' +
        '- procedural: how the person usually does or approaches something\n' +
        '- relationship: how two named things are connected\n' +
        '- contradiction: conflicts, reversals, inconsistencies\n' +
        '- general: anything else\n' +
        'List the names of people, projects, tools, organizations, places or ideas the question mentions, as written. ' +
        'Set wantsHistory to true when the answer needs past or superseded states, false when only the present matters. ' +
        'Answer with JSON {"intent": "...", "entities": ["..."], "wantsHistory": true|false}.',
    },
    {
      role: 'user',
      content:
        `Question: ${input.question}` +
        (input.knownNames.length > 0 ? `\nNames found in the world model: ${input.knownNames.join(', ')}` : ''),
    },
  ],
});
