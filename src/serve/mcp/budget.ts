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

interface ArrayRef {
  path: string;
  array: Json[];
  size: number;
}

/**
 * Holds structured content to `maxTokens` (of its JSON) by shortening its largest lists from the end, a few times
 * at most; totals the lists carry elsewhere stay, so a program can tell. Returns what was shortened.
 */
export function fitStructured<T extends object>(input: {
  value: T;
  maxTokens: number;
  count: CountTokens;
}): { value: T; omitted: BudgetReport['omitted'] } {
  const value = structuredClone(input.value);
  const totals = new Map<string, { kept: number; total: number }>();
  for (let round = 0; round < 24; round++) {
    const tokens = input.count(JSON.stringify(value));
    if (tokens <= input.maxTokens) break;
    const largest = arraysOf(value as Json, '').sort((x, y) => y.size - x.size)[0];
    if (!largest || largest.array.length === 0) break;
    const keep = Math.min(
      largest.array.length - 1,
      Math.floor(largest.array.length * Math.max(0, 1 - (tokens - input.maxTokens) / largest.size) * 0.9),
    );
    const total = totals.get(largest.path)?.total ?? largest.array.length;
    largest.array.length = Math.max(0, keep);
    totals.set(largest.path, { kept: largest.array.length, total });
  }
  return { value, omitted: [...totals].map(([path, t]) => ({ path, ...t })) };
}

function arraysOf(node: Json, path: string): ArrayRef[] {
  if (node === null || typeof node !== 'object') return [];
  if (Array.isArray(node)) {
    const here: ArrayRef[] = node.length > 0 ? [{ path: path || '.', array: node, size: size(node) }] : [];
    return [...here, ...node.flatMap((child, i) => arraysOf(child, `${path}[${i}]`))];
  }
  return Object.entries(node).flatMap(([key, child]) => arraysOf(child, path ? `${path}.${key}` : key));
}

/** Approximate tokens of a JSON value (4 characters per token); only used to pick the largest list. */
function size(node: Json): number {
  return Math.ceil(JSON.stringify(node).length / 4);
}
