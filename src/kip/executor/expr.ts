import type { Expr, JsonValue } from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';
import type { ConceptNode, LinkNode, Value } from '../mapping.js';
import { jsonEqual } from '../values.js';

/** Variable bindings of one solution. Keys starting with "#" are internal (row tags). */
export type Solution = Record<string, Value>;

/** What an expression evaluates to: JSON, or a whole concept/proposition (`?x` without a path). */
export type EvalValue = JsonValue | ConceptNode | LinkNode;

function isNode(v: EvalValue): v is ConceptNode | LinkNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && ('entity' in v || 'rel' in v);
}

/** Nodes compare by id. */
export function scalar(v: EvalValue): JsonValue {
  return isNode(v) ? (v.id as string) : (v as JsonValue);
}

/** `?x.path` on a bound value; unbound values and missing fields are null. */
export function project(value: Value | undefined, path: readonly string[]): EvalValue {
  if (value === undefined || value === null) return null;
  if (path.length === 0) return value;
  if (typeof value === 'string') return null;
  const [field, ...rest] = path;
  let base: JsonValue | undefined;
  switch (field) {
    case 'id':
      base = value.id;
      break;
    case 'type':
      base = value.kind === 'concept' ? value.type : null;
      break;
    case 'name':
      base = value.kind === 'concept' ? value.name : null;
      break;
    case 'subject':
      base = value.kind === 'link' ? value.subject.id : null;
      break;
    case 'predicate':
      base = value.kind === 'link' ? value.predicate : null;
      break;
    case 'object':
      base = value.kind === 'link' ? value.object.id : null;
      break;
    case 'attributes':
      base = value.attributes;
      break;
    case 'metadata':
      base = value.metadata;
      break;
    default:
      base = null;
  }
  for (const key of rest) {
    if (base === null || base === undefined || typeof base !== 'object' || Array.isArray(base)) return null;
    base = Object.prototype.hasOwnProperty.call(base, key) ? base[key] : null;
  }
  return base ?? null;
}

/** Effective boolean value: true, non-zero numbers and non-empty strings are true. */
export function truthy(v: EvalValue): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'string') return v.length > 0;
  return false;
}

export function valuesEqual(a: EvalValue, b: EvalValue): boolean {
  return jsonEqual(scalar(a), scalar(b));
}

/** Ordering of two comparable values (both numbers or both strings); null when incomparable. */
export function compareValues(a: EvalValue, b: EvalValue): number | null {
  const x = scalar(a);
  const y = scalar(b);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === 'boolean' && typeof y === 'boolean') return Number(x) - Number(y);
  return null;
}

const regexCache = new Map<string, RegExp>();

function regex(pattern: string, flags: string, pos: Expr['pos']): RegExp {
  const key = `${flags}/${pattern}`;
  let re = regexCache.get(key);
  if (!re) {
    try {
      re = new RegExp(pattern, flags);
    } catch (error) {
      throw new KipError('KIP_2003', `REGEX at ${where(pos)}: ${(error as Error).message}.`, { cause: error });
    }
    if (regexCache.size > 500) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

/** Evaluates a FILTER or UPDATE expression against one solution. Aggregations are evaluated by FIND, not here. */
export function evaluate(expr: Expr, s: Solution): EvalValue {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'var':
      return project(s[expr.name], expr.path);
    case 'list':
      return expr.items.map((i) => scalar(evaluate(i, s)));
    case 'unary':
      return !truthy(evaluate(expr.arg, s));
    case 'binary':
      return binary(expr.op, expr.left, expr.right, s);
    case 'call':
      return call(expr.name, expr.args, s, expr.pos);
    case 'aggregate':
      throw new KipError('KIP_1001', `${expr.fn}(…) at ${where(expr.pos)} is only allowed in FIND and ORDER BY.`);
  }
}

function binary(op: string, left: Expr, right: Expr, s: Solution): EvalValue {
  if (op === '&&') return truthy(evaluate(left, s)) && truthy(evaluate(right, s));
  if (op === '||') return truthy(evaluate(left, s)) || truthy(evaluate(right, s));
  const a = evaluate(left, s);
  const b = evaluate(right, s);
  if (op === '==') return valuesEqual(a, b);
  if (op === '!=') return !valuesEqual(a, b);
  const c = compareValues(a, b);
  if (c === null) return false;
  switch (op) {
    case '<':
      return c < 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    default:
      return c >= 0;
  }
}

function call(name: string, args: Expr[], s: Solution, pos: Expr['pos']): EvalValue {
  const v = args.map((a) => scalar(evaluate(a, s)));
  const [a = null, b = null, c = null] = v;
  switch (name) {
    case 'IN':
      return Array.isArray(b) && b.some((x) => jsonEqual(x, a));
    case 'IS_NULL':
      return a === null;
    case 'IS_NOT_NULL':
      return a !== null;
    case 'CONTAINS':
      if (Array.isArray(a)) return a.some((x) => jsonEqual(x, b));
      return typeof a === 'string' && typeof b === 'string' && a.includes(b);
    case 'STARTS_WITH':
      return typeof a === 'string' && typeof b === 'string' && a.startsWith(b);
    case 'ENDS_WITH':
      return typeof a === 'string' && typeof b === 'string' && a.endsWith(b);
    case 'REGEX':
      if (typeof a !== 'string' || typeof b !== 'string') return false;
      return regex(b, typeof c === 'string' ? c : '', pos).test(a);
    case 'ADD':
      return typeof a === 'number' && typeof b === 'number' ? a + b : null;
    case 'MUL':
      return typeof a === 'number' && typeof b === 'number' ? a * b : null;
    case 'CLAMP':
      return typeof a === 'number' && typeof b === 'number' && typeof c === 'number'
        ? Math.min(Math.max(a, b), c)
        : null;
    case 'COALESCE':
      return a ?? b;
    default:
      throw new KipError('KIP_1001', `Unknown function ${name} at ${where(pos)}.`);
  }
}
