import { createTokenBudget, truncateToTokens } from '../../compile/budget.js';
import { longDate } from '../../compile/time-format.js';
import type { Conversation } from '../../domain/conversation.js';
import type { Tokenizer } from '../../ports/tokenizer.js';
import { buildBm25 } from '../bm25.js';
import { turnChunks } from '../chunks.js';

/**
 * The naive_rag baseline's context at a token budget: BM25 over chunks of `chunkTurns` consecutive turns, best first,
 * each headed by its number and its session's date (as the --qa baseline writes it), added while they fit; the first
 * chunk that does not fit is cut at the budget, so the baseline uses all of it.
 */
export function naiveRagContexts(input: {
  conversations: readonly Conversation[];
  tz: string;
  chunkTurns: number;
  tokenizer: Tokenizer;
}): (question: string, budget: number) => string {
  const dates = new Map(input.conversations.map((c) => [c.externalId, c.createdAt]));
  const index = buildBm25(turnChunks(input.conversations, input.chunkTurns), (c) => c.text);
  return (question, budget) => {
    const out = createTokenBudget({ limit: budget, tokenizer: input.tokenizer });
    const hits = index.search(question, 1000);
    for (const [i, h] of hits.entries()) {
      const date = dates.get(h.doc.session);
      const block = `[${i + 1}] ${date === undefined ? '' : longDate(date, input.tz)}\n${h.doc.text}\n`;
      if (out.take(block)) continue;
      // The first chunk that does not fit fills what is left, line by line (cut inside its last line).
      for (const line of block.split('\n')) {
        if (out.take(line)) continue;
        const cut = truncateToTokens({ text: line, limit: out.left() - 1, tokenizer: input.tokenizer });
        if (cut !== '') out.take(cut);
        break;
      }
      break;
    }
    return out.text();
  };
}
