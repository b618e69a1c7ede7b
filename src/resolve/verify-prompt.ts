import { z } from 'zod';
import { definePrompt, type LlmClient } from '../llm/index.js';
import type { MatchVerifier } from './resolver.js';

/**
 * verify-entity@1: the last resolution layer. Asked only for ambiguous candidates (fuzzy similarity in the review
 * band), so it costs a handful of small calls per run, each cached.
 */
export const VERIFY_ENTITY_PROMPT = definePrompt({
  name: 'verify-entity',
  version: 1,
  schema: z.object({ same: z.boolean(), reason: z.string().nullish() }),
  maxOutputTokens: 200,
  render: (input: {
    name: string;
    type: string | undefined;
    candidate: { name: string; type: string; aliases: string[] };
  }) => [
    {
      role: 'system',
      content:
        "You decide whether two mentions in a person's chat history name the same real-world entity. " +
        'Answer with JSON {"same": true|false, "reason": "..."}. Say true only when they are clearly the same thing; ' +
        'similar spelling alone is not enough.',
    },
    {
      role: 'user',
      content:
        `New mention: "${input.name}"${input.type ? ` (type: ${input.type})` : ''}\n` +
        `Known entity: "${input.candidate.name}" (type: ${input.candidate.type})` +
        (input.candidate.aliases.length > 0
          ? `, also called ${input.candidate.aliases.map((a) => `"${a}"`).join(', ')}`
          : ''),
    },
  ],
});

export function createEntityVerifier(input: { client: LlmClient }): MatchVerifier {
  return async ({ name, type, candidate }) => {
    const { object } = await input.client.generate({ prompt: VERIFY_ENTITY_PROMPT, input: { name, type, candidate } });
    return object.same;
  };
}
