/**
 * The one error type of PIE. Every failure a person or a program can act on carries a `code`;
 * the serve layer maps codes to exit codes, HTTP statuses and MCP errors (see serve/cli/exit-codes.ts).
 */
export type PieErrorCode =
  | 'INVALID_ARGUMENT' // a flag or argument is malformed
  | 'FILE_NOT_FOUND' // an input path does not exist
  | 'UNREADABLE_INPUT' // truncated JSON, bad zip, unreadable file
  | 'UNKNOWN_FORMAT' // auto-detection failed or the file does not match the requested format
  | 'INVALID_DATA' // a record inside an otherwise readable input is malformed
  | 'NOT_FOUND' // an entity, period, run … that does not exist
  | 'DB_LOCKED' // another process holds the database
  | 'DB_NEWER_SCHEMA' // the database was written by a newer PIE
  | 'DB_CORRUPT' // not a PIE database or damaged
  | 'DB_KEY' // the database is encrypted and no key, or a wrong one, was given
  | 'DB_ERROR' // any other storage failure
  | 'LLM_UNAVAILABLE' // provider unreachable or not configured
  | 'LLM_INVALID_OUTPUT' // the model answered with something that does not validate
  | 'LLM_RATE_LIMITED'
  | 'BUDGET_EXCEEDED'
  | 'CONFLICT' // version mismatch, concurrent modification
  | 'UNSUPPORTED' // a feature not available in this configuration
  | 'INTERNAL';

export class PieError extends Error {
  readonly code: PieErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: PieErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PieError';
    this.code = code;
    this.details = options.details;
  }
}

export function isPieError(value: unknown, code?: PieErrorCode): value is PieError {
  return value instanceof PieError && (code === undefined || value.code === code);
}

/** A message for any thrown value, without losing PieError's wording. */
export function errorMessage(value: unknown): string {
  if (value instanceof Error) return value.message;
  return String(value);
}
