import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { errorMessage, isPieError, type PieErrorCode } from '../../domain/errors.js';

/** The HTTP status of each PieError code: the caller's fault is 4xx, a busy database or model 503/429, the rest 500. */
export const STATUS_BY_CODE: Record<PieErrorCode, ContentfulStatusCode> = {
  INVALID_ARGUMENT: 400,
  INVALID_DATA: 400,
  UNKNOWN_FORMAT: 400,
  UNREADABLE_INPUT: 400,
  FILE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNSUPPORTED: 501,
  BUDGET_EXCEEDED: 429,
  LLM_RATE_LIMITED: 429,
  LLM_INVALID_OUTPUT: 502,
  LLM_UNAVAILABLE: 503,
  DB_LOCKED: 503,
  DB_NEWER_SCHEMA: 500,
  DB_CORRUPT: 500,
  DB_KEY: 500,
  DB_ERROR: 500,
  INTERNAL: 500,
};

/** The JSON body of every failed request. */
export interface ErrorBody {
  error: { code: string; message: string; suggestions: string[] };
}

/** Status and body for a thrown error; unexpected errors are logged with their stack and described generically. */
export function errorResponse(
  error: unknown,
  log: (message: string) => void,
): { status: ContentfulStatusCode; body: ErrorBody } {
  const code: PieErrorCode = isPieError(error) ? error.code : 'INTERNAL';
  const status = STATUS_BY_CODE[code];
  const details = isPieError(error) ? error.details : undefined;
  const suggestions = Array.isArray(details?.suggestions)
    ? details.suggestions.filter((s): s is string => typeof s === 'string')
    : [];
  if (status >= 500) {
    const stack = error instanceof Error && error.stack ? `\n${error.stack}` : '';
    log(`request failed (${code}): ${errorMessage(error)}${stack}`);
  }
  const message = isPieError(error)
    ? errorMessage(error)
    : `PIE failed unexpectedly (${errorMessage(error)}); the server log has the details.`;
  return { status, body: { error: { code, message, suggestions } } };
}

/** A body for failures the server itself decides (auth, read-only, unknown route). */
export function plainError(code: string, message: string): ErrorBody {
  return { error: { code, message, suggestions: [] } };
}
