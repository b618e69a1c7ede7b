import type { JsonObject, JsonValue, Literal } from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';
import type { TokenCursor } from './cursor.js';

/**
 * A JSON value: strings, numbers, true/false/null, arrays, objects with quoted or unquoted keys, or a `:param`
 * (substituted by its JSON value).
 */
export function parseValue(c: TokenCursor): Literal {
  const t = c.peek();
  if (t.kind === 'param') {
    c.next();
    return { kind: 'literal', value: c.param(t), pos: t.pos, param: t.text };
  }
  if (t.kind === 'string') {
    c.next();
    return { kind: 'literal', value: t.text, pos: t.pos };
  }
  if (t.kind === 'number') {
    c.next();
    return { kind: 'literal', value: toNumber(t.text, t.pos), pos: t.pos };
  }
  if (t.kind === 'ident') {
    const word = t.text;
    if (word === 'true' || word === 'false' || word === 'null') {
      c.next();
      return { kind: 'literal', value: word === 'null' ? null : word === 'true', pos: t.pos };
    }
  }
  if (c.isPunct('[')) {
    c.next();
    const items: JsonValue[] = [];
    while (!c.acceptPunct(']')) {
      items.push(parseValue(c).value);
      if (!c.isPunct(']')) c.expectPunct(',', 'between array items');
    }
    return { kind: 'literal', value: items, pos: t.pos };
  }
  if (c.isPunct('{')) return { kind: 'literal', value: parseObject(c), pos: t.pos };
  return c.fail('a value (string, number, true, false, null, array, object or :parameter)');
}

/** `{ key: value, "key": value, … }`; a trailing comma is tolerated. */
export function parseObject(c: TokenCursor): JsonObject {
  return parseEntries(c, (cc) => parseValue(cc).value);
}

/** An object whose values are parsed by `value` (JSON values, or update expressions). */
export function parseEntries<T>(c: TokenCursor, value: (c: TokenCursor) => T): Record<string, T> {
  c.expectPunct('{');
  const out: Record<string, T> = {};
  while (!c.acceptPunct('}')) {
    const key = parseKey(c);
    c.expectPunct(':', `after the key "${key}"`);
    Object.defineProperty(out, key, { value: value(c), enumerable: true, writable: true, configurable: true });
    if (!c.isPunct('}')) c.expectPunct(',', 'between object entries');
  }
  return out;
}

export function parseKey(c: TokenCursor): string {
  const t = c.peek();
  if (t.kind === 'ident' || t.kind === 'string') {
    c.next();
    return t.text;
  }
  return c.fail('an object key');
}

/** A string literal or a parameter holding a string. */
export function parseString(c: TokenCursor, what: string): string {
  const t = c.peek();
  if (t.kind !== 'string' && t.kind !== 'param') c.fail(`${what} (a "string" or :parameter)`);
  const lit = parseValue(c);
  if (typeof lit.value !== 'string') {
    throw new KipError('KIP_2003', `${what} at ${where(lit.pos)} must be a string, got ${jsonType(lit.value)}.`);
  }
  return lit.value;
}

/** A non-negative integer literal or a parameter holding one (LIMIT, EXPECT VERSION, hops). */
export function parseCount(c: TokenCursor, what: string): number {
  const t = c.peek();
  if (t.kind !== 'number' && t.kind !== 'param') c.fail(`${what} (a number or :parameter)`);
  const lit = parseValue(c);
  if (typeof lit.value !== 'number' || !Number.isInteger(lit.value) || lit.value < 0) {
    throw new KipError(
      'KIP_2003',
      `${what} at ${where(lit.pos)} must be a non-negative integer, got ${JSON.stringify(lit.value)}.`,
    );
  }
  return lit.value;
}

/** A number literal or a parameter holding a number. */
export function parseNumber(c: TokenCursor, what: string): number {
  const t = c.peek();
  if (t.kind !== 'number' && t.kind !== 'param') c.fail(`${what} (a number or :parameter)`);
  const lit = parseValue(c);
  if (typeof lit.value !== 'number') {
    throw new KipError('KIP_2003', `${what} at ${where(lit.pos)} must be a number, got ${jsonType(lit.value)}.`);
  }
  return lit.value;
}

export function jsonType(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function toNumber(text: string, pos: Literal['pos']): number {
  const n = Number(text);
  if (!Number.isFinite(n)) throw new KipError('KIP_1001', `Bad number "${text}" at ${where(pos)}.`);
  return n;
}
