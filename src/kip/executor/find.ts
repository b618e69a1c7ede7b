import { createHash } from 'node:crypto';
import type { AggregateExpr, Expr, FindStatement, JsonValue, OrderKey } from '../ast.js';
import { KipError } from '../errors.js';
import { valueJson } from '../mapping.js';
import { jsonKey } from '../values.js';
import type { ExecContext } from './context.js';
import { compareValues, evaluate, scalar, type EvalValue, type Solution } from './expr.js';
import { checkScope, requireDefined } from './scope.js';
import { evalWhere } from './where.js';

/** Rows returned when FIND has no LIMIT; more rows come with a next_cursor. */
export const DEFAULT_PAGE = 1000;

export interface Page<T> {
  result: T[];
  nextCursor?: string;
}

/**
 * FIND: solutions of WHERE, projected (a single FIND item gives a flat list, several give one array per row),
 * grouped when aggregations are present (the plain items are the key), sorted (nulls last), de-duplicated, paged.
 */
export async function executeFind(ctx: ExecContext, stmt: FindStatement): Promise<Page<JsonValue>> {
  const visible = checkScope(stmt.where, new Set());
  for (const p of stmt.projections) requireDefined(p, visible, 'FIND');
  for (const k of stmt.orderBy) requireDefined(k.expr, visible, 'ORDER BY');
  const solutions = await evalWhere(ctx, stmt.where, [{}]);
  const hasAggregates = stmt.projections.some((p) => p.kind === 'aggregate');
  const rows = hasAggregates ? aggregateRows(stmt, solutions) : plainRows(stmt, solutions);
  const unique = dedupeRows(rows);
  const flat = stmt.projections.length === 1 ? unique.map((r) => r[0] ?? null) : unique;
  return paginate(flat, { limit: stmt.limit, cursor: stmt.cursor, fingerprint: fingerprint(stmt) });
}

function output(v: EvalValue): JsonValue {
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && ('entity' in v || 'rel' in v)) {
    return valueJson(v as Parameters<typeof valueJson>[0]);
  }
  return v as JsonValue;
}

function plainRows(stmt: FindStatement, solutions: Solution[]): JsonValue[][] {
  const sorted = sortBy(solutions, stmt.orderBy, (s, e) => evaluate(e, s));
  return sorted.map((s) => stmt.projections.map((p) => output(evaluate(p, s))));
}

function aggregateRows(stmt: FindStatement, solutions: Solution[]): JsonValue[][] {
  const keys = stmt.projections.filter((p) => p.kind !== 'aggregate');
  const groups = new Map<string, Solution[]>();
  if (keys.length === 0) groups.set('', solutions);
  for (const s of keys.length === 0 ? [] : solutions) {
    const k = keys.map((e) => jsonKey(scalar(evaluate(e, s)))).join('\u0000');
    const group = groups.get(k);
    if (group) group.push(s);
    else groups.set(k, [s]);
  }
  const valueIn = (group: Solution[], e: Expr): EvalValue =>
    e.kind === 'aggregate' ? aggregate(e, group) : group[0] ? evaluate(e, group[0]) : null;
  const sorted = sortBy([...groups.values()], stmt.orderBy, valueIn);
  return sorted.map((g) => stmt.projections.map((p) => output(valueIn(g, p))));
}

/** COUNT/SUM/AVG/MIN/MAX over a group; null (unbound) values are ignored. */
export function aggregate(agg: AggregateExpr, group: readonly Solution[]): JsonValue {
  let values = group.map((s) => scalar(evaluate(agg.arg, s))).filter((v) => v !== null);
  if (agg.distinct) {
    const seen = new Set<string>();
    values = values.filter((v) => !seen.has(jsonKey(v)) && Boolean(seen.add(jsonKey(v))));
  }
  if (agg.fn === 'COUNT') return values.length;
  if (agg.fn === 'SUM' || agg.fn === 'AVG') {
    const nums = values.filter((v): v is number => typeof v === 'number');
    const sum = nums.reduce((a, b) => a + b, 0);
    return agg.fn === 'SUM' ? sum : nums.length === 0 ? null : sum / nums.length;
  }
  let best: JsonValue = null;
  for (const v of values) {
    const c = best === null ? null : compareValues(v, best);
    if (best === null || (c !== null && (agg.fn === 'MIN' ? c < 0 : c > 0))) best = v;
  }
  return best;
}

/** Stable sort by keys left to right; null sorts last whatever the direction. */
function sortBy<T>(items: T[], keys: readonly OrderKey[], value: (item: T, e: Expr) => EvalValue): T[] {
  if (keys.length === 0) return items;
  const decorated = items.map((item, i) => ({ item, i, k: keys.map((key) => scalar(value(item, key.expr))) }));
  decorated.sort((a, b) => {
    for (let j = 0; j < keys.length; j++) {
      const x = a.k[j] ?? null;
      const y = b.k[j] ?? null;
      if (x === null || y === null) {
        if (x === y) continue;
        return x === null ? 1 : -1;
      }
      const c = compareValues(x, y) ?? typeRank(x) - typeRank(y);
      if (c !== 0) return keys[j]?.direction === 'DESC' ? -c : c;
    }
    return a.i - b.i;
  });
  return decorated.map((d) => d.item);
}

function typeRank(v: JsonValue): number {
  return typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : 3;
}

function dedupeRows(rows: JsonValue[][]): JsonValue[][] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    const k = jsonKey(r);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** A page of `items` from the cursor's offset; the cursor is bound to the statement it came from. */
export function paginate<T>(
  items: T[],
  input: { limit: number | undefined; cursor: string | undefined; fingerprint: string },
): Page<T> {
  const offset = input.cursor === undefined ? 0 : readCursor(input.cursor, input.fingerprint);
  const limit = input.limit ?? DEFAULT_PAGE;
  const result = items.slice(offset, offset + limit);
  const end = offset + result.length;
  return end < items.length ? { result, nextCursor: makeCursor(end, input.fingerprint) } : { result };
}

function makeCursor(offset: number, fp: string): string {
  return Buffer.from(JSON.stringify({ o: offset, f: fp })).toString('base64url');
}

function readCursor(token: string, fp: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; f?: unknown };
    if (typeof parsed.o === 'number' && Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.f === fp) return parsed.o;
  } catch {
    // Falls through to the error below: the token is not one of ours.
  }
  throw new KipError('KIP_2003', 'The CURSOR token does not belong to this query (or is damaged).', {
    hint: 'Pass the next_cursor of the previous page of the same query, unchanged.',
  });
}

/** A hash of the statement without its cursor and positions: a cursor only resumes the query it came from. */
export function fingerprint(stmt: object): string {
  const text = JSON.stringify(stmt, (k, v: unknown) =>
    k === 'pos' || k === 'cursor' || k === 'limit' ? undefined : v,
  );
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}
