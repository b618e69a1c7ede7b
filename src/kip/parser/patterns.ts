import type { ConceptClause, Endpoint, PredicateSpec, PredicateStep, PropClause, WhereItem } from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';
import type { TokenCursor } from './cursor.js';
import { parseExpr } from './expressions.js';
import { parseCount, parseKey, parseString } from './values.js';

/** `WHERE { … }` (the keyword is consumed by the caller). */
export function parseWhereBlock(c: TokenCursor): WhereItem[] {
  c.expectPunct('{', 'to open the WHERE block');
  return parseItems(c);
}

/** Items up to and including the closing `}`. Items are separated by whitespace (stray commas are tolerated). */
function parseItems(c: TokenCursor): WhereItem[] {
  const items: WhereItem[] = [];
  while (!c.acceptPunct('}')) {
    if (c.acceptPunct(',')) continue;
    items.push(parseItem(c));
  }
  return items;
}

function parseItem(c: TokenCursor): WhereItem {
  const t = c.peek();
  const pos = t.pos;
  if (c.acceptKeyword('FILTER')) {
    c.expectPunct('(', 'after FILTER');
    const expr = parseExpr(c, 'filter');
    c.expectPunct(')', 'to close FILTER(');
    return { kind: 'filter', expr, pos };
  }
  for (const block of ['OPTIONAL', 'NOT', 'UNION'] as const) {
    if (c.acceptKeyword(block)) {
      c.expectPunct('{', `after ${block}`);
      return { kind: block.toLowerCase() as 'optional' | 'not' | 'union', items: parseItems(c), pos };
    }
  }
  let variable: string | undefined;
  if (t.kind === 'var') {
    c.next();
    variable = t.text;
  }
  if (c.isPunct('{'))
    return { kind: 'conceptPattern', ...(variable ? { variable } : {}), clause: parseConceptClause(c), pos };
  if (c.isPunct('('))
    return { kind: 'propPattern', ...(variable ? { variable } : {}), clause: parsePropClause(c), pos };
  return c.fail(
    variable
      ? `a concept clause {…} or a proposition clause (…) after ?${variable}`
      : 'a pattern, FILTER, OPTIONAL, NOT or UNION',
  );
}

/** `{id: "…"}`, `{type: "…", name: "…"}`, `{type: "…"}`, `{name: "…"}` (values may be :parameters). */
export function parseConceptClause(c: TokenCursor): ConceptClause {
  const pos = c.expectPunct('{').pos;
  const clause: ConceptClause = { kind: 'concept', pos };
  while (!c.acceptPunct('}')) {
    const keyPos = c.pos;
    const key = parseKey(c);
    c.expectPunct(':', `after "${key}"`);
    if (key !== 'id' && key !== 'type' && key !== 'name') {
      throw new KipError(
        'KIP_1001',
        `A concept clause takes id, type and name; "${key}" at ${where(keyPos)} is not one of them.`,
        { hint: 'Match attributes with FILTER(?x.attributes.<key> == …).' },
      );
    }
    if (clause[key] !== undefined) throw new KipError('KIP_1001', `"${key}" is given twice at ${where(keyPos)}.`);
    clause[key] = parseString(c, `The concept ${key}`);
    if (!c.isPunct('}')) c.expectPunct(',', 'between concept clause entries');
  }
  if (clause.id !== undefined && (clause.type !== undefined || clause.name !== undefined)) {
    throw new KipError('KIP_1001', `A concept clause at ${where(pos)} matches by id or by type/name, not both.`);
  }
  if (clause.id === undefined && clause.type === undefined && clause.name === undefined) {
    throw new KipError('KIP_1001', `The concept clause at ${where(pos)} is empty; give id, type or name.`);
  }
  return clause;
}

/** `(id: "…")` or `(subject, predicate, object)`. */
export function parsePropClause(c: TokenCursor): PropClause {
  const pos = c.expectPunct('(').pos;
  if (c.isKeyword('ID') && c.isPunct(':', 1)) {
    c.next();
    c.next();
    const id = parseString(c, 'The proposition id');
    c.expectPunct(')', 'to close (id: …)');
    return { kind: 'prop', id, pos };
  }
  const subject = parseEndpoint(c, 'subject');
  c.expectPunct(',', 'after the subject');
  const predicate = parsePredicate(c);
  c.expectPunct(',', 'after the predicate');
  const object = parseEndpoint(c, 'object');
  c.expectPunct(')', 'to close the proposition clause');
  return { kind: 'prop', subject, predicate, object, pos };
}

/** `?var`, an unnamed `{…}` concept clause, or an unnamed nested `(…)` proposition clause. */
export function parseEndpoint(c: TokenCursor, role: string): Endpoint {
  const t = c.peek();
  if (t.kind === 'var') {
    c.next();
    if (c.isPunct('{') || c.isPunct('(')) {
      throw new KipError(
        'KIP_1001',
        `The ${role} at ${where(t.pos)} attaches ?${t.text} to an embedded clause; bind it in a separate clause first, then use ?${t.text}.`,
      );
    }
    return { kind: 'var', name: t.text, pos: t.pos };
  }
  if (c.isPunct('{')) return parseConceptClause(c);
  if (c.isPunct('(')) return parsePropClause(c);
  return c.fail(`the ${role}: a ?variable, a {concept clause} or a (proposition clause)`);
}

/** `?pred`, `"pred"`, `"pred"{m,n}`, or alternatives `"a" | "b"`. */
export function parsePredicate(c: TokenCursor): PredicateSpec {
  const t = c.peek();
  if (t.kind === 'var') {
    c.next();
    if (c.isPunct('{') || c.isPunct('|')) {
      throw new KipError(
        'KIP_1001',
        `?${t.text} at ${where(t.pos)}: hops and alternatives apply to literal predicates only.`,
      );
    }
    return { kind: 'var', name: t.text, pos: t.pos };
  }
  const alternatives: PredicateStep[] = [];
  do {
    const name = parseString(c, 'The predicate');
    alternatives.push({ name, ...parseHops(c) });
  } while (c.acceptPunct('|'));
  return { kind: 'path', alternatives, pos: t.pos };
}

/** `{m,n}`, `{m,}`, `{n}`; absent = exactly one hop. */
function parseHops(c: TokenCursor): { min: number; max: number | null } {
  if (!c.isPunct('{')) return { min: 1, max: 1 };
  const pos = c.next().pos;
  const min = parseCount(c, 'The minimum hop count');
  let max: number | null = min;
  if (c.acceptPunct(',')) max = c.isPunct('}') ? null : parseCount(c, 'The maximum hop count');
  c.expectPunct('}', 'to close the hop range');
  if (max !== null && max < min) {
    throw new KipError(
      'KIP_1001',
      `The hop range at ${where(pos)} has its maximum (${max}) below its minimum (${min}).`,
    );
  }
  return { min, max };
}
