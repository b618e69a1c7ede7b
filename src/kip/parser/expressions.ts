import type { AggregateExpr, AggregateFn, BinaryOp, Expr, VarRef } from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';
import type { TokenCursor } from './cursor.js';
import { parseValue } from './values.js';

export type ExprContext = 'filter' | 'update';

/** FILTER functions and their arities [min, max]. */
const FILTER_FUNCTIONS: Record<string, [number, number]> = {
  IN: [2, 2],
  IS_NULL: [1, 1],
  IS_NOT_NULL: [1, 1],
  CONTAINS: [2, 2],
  STARTS_WITH: [2, 2],
  ENDS_WITH: [2, 2],
  REGEX: [2, 3],
};

/** UPDATE expressions (numeric, per element). */
const UPDATE_FUNCTIONS: Record<string, [number, number]> = {
  ADD: [2, 2],
  MUL: [2, 2],
  CLAMP: [3, 3],
  COALESCE: [2, 2],
};

export const AGGREGATES: ReadonlySet<string> = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);

const FIELDS = new Set(['id', 'type', 'name', 'attributes', 'metadata', 'subject', 'predicate', 'object']);
const COMPARISONS: ReadonlySet<string> = new Set(['==', '!=', '<', '>', '<=', '>=']);

/** A boolean FILTER expression, or an UPDATE value expression. */
export function parseExpr(c: TokenCursor, context: ExprContext): Expr {
  return parseOr(c, context);
}

function parseOr(c: TokenCursor, context: ExprContext): Expr {
  let left = parseAnd(c, context);
  while (c.isPunct('||')) {
    const pos = c.next().pos;
    left = { kind: 'binary', op: '||', left, right: parseAnd(c, context), pos };
  }
  return left;
}

function parseAnd(c: TokenCursor, context: ExprContext): Expr {
  let left = parseUnary(c, context);
  while (c.isPunct('&&')) {
    const pos = c.next().pos;
    left = { kind: 'binary', op: '&&', left, right: parseUnary(c, context), pos };
  }
  return left;
}

function parseUnary(c: TokenCursor, context: ExprContext): Expr {
  if (c.isPunct('!')) {
    const pos = c.next().pos;
    return { kind: 'unary', op: '!', arg: parseUnary(c, context), pos };
  }
  const left = parsePrimary(c, context);
  const t = c.peek();
  if (t.kind === 'punct' && COMPARISONS.has(t.text)) {
    c.next();
    return { kind: 'binary', op: t.text as BinaryOp, left, right: parsePrimary(c, context), pos: t.pos };
  }
  return left;
}

function parsePrimary(c: TokenCursor, context: ExprContext): Expr {
  const t = c.peek();
  if (c.isPunct('(')) {
    c.next();
    const inner = parseExpr(c, context);
    c.expectPunct(')', 'to close the parenthesis');
    return inner;
  }
  if (t.kind === 'var') return parseVarRef(c);
  if (t.kind === 'ident' && c.isPunct('(', 1)) return parseCall(c, context);
  if (c.isPunct('[')) {
    c.next();
    const items: Expr[] = [];
    while (!c.acceptPunct(']')) {
      items.push(parsePrimary(c, context));
      if (!c.isPunct(']')) c.expectPunct(',', 'between list items');
    }
    return { kind: 'list', items, pos: t.pos };
  }
  return parseValue(c);
}

function parseCall(c: TokenCursor, context: ExprContext): Expr {
  const t = c.next();
  const name = t.text.toUpperCase();
  if (AGGREGATES.has(name)) {
    throw new KipError('KIP_1001', `${name}(…) at ${where(t.pos)} is an aggregation; use it in FIND or ORDER BY.`);
  }
  const table = context === 'filter' ? FILTER_FUNCTIONS : UPDATE_FUNCTIONS;
  const arity = table[name];
  if (!arity) {
    const known = Object.keys(table).join(', ');
    throw new KipError('KIP_1001', `Unknown function ${t.text} at ${where(t.pos)}; ${context} functions are ${known}.`);
  }
  c.expectPunct('(');
  const args: Expr[] = [];
  while (!c.acceptPunct(')')) {
    args.push(parseExpr(c, context));
    if (!c.isPunct(')')) c.expectPunct(',', `between the arguments of ${name}`);
  }
  if (args.length < arity[0] || args.length > arity[1]) {
    const count = arity[0] === arity[1] ? `${arity[0]}` : `${arity[0]} to ${arity[1]}`;
    throw new KipError('KIP_1001', `${name} at ${where(t.pos)} takes ${count} arguments, got ${args.length}.`);
  }
  return { kind: 'call', name, args, pos: t.pos };
}

/** `?x` or `?x.field[.key…]`. */
export function parseVarRef(c: TokenCursor): VarRef {
  const t = c.expectVar('');
  const path: string[] = [];
  while (c.isPunct('.')) {
    c.next();
    const seg = c.peek();
    if (seg.kind !== 'ident' && seg.kind !== 'string') c.fail(`a field name after "?${t.text}."`);
    c.next();
    path.push(seg.text);
  }
  const field = path[0];
  if (field !== undefined && !FIELDS.has(field)) {
    throw new KipError(
      'KIP_1001',
      `?${t.text}.${field} at ${where(t.pos)} is not a field; use ?${t.text}.attributes.${field} or ?${t.text}.metadata.${field}.`,
      { hint: 'Fields: id, type, name, subject, predicate, object, attributes.<key>, metadata.<key>.' },
    );
  }
  if (field !== undefined && path.length > 1 && field !== 'attributes' && field !== 'metadata') {
    throw new KipError('KIP_1001', `?${t.text}.${path.join('.')} at ${where(t.pos)}: ${field} has no sub-fields.`);
  }
  return { kind: 'var', name: t.text, path, pos: t.pos };
}

/** A FIND / ORDER BY item: a variable, a dot path, or an aggregation over a variable. */
export function parseProjection(c: TokenCursor): Expr {
  const t = c.peek();
  if (t.kind === 'ident' && c.isPunct('(', 1)) {
    const name = t.text.toUpperCase();
    if (!AGGREGATES.has(name)) {
      throw new KipError(
        'KIP_1001',
        `${t.text}(…) at ${where(t.pos)} is not an aggregation (COUNT, SUM, AVG, MIN, MAX).`,
      );
    }
    c.next();
    c.expectPunct('(');
    const distinct = c.acceptKeyword('DISTINCT');
    const arg = parseVarRef(c);
    c.expectPunct(')', `to close ${name}(`);
    const agg: AggregateExpr = { kind: 'aggregate', fn: name as AggregateFn, distinct, arg, pos: t.pos };
    return agg;
  }
  if (t.kind !== 'var') c.fail('a ?variable, a dot path or an aggregation');
  return parseVarRef(c);
}
