import { defineTextPrompt } from '../llm/index.js';

/**
 * answer-question@1: answers from the compiled context only, citing its numbered sources. Saying what is not known
 * is a valid answer; inventing is not.
 */
export const ANSWER_PROMPT = defineTextPrompt({
  name: 'answer-question',
  version: 1,
  maxOutputTokens: 1200,
  render: (input: { question: string; context: string; now: string }) => [
    {
      role: 'system',
      content:
        "You answer questions about a person's life and work from their personal memory: a temporal world model " +
        'built from their past conversations. Use only the context below. Times in it are relative to now ' +
        `(${input.now}); periods name phases of the person's life. When things changed, say how and when. ` +
        'Cite the sources you used as [n]. If the context does not contain the answer, say so plainly instead of ' +
        'guessing. Address the person as "you".',
    },
    { role: 'user', content: `Context:\n${input.context}\n\nQuestion: ${input.question}` },
  ],
});
