import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, isPieError, type PieErrorCode } from '../../domain/errors.js';

/**
 * How a failed tool call reads to the model. Tool failures are results with `isError: true` (the MCP spec's tool
 * errors, which clients hand to the model so it can correct itself), not JSON-RPC errors (which clients treat as
 * protocol failures and usually hide). Each message ends with what to try instead.
 */
export interface ErrorContext {
  /** What a NOT_FOUND is about and the name asked for, so the message can name the right next step. */
  subject?: 'entity' | 'period' | 'model';
  name?: string;
}

/** Codes the model can do something about: the message is for it. */
const MODEL_FIXABLE = new Set<PieErrorCode>(['INVALID_ARGUMENT', 'NOT_FOUND', 'INVALID_DATA', 'UNSUPPORTED']);

export function toolError(error: unknown, context: ErrorContext = {}, log?: (message: string) => void): CallToolResult {
  const code: PieErrorCode = isPieError(error) ? error.code : 'INTERNAL';
  const details = isPieError(error) ? error.details : undefined;
  const suggestions = Array.isArray(details?.suggestions)
    ? details.suggestions.filter((s): s is string => typeof s === 'string')
    : [];
  if (!MODEL_FIXABLE.has(code)) {
    const stack = error instanceof Error && !isPieError(error) && error.stack ? `\n${error.stack}` : '';
    log?.(`tool failed (${code}): ${errorMessage(error)}${stack}`);
  }
  return errorResult({ text: message({ code, error, suggestions, context }), code, suggestions });
}

/** A tool error result; `_meta["pie/error"]` carries the code and suggestions for programs. */
export function errorResult(input: { text: string; code: PieErrorCode; suggestions?: string[] }): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: input.text }],
    _meta: { 'pie/error': { code: input.code, suggestions: input.suggestions ?? [] } },
  };
}

function message(input: { code: PieErrorCode; error: unknown; suggestions: string[]; context: ErrorContext }): string {
  const { code, error, suggestions, context } = input;
  switch (code) {
    case 'NOT_FOUND':
      return notFound(error, suggestions, context);
    case 'INVALID_ARGUMENT':
    case 'INVALID_DATA':
    case 'UNSUPPORTED':
      return withoutCliHints(errorMessage(error));
    case 'DB_LOCKED':
      return 'The PIE database is busy (another PIE process is writing to it); try the same call again in a few seconds.';
    case 'LLM_UNAVAILABLE':
    case 'LLM_RATE_LIMITED':
    case 'LLM_INVALID_OUTPUT':
      return `PIE's extraction model failed (${errorMessage(error)}); try again later. Nothing else is wrong with the world model, and the read tools still work.`;
    case 'BUDGET_EXCEEDED':
      return `${errorMessage(error)} Try again later or with a smaller input.`;
    default:
      return `PIE failed unexpectedly (${code}: ${errorMessage(error)}). The read tools may still work; if this keeps happening, the user should check the server's log.`;
  }
}

function notFound(error: unknown, suggestions: readonly string[], context: ErrorContext): string {
  const quoted = suggestions.map((s) => `"${s}"`).join(', ');
  const asked = context.name === undefined ? null : JSON.stringify(context.name);
  switch (context.subject) {
    case 'entity': {
      const head = asked ? `No entity is called ${asked}.` : 'That entity is not known.';
      return suggestions.length > 0
        ? `${head} The closest known names are ${quoted}; call the tool again with one of them, or use search_memory to find the entity by other words.`
        : `${head} No known name is close; use search_memory with words about it, or get_world_snapshot to see the main entities.`;
    }
    case 'period': {
      const head = asked ? `No period is called ${asked}.` : 'That period is not known.';
      return suggestions.length > 0
        ? `${head} Known periods include ${quoted}; call the tool again with one of them (list_periods lists all), or give a date such as 2024-05-01 or a month such as "May 2024".`
        : `${head} PIE knows no period with dates yet; give a date such as 2024-05-01 or a month such as "May 2024" instead.`;
    }
    case 'model': {
      const head = asked ? `No mental model is called ${asked}.` : 'That mental model is not known.';
      const raw = isPieError(error) ? error.details?.known : undefined;
      const known = Array.isArray(raw) ? raw.filter((k): k is string => typeof k === 'string') : [];
      if (known.length === 0) {
        return `${head} PIE has no mental models yet: the user builds them with pie summarize; use query_world meanwhile.`;
      }
      const close = suggestions.length > 0 ? ` The closest are ${quoted}.` : '';
      const listed =
        known.length > 30 ? `${known.slice(0, 30).join(', ')} and ${known.length - 30} more` : known.join(', ');
      return `${head}${close} Known models: ${listed}; call get_pyramid again with one of them ("user" is the person).`;
    }
    default:
      return `${withoutCliHints(errorMessage(error))}${suggestions.length > 0 ? ` Try ${quoted}.` : ''}`;
  }
}

/** "(pie entities lists them.)", "--limit" and similar advice meant for a person at a shell. */
function withoutCliHints(text: string): string {
  return text
    .replace(/\s*\((?:run )?pie [^)]*\)\.?/g, '')
    .replace(/--([a-z-]+)/g, (_m, flag: string) => flag.replace(/-/g, '_'))
    .trim();
}
