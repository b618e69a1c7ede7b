import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { fitStructured, fitText, type BudgetReport } from './budget.js';
import type { McpDeps } from './deps.js';
import { toolError, type ErrorContext } from './errors.js';

/** Read tools: they never change the world model (access counts are bookkeeping, not content). */
export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * A tool's answer held to the token budget: the text for the model (cut at line boundaries with a note on what was
 * cut and how to narrow the request, `narrow`) and the structured content for programs (lists shortened from the
 * end if its JSON is over the budget too), which reports what the budget did under `budget`.
 */
export function respond<T extends object>(
  deps: Pick<McpDeps, 'maxTokens' | 'countTokens'>,
  input: { text: string; structured: T; narrow: string },
): CallToolResult {
  const { maxTokens, countTokens: count } = deps;
  const text = fitText({ text: input.text, maxTokens, count, narrow: input.narrow });
  const fitted = fitStructured({ value: input.structured, maxTokens, count });
  const notes: string[] = [];
  if (text.cutLines > 0) notes.push(`${text.cutLines} of ${text.totalLines} lines of text left out`);
  if (fitted.omitted.length > 0) {
    notes.push(`lists shortened: ${fitted.omitted.map((o) => `${o.path} (${o.kept} of ${o.total})`).join(', ')}`);
  }
  const budget: BudgetReport = {
    maxTokens,
    textTokens: text.tokens,
    truncated: notes.length > 0,
    note:
      notes.length > 0 ? `${capitalize(notes.join('; '))} to stay within ${maxTokens} tokens. ${input.narrow}` : null,
    omitted: fitted.omitted,
  };
  return {
    content: [{ type: 'text', text: text.text }],
    structuredContent: { ...(fitted.value as Record<string, unknown>), budget },
  };
}

/** Runs a tool body; a failure becomes a tool error the model can act on (see errors.ts). */
export async function guarded(
  deps: Pick<McpDeps, 'log'>,
  context: ErrorContext,
  body: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error, context, deps.log);
  }
}

/** ISO 8601 (UTC) for structured content; null stays null. */
export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
