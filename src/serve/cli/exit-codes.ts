import type { PieErrorCode } from '../../domain/errors.js';

/** Exit statuses of `pie`, by error code. 0 is success; documented in the README. */
export const EXIT_CODES: Record<PieErrorCode, number> = {
  INVALID_ARGUMENT: 2,
  UNSUPPORTED: 2,
  FILE_NOT_FOUND: 3,
  UNREADABLE_INPUT: 3,
  UNKNOWN_FORMAT: 3,
  INVALID_DATA: 3,
  NOT_FOUND: 4,
  DB_LOCKED: 5,
  DB_NEWER_SCHEMA: 5,
  DB_CORRUPT: 5,
  DB_KEY: 5,
  DB_ERROR: 5,
  CONFLICT: 5,
  LLM_UNAVAILABLE: 6,
  LLM_INVALID_OUTPUT: 6,
  LLM_RATE_LIMITED: 6,
  BUDGET_EXCEEDED: 7,
  INTERNAL: 1,
};

export const EXIT_INTERNAL = 1;
export const EXIT_USAGE = 2;
