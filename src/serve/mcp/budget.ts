import { z } from 'zod';

/** Tokens a response may take in a client's context unless `--max-tokens` says otherwise. */
export const DEFAULT_MAX_TOKENS = 4000;
/** Below this a response cannot say anything useful (the note alone takes ~60 tokens). */
export const MIN_MAX_TOKENS = 200;

export type CountTokens = (text: string) => number;

/** What the budget did to a response; part of every tool's structured content. */
export const budgetSchema = z
  .object({
    maxTokens: z.number().int().describe('the response budget in tokens (pie mcp --max-tokens)'),
    textTokens: z.number().int().describe('tokens of the text content as sent'),
    truncated: z.boolean().describe('true when something was left out to stay within the budget'),
    note: z.string().nullable().describe('what was cut and how to narrow the request; null when nothing was'),
    omitted: z
      .array(z.object({ path: z.string(), kept: z.number().int(), total: z.number().int() }))
      .describe('lists in the structured content that were shortened from the end'),
  })
  .describe('how the response was held to the token budget');
export type BudgetReport = z.infer<typeof budgetSchema>;

export interface FittedText {
  text: string;
  tokens: number;
  /** Lines left out (0 when the text fit). */
  cutLines: number;
  totalLines: number;
  /** Tokens of the whole text before cutting. */
  fullTokens: number;
}

/**
 * Holds `text` to `maxTokens`: the longest run of whole lines from the start that fits together with a note saying
 * how much was cut and how to narrow the request (`narrow`). A first line longer than the budget is cut inside.
 */
export function fitText(input: { text: string; maxTokens: number; count: CountTokens; narrow: string }): FittedText {
  const { text, maxTokens, count } = input;
  const fullTokens = count(text);
  const lines = text.split('\n');
  if (fullTokens <= maxTokens) return { text, tokens: fullTokens, cutLines: 0, totalLines: lines.length, fullTokens };
  const note = (kept: number): string =>
    `[Cut to fit the ${maxTokens.toLocaleString('en-US')}-token response budget: ${lines.length - kept} of ${lines.length} lines` +
    ` (about ${fullTokens.toLocaleString('en-US')} tokens in all) left out. ${input.narrow}]`;
  const build = (kept: number): string => [...lines.slice(0, kept), note(kept)].join('\n');
  // The most lines that fit, by bisection over the prefix length (token counts grow with it).
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(build(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  if (lo > 0) {
    const out = build(lo);
    return { text: out, tokens: count(out), cutLines: lines.length - lo, totalLines: lines.length, fullTokens };
  }
  // Not even the first line fits: keep as many of its characters as do.
  const first = lines[0] ?? '';
  const withNote = (chars: number): string => `${first.slice(0, chars)}…\n${note(1)}`;
  let a = 0;
  let b = first.length;
  while (a < b) {
    const mid = Math.ceil((a + b) / 2);
    if (count(withNote(mid)) <= maxTokens) a = mid;
    else b = mid - 1;
  }
  const out = withNote(a);
  return { text: out, tokens: count(out), cutLines: lines.length - 1, totalLines: lines.length, fullTokens };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Holds structured content to `maxTokens` (of its JSON) by shortening its lists from the end, all by the same
 * fraction (the largest that fits, found by bisection), so no list is emptied while another stays whole. Lists inside
 * list items are left alone. Totals that the content carries elsewhere stay. Returns what was shortened.
 */
export function fitStructured<T extends object>(input: {
  value: T;
  maxTokens: number;
  count: CountTokens;
}): { value: T; omitted: BudgetReport['omitted'] } {
  const fits = (v: Json): boolean => input.count(JSON.stringify(v)) <= input.maxTokens;
  if (fits(input.value as Json)) return { value: input.value, omitted: [] };
  let best = shortened(input.value as Json, 0);
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 10; i++) {
    const mid = (lo + hi) / 2;
    const candidate = shortened(input.value as Json, mid);
    if (fits(candidate.value)) {
      best = candidate;
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return { value: best.value as T, omitted: best.omitted };
}

/** A copy with every outermost list cut to `fraction` of its length. */
function shortened(node: Json, fraction: number): { value: Json; omitted: BudgetReport['omitted'] } {
  const omitted: BudgetReport['omitted'] = [];
  const walk = (n: Json, path: string): Json => {
    if (n === null || typeof n !== 'object') return n;
    if (Array.isArray(n)) {
      const kept = Math.floor(n.length * fraction);
      if (kept < n.length) omitted.push({ path: path || '.', kept, total: n.length });
      return n.slice(0, kept);
    }
    return Object.fromEntries(Object.entries(n).map(([k, v]) => [k, walk(v, path ? `${path}.${k}` : k)]));
  };
  return { value: walk(node, ''), omitted };
}
