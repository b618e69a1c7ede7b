import type Database from 'better-sqlite3';
import { PieError } from '../../../domain/errors.js';

export type Db = Database.Database;
export type Statement = Database.Statement<unknown[], unknown>;
/** Values better-sqlite3 can bind. */
export type SqlValue = string | number | bigint | Buffer | null;
export type Params = Record<string, SqlValue>;

/** A WHERE clause and its named parameters (text and numbers only), written once for both store adapters. */
export interface Filter {
  where: string;
  params: Record<string, string | number>;
}

/**
 * Prepared statements, created once per connection and reused. Statements are keyed by their SQL text, so a query
 * whose shape depends on its filters is prepared once per shape (which keeps indexes usable, unlike `? IS NULL OR`).
 */
export class Statements {
  private readonly cache = new Map<string, Statement>();

  constructor(readonly db: Db) {}

  get(sql: string): Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  /** A statement that returns the first column only (better-sqlite3's pluck mode), cached apart from `get`. */
  pluck(sql: string): Statement {
    const key = `pluck:${sql}`;
    let statement = this.cache.get(key);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql).pluck();
      this.cache.set(key, statement);
    }
    return statement;
  }

  /**
   * A statement that returns each row as an array of its columns (better-sqlite3's raw mode), cached apart from
   * `get`. For reads of many rows: an object row costs a property lookup and a map transition per column, which
   * building the result object from the array in JavaScript does not.
   */
  raw(sql: string): Statement {
    const key = `raw:${sql}`;
    let statement = this.cache.get(key);
    if (!statement) {
      statement = this.db.prepare<unknown[], unknown>(sql).raw(true);
      this.cache.set(key, statement);
    }
    return statement;
  }

  /** Runs `fn` atomically: an IMMEDIATE transaction, or a savepoint when a transaction is already open. */
  atomic<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }
}

export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

export function toJsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

export function fromJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  return JSON.parse(text) as T;
}

export function bool(value: boolean): number {
  return value ? 1 : 0;
}

/** Validates an optional limit/offset; `null` means "no limit". */
export function limitParam(value: number | undefined, name = 'limit'): number | null {
  if (value === undefined) return null;
  if (!Number.isInteger(value) || value < 0) {
    throw new PieError('INVALID_ARGUMENT', `${name} must be a non-negative integer, got ${String(value)}.`);
  }
  return value;
}

/** SQL tail for LIMIT/OFFSET with named parameters @limit and @offset (LIMIT -1 means none in SQLite). */
export function pageParams(query: { limit?: number; offset?: number } | undefined): Params {
  return {
    limit: limitParam(query?.limit) ?? -1,
    offset: limitParam(query?.offset, 'offset') ?? 0,
  };
}

export const PAGE = 'LIMIT @limit OFFSET @offset';

export function notFound(what: string, id: string): PieError {
  return new PieError('NOT_FOUND', `No ${what} with id "${id}".`, { details: { id } });
}

/** SQL for "the ids in the JSON array bound as @ids": one statement shape for any number of ids, index-friendly. */
export const IDS_IN = 'IN (SELECT value FROM json_each(@ids))';

export function idsParam(ids: readonly string[]): string {
  return JSON.stringify(ids);
}

/** Puts `items` in the order of `ids` (each id once, at its first place); ids with no item are left out. */
export function inIdOrder<T>(ids: readonly string[], items: readonly T[], idOf: (item: T) => string): T[] {
  const byId = new Map(items.map((item) => [idOf(item), item]));
  const ordered: T[] = [];
  for (const id of new Set(ids)) {
    const item = byId.get(id);
    if (item !== undefined) ordered.push(item);
  }
  return ordered;
}
