import type { Embedder } from '../ports/embedder.js';
import type { LanguageModel } from '../ports/llm.js';
import type { RedactionCategory } from './detectors.js';
import { createRedactor } from './redactor.js';

/**
 * A model whose prompts are redacted before they leave the machine and whose answers are mapped back: the provider
 * sees `⟦EMAIL_1⟧`, the world model keeps the address. One redactor per request, so placeholders are consistent
 * within a prompt and its answer. `onRedacted` hears what each request hid (counts per category).
 */
export function redactingModel(input: {
  model: LanguageModel;
  categories: ReadonlySet<RedactionCategory>;
  onRedacted?: (counts: Partial<Record<RedactionCategory, number>>) => void;
}): LanguageModel {
  const { model, categories } = input;
  if (categories.size === 0) return model;
  return {
    ref: model.ref,
    async generate(request) {
      const redactor = createRedactor(categories);
      const messages = request.messages.map((m) => ({ ...m, content: redactor.redact(m.content) }));
      const counts = redactor.counts();
      if (Object.keys(counts).length > 0) input.onRedacted?.(counts);
      const json = request.jsonSchema !== undefined;
      const onText = request.onText;
      if (!onText) {
        const response = await model.generate({ ...request, messages });
        return { ...response, text: redactor.restore(response.text, { json }) };
      }
      // Streamed: a placeholder can arrive in pieces ("⟦EMA", "IL_1⟧"), so text from an unclosed "⟦" on is held back
      // until it closes; everything before it is restored and passed on.
      let held = '';
      const response = await model.generate({
        ...request,
        messages,
        onText: (delta) => {
          held += delta;
          const open = held.lastIndexOf('⟦');
          const cut = open !== -1 && !held.includes('⟧', open) ? open : held.length;
          if (cut > 0) onText(redactor.restore(held.slice(0, cut), { json }));
          held = held.slice(cut);
        },
      });
      if (held !== '') onText(redactor.restore(held, { json }));
      return { ...response, text: redactor.restore(response.text, { json }) };
    },
  };
}

/** An embedder whose texts are redacted before they leave the machine (placeholders embed as words do). */
export function redactingEmbedder(input: { embedder: Embedder; categories: ReadonlySet<RedactionCategory> }): Embedder {
  const { embedder, categories } = input;
  if (categories.size === 0) return embedder;
  return {
    model: embedder.model,
    dimensions: embedder.dimensions,
    embed: (texts) => {
      const redactor = createRedactor(categories);
      return embedder.embed(texts.map((t) => redactor.redact(t)));
    },
  };
}
