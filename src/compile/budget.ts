import type { Tokenizer } from '../ports/tokenizer.js';

/**
 * Token budgets for compiled text (DESIGN.md §4; issue "the context must beat naive RAG"): a context is assembled
 * from pieces in priority order and never exceeds the caller's budget, counted with the project's tokenizer.
 */
export interface TokenBudget {
  /** The most tokens the text may have. */
  readonly limit: number;
  /** Tokens used so far. */
  used(): number;
  /** Tokens still free. */
  left(): number;
  /** Takes the text if it fits in what is left (the separator before it counted); says whether it did. */
  take(text: string): boolean;
  /** Takes all the lines or none (counted together, once). */
  takeAll(lines: readonly string[]): boolean;
  /** Whether the text would fit, without taking it. */
  fits(text: string): boolean;
  /** Everything taken, joined by newlines (within `limit`). */
  text(): string;
  /** Tokens of `text()`. */
  tokens(): number;
}

/**
 * A budget over lines joined by "\n". Counting the joined text after every line would be quadratic, so each line is
 * counted on its own with its newline: BPE encodings never merge across a newline into a following word in the
 * o200k/cl100k families, so the sum equals the count of the joined text or exceeds it by a token at most per line,
 * and the final text is checked once more (`text()` stays within `limit`).
 */
export function createTokenBudget(input: { limit: number; tokenizer: Tokenizer }): TokenBudget {
  const { limit, tokenizer } = input;
  const lines: string[] = [];
  let used = 0;
  let final: { text: string; tokens: number } | null = null;
  const cost = (text: string) => tokenizer.count(lines.length === 0 ? text : `\n${text}`);
  const done = () => {
    if (final) return final;
    const joined = lines.join('\n');
    const tokens = tokenizer.count(joined);
    const text = tokens <= limit ? joined : truncateToTokens({ text: joined, limit, tokenizer });
    final = { text, tokens: text === joined ? tokens : tokenizer.count(text) };
    return final;
  };
  return {
    limit,
    used: () => used,
    left: () => Math.max(0, limit - used),
    fits: (text) => used + cost(text) <= limit,
    take(text) {
      const c = cost(text);
      if (used + c > limit) return false;
      lines.push(text);
      used += c;
      final = null;
      return true;
    },
    takeAll(block) {
      if (block.length === 0) return true;
      const c = cost(block.join('\n'));
      if (used + c > limit) return false;
      lines.push(...block);
      used += c;
      final = null;
      return true;
    },
    text: () => done().text,
    tokens: () => done().tokens,
  };
}

/**
 * The longest prefix of the text (cut at a word boundary where one is near) with at most `limit` tokens: a binary
 * search over the length, so a long text costs about log2(length) counts.
 */
export function truncateToTokens(input: { text: string; limit: number; tokenizer: Tokenizer }): string {
  const { text, limit, tokenizer } = input;
  if (limit <= 0) return '';
  if (tokenizer.count(text) <= limit) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (tokenizer.count(text.slice(0, mid)) <= limit) lo = mid;
    else hi = mid - 1;
  }
  const cut = text.slice(0, lo);
  const space = cut.lastIndexOf(' ');
  return space > lo * 0.8 ? cut.slice(0, space) : cut;
}
