import { PieError, type PieErrorCode } from '../domain/errors.js';
import { editDistance } from '../resolve/similarity.js';

/** The KIP error codes of the specification (§6.3), with their names. */
export const KIP_ERRORS = {
  KIP_1001: 'InvalidSyntax',
  KIP_1002: 'InvalidIdentifier',
  KIP_2001: 'TypeMismatch',
  KIP_2002: 'ConstraintViolation',
  KIP_2003: 'InvalidValueType',
  KIP_3001: 'ReferenceError',
  KIP_3002: 'NotFound',
  KIP_3003: 'DuplicateExists',
  KIP_3004: 'ImmutableTarget',
  KIP_3005: 'VersionConflict',
  KIP_4001: 'ExecutionTimeout',
  KIP_4002: 'ResourceExhausted',
  KIP_4003: 'InternalError',
} as const;

export type KipCode = keyof typeof KIP_ERRORS;

/** How a KIP code surfaces as a PIE error (exit codes, HTTP statuses, MCP errors follow the PIE code). */
const PIE_CODES: Record<KipCode, PieErrorCode> = {
  KIP_1001: 'INVALID_ARGUMENT',
  KIP_1002: 'INVALID_ARGUMENT',
  KIP_2001: 'INVALID_ARGUMENT',
  KIP_2002: 'INVALID_ARGUMENT',
  KIP_2003: 'INVALID_ARGUMENT',
  KIP_3001: 'INVALID_ARGUMENT',
  KIP_3002: 'NOT_FOUND',
  KIP_3003: 'CONFLICT',
  KIP_3004: 'CONFLICT',
  KIP_3005: 'CONFLICT',
  KIP_4001: 'INTERNAL',
  KIP_4002: 'INVALID_ARGUMENT',
  KIP_4003: 'INTERNAL',
};

/** The PIE error code a KIP code maps to (exit statuses, HTTP statuses and MCP errors follow it). */
export function pieCodeOf(code: KipCode): PieErrorCode {
  return PIE_CODES[code];
}

const DEFAULT_HINTS: Partial<Record<KipCode, string>> = {
  KIP_1001: 'Check the statement against the KIP syntax reference.',
  KIP_1002: 'Identifiers match [a-zA-Z_][a-zA-Z0-9_]*.',
  KIP_2001: 'Check the schema with DESCRIBE CONCEPT TYPES / DESCRIBE PROPOSITION TYPES, or register the type first.',
  KIP_2002: 'Keys starting with "_" are maintained by the engine and cannot be written.',
  KIP_3001: 'Define every variable or handle before using it, and pass every :parameter.',
  KIP_3002: 'Ground the name first with SEARCH CONCEPT, or create the target before referencing it.',
  KIP_3005: 'Re-read the element (with metadata._version), merge your change, and retry.',
};

/** A KIP failure: a PieError whose message starts with the KIP name and which carries the KIP code and a hint. */
export class KipError extends PieError {
  readonly kipCode: KipCode;
  readonly hint: string | undefined;

  constructor(kipCode: KipCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(PIE_CODES[kipCode], `${KIP_ERRORS[kipCode]}: ${message}`, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
      details: { kipCode },
    });
    this.name = 'KipError';
    this.kipCode = kipCode;
    this.hint = options.hint ?? DEFAULT_HINTS[kipCode];
  }
}

export function isKipError(value: unknown): value is KipError {
  return value instanceof KipError;
}

/** The error object of a KIP response. */
export interface KipErrorBody {
  code: KipCode;
  message: string;
  hint?: string;
}

/** Any thrown value as a KIP error body: KipErrors keep their code, PieErrors and the rest become KIP_4003. */
export function toErrorBody(error: unknown): KipErrorBody {
  if (error instanceof KipError) {
    return { code: error.kipCode, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  if (error instanceof PieError) {
    const code: KipCode = error.code === 'CONFLICT' ? 'KIP_3005' : error.code === 'NOT_FOUND' ? 'KIP_3002' : 'KIP_4003';
    return { code, message: `${KIP_ERRORS[code]}: ${error.message}` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'KIP_4003', message: `InternalError: ${message}`, hint: 'Please report this error.' };
}

/** " Did you mean 'Drug'?" for the closest candidate (case-insensitive equality first, then edit distance). */
export function didYouMean(value: string, candidates: Iterable<string>): string {
  const best = closest(value, candidates);
  return best === undefined ? '' : ` Did you mean '${best}'?`;
}

export function closest(value: string, candidates: Iterable<string>): string | undefined {
  const lower = value.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c === value) continue;
    const score = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  const limit = Math.max(2, Math.floor(value.length / 3));
  return bestScore <= limit ? best : undefined;
}
