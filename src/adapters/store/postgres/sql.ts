import { PieError } from '../../../domain/errors.js';

/** Values the adapter binds: node-postgres and PGlite serialize these alike (arrays become PostgreSQL arrays). */
export type SqlValue = string | number | boolean | null | Uint8Array | readonly string[] | readonly number[];
export type Params = Record<string, SqlValue>;

export interface QueryResult {
  rows: Record<string, unknown>[];
  /** Rows written (INSERT/UPDATE/DELETE) or returned. */
  count: number;
}

/**
 * One place SQL goes: a pooled one-shot query, a transaction's dedicated client, or a PGlite instance. `exec` runs
 * several statements without parameters (migrations).
 */
export interface Session {
  query(text: string, values: readonly unknown[]): Promise<QueryResult>;
  exec(text: string): Promise<void>;
}

/**
 * The tiny SQL runner the repositories use: named parameters (`@name`), rows as plain objects, and `atomic` for
 * several statements that must commit together (a transaction on the root store, a savepoint inside one).
 */
export interface Sql {
  all<R>(text: string, params?: Params): Promise<R[]>;
  one<R>(text: string, params?: Params): Promise<R | undefined>;
  /** The number of rows written. */
  run(text: string, params?: Params): Promise<number>;
  atomic<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
}

interface Compiled {
  text: string;
  names: string[];
}

const compiled = new Map<string, Compiled>();

/**
 * Rewrites `@name` placeholders to `$1…$n` (the same name reuses its number). `@@` (the text-search match
 * operator) is left alone.
 */
export function compileNamed(text: string): Compiled {
  const cached = compiled.get(text);
  if (cached) return cached;
  const names: string[] = [];
  const out = text.replace(/(?<!@)@([A-Za-z_][A-Za-z0-9_]*)/g, (_match, name: string) => {
    let index = names.indexOf(name);
    if (index < 0) index = names.push(name) - 1;
    return `$${index + 1}`;
  });
  const result = { text: out, names };
  compiled.set(text, result);
  return result;
}

export function bindNamed(text: string, params: Params = {}): { text: string; values: unknown[] } {
  const { text: out, names } = compileNamed(text);
  const values = names.map((name) => {
    if (!(name in params)) throw new PieError('INTERNAL', `SQL parameter @${name} has no value.`);
    return params[name];
  });
  return { text: out, values };
}

/** A runner straight on one session; `atomic` opens savepoints (the session is already inside a transaction). */
export function sessionSql(session: Session, depth: number): Sql {
  const sql: Sql = {
    async all<R>(text: string, params?: Params) {
      const bound = bindNamed(text, params);
      return (await session.query(bound.text, bound.values)).rows as R[];
    },
    async one<R>(text: string, params?: Params) {
      const rows = await sql.all<R>(text, params);
      return rows[0];
    },
    async run(text: string, params?: Params) {
      const bound = bindNamed(text, params);
      return (await session.query(bound.text, bound.values)).count;
    },
    atomic: (fn) => withSavepoint(session, depth, fn),
  };
  return sql;
}

async function withSavepoint<T>(session: Session, depth: number, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const name = `pie_atomic_${depth}`;
  await session.query(`SAVEPOINT ${name}`, []);
  try {
    const value = await fn(sessionSql(session, depth + 1));
    await session.query(`RELEASE SAVEPOINT ${name}`, []);
    return value;
  } catch (error) {
    await session.query(`ROLLBACK TO SAVEPOINT ${name}`, []);
    await session.query(`RELEASE SAVEPOINT ${name}`, []);
    throw error;
  }
}

/** Quotes an identifier (a schema name) for SQL text. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** SQL for LIMIT/OFFSET with @limit and @offset (NULL limit means none in PostgreSQL). */
export const PAGE = 'LIMIT @limit OFFSET @offset';

import { limitParam } from '../sqlite/sql.js';

export { fromJson, inIdOrder, limitParam, notFound, toJson, toJsonOrNull } from '../sqlite/sql.js';

/** Which way `wholeTime` rounds: `ceil` for `column >= t` and `column < t`, `floor` for `column > t` and `column <= t`. */
export type Rounding = 'ceil' | 'floor';

/**
 * A time bound (epoch ms) as the whole number that selects the same rows of a BIGINT column. The port's times are
 * plain numbers: SQLite compares a fractional bound as a real number, where PostgreSQL refuses it for a BIGINT
 * parameter ("invalid input syntax for type bigint"). Over whole numbers `column >= t` and `column < t` select what
 * they select with `ceil(t)`, and `column > t` and `column <= t` what they select with `floor(t)`. Clamped to the
 * safe integers, so an infinite bound still bounds nothing, as on SQLite.
 */
export function wholeTime(t: number, rounding: Rounding): number {
  const whole = rounding === 'ceil' ? Math.ceil(t) : Math.floor(t);
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(Number.MIN_SAFE_INTEGER, whole));
}

/** `params` with each named time bound that is present made whole (see `wholeTime`). */
export function wholeTimes(params: Params, roundings: Readonly<Record<string, Rounding>>): Params {
  const out = { ...params };
  for (const [name, rounding] of Object.entries(roundings)) {
    const value = out[name];
    if (typeof value === 'number') out[name] = wholeTime(value, rounding);
  }
  return out;
}

/** @limit (null: no limit) and @offset for PAGE. */
export function pageParams(query: { limit?: number; offset?: number } | undefined): Params {
  return { limit: limitParam(query?.limit), offset: limitParam(query?.offset, 'offset') ?? 0 };
}
