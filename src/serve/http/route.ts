import { z } from 'zod';
import { PieError } from '../../domain/errors.js';
import type { HttpDeps } from './deps.js';

type EmptyObject = z.ZodObject<Record<string, never>>;

/** What a handler gets: the validated query and body, the path parameters, the dependencies. */
export interface RouteInput<Q, B> {
  query: Q;
  body: B;
  params: Record<string, string>;
  deps: HttpDeps;
}

/**
 * One API route: the single description the Hono app is built from and the OpenAPI document is written from, so
 * the two cannot drift. Paths use OpenAPI's `{name}` parameters.
 */
export interface Route {
  method: 'get' | 'post';
  path: string;
  summary: string;
  tag: string;
  query?: z.ZodType | undefined;
  body?: z.ZodType | undefined;
  /** The 200 answer's shape, written into the OpenAPI document (routes without one are described as an object). */
  response?: z.ZodType | undefined;
  /** Always writes: answered with 403 in read-only mode (routes that write only sometimes check it themselves). */
  write?: boolean | undefined;
  /** The 200 answer is a stream of JSON lines (the handler returns the Response itself), described so in OpenAPI. */
  ndjson?: boolean | undefined;
  handler: (input: RouteInput<unknown, unknown>) => Promise<unknown>;
}

/** A route with its handler typed by its schemas (and its answer by `response`, when it has one). */
export function defineRoute<
  Q extends z.ZodType = EmptyObject,
  B extends z.ZodType = EmptyObject,
  R extends z.ZodType = z.ZodUnknown,
>(spec: {
  method: 'get' | 'post';
  path: string;
  summary: string;
  tag: string;
  query?: Q;
  body?: B;
  response?: R;
  write?: boolean;
  ndjson?: boolean;
  handler: (input: RouteInput<z.output<Q>, z.output<B>>) => Promise<z.input<R> | Response>;
}): Route {
  return spec as unknown as Route;
}

/** Parses input against a schema; a failure is INVALID_ARGUMENT naming each bad field. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, where: 'query' | 'body'): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    const field = i.path.map(String).join('.');
    return field ? `${field}: ${i.message}` : i.message;
  });
  throw new PieError('INVALID_ARGUMENT', `Invalid request ${where}: ${problems.join('; ')}.`);
}

/** The error for every write on a read-only server: answered with 403 and code READ_ONLY. */
export function readOnlyError(): PieError {
  return new PieError('UNSUPPORTED', 'This server is read-only (pie serve --read-only); it cannot change the world.', {
    details: { readOnly: true },
  });
}

/** `offset`/`limit` query parameters of a paginated list. */
export function pageQuery(fallback: number, max: number) {
  return {
    offset: z.coerce.number().int().min(0).default(0).describe('items to skip'),
    limit: z.coerce.number().int().min(1).max(max).default(fallback).describe(`page size (1–${max})`),
  };
}

/** A query flag: "true"/"1" or "false"/"0". */
export const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

/** The envelope of every paginated list. */
export interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}

export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
