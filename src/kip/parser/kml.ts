import type {
  DeleteStatement,
  Expr,
  JsonObject,
  MergeStatement,
  SetProposition,
  UpdateStatement,
  UpsertConcept,
  UpsertProposition,
  UpsertStatement,
} from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';
import type { TokenCursor } from './cursor.js';
import { parseExpr } from './expressions.js';
import { parseConceptClause, parseEndpoint, parsePropClause, parseWhereBlock } from './patterns.js';
import { parseCount, parseEntries, parseObject, parseString } from './values.js';

/** `UPSERT { CONCEPT … | PROPOSITION … } [WITH METADATA {…}]`. */
export function parseUpsert(c: TokenCursor): UpsertStatement {
  const pos = c.expectKeyword('UPSERT').pos;
  c.expectPunct('{', 'after UPSERT');
  const items: UpsertStatement['items'] = [];
  while (!c.acceptPunct('}')) {
    if (c.isKeyword('CONCEPT')) items.push(parseUpsertConcept(c));
    else if (c.isKeyword('PROPOSITION')) items.push(parseUpsertProposition(c));
    else c.fail('CONCEPT or PROPOSITION inside UPSERT');
  }
  if (items.length === 0) throw new KipError('KIP_1001', `The UPSERT at ${where(pos)} is empty.`);
  const metadata = parseWithMetadata(c);
  return { kind: 'upsert', items, ...(metadata ? { metadata } : {}), pos };
}

function parseUpsertConcept(c: TokenCursor): UpsertConcept {
  const pos = c.expectKeyword('CONCEPT').pos;
  const handle = c.peek().kind === 'var' ? c.next().text : undefined;
  c.expectPunct('{', 'to open the CONCEPT block');
  const identity = parseConceptClause(c);
  if (identity.id === undefined && (identity.type === undefined || identity.name === undefined)) {
    throw new KipError(
      'KIP_1001',
      `A CONCEPT block at ${where(identity.pos)} is identified by {type, name} (match or create) or by {id} (must exist).`,
    );
  }
  const item: UpsertConcept = { kind: 'concept', ...(handle ? { handle } : {}), identity, propositions: [], pos };
  const version = parseExpectVersion(c);
  if (version !== undefined) item.expectVersion = version;
  while (!c.acceptPunct('}')) {
    const at = c.expectKeyword('SET', 'ATTRIBUTES or SET PROPOSITIONS (or "}" to close the CONCEPT block)').pos;
    if (c.acceptKeyword('ATTRIBUTES')) {
      item.attributes = { ...item.attributes, ...parseObject(c) };
    } else if (c.acceptKeyword('PROPOSITIONS')) {
      c.expectPunct('{', 'after SET PROPOSITIONS');
      while (!c.acceptPunct('}')) item.propositions.push(parseSetProposition(c));
    } else {
      throw new KipError('KIP_1001', `Expected ATTRIBUTES or PROPOSITIONS after SET at ${where(at)}.`);
    }
  }
  const metadata = parseWithMetadata(c);
  if (metadata) item.metadata = metadata;
  return item;
}

function parseSetProposition(c: TokenCursor): SetProposition {
  const pos = c.expectPunct('(', 'to open a SET PROPOSITIONS item').pos;
  const predicate = parseString(c, 'The predicate');
  c.expectPunct(',', 'after the predicate');
  const target = parseEndpoint(c, 'target');
  c.expectPunct(')', 'to close the SET PROPOSITIONS item');
  const metadata = parseWithMetadata(c);
  return { predicate, target, ...(metadata ? { metadata } : {}), pos };
}

function parseUpsertProposition(c: TokenCursor): UpsertProposition {
  const pos = c.expectKeyword('PROPOSITION').pos;
  const handle = c.peek().kind === 'var' ? c.next().text : undefined;
  c.expectPunct('{', 'to open the PROPOSITION block');
  const identity = parsePropClause(c);
  if (identity.predicate?.kind === 'var') {
    throw new KipError('KIP_1001', `A PROPOSITION block at ${where(identity.pos)} needs a literal predicate.`);
  }
  if (identity.predicate?.kind === 'path') {
    const steps = identity.predicate.alternatives;
    if (steps.length !== 1 || steps[0]?.min !== 1 || steps[0]?.max !== 1) {
      throw new KipError(
        'KIP_1001',
        `A PROPOSITION block at ${where(identity.pos)} takes one predicate, no hops or alternatives.`,
      );
    }
  }
  const item: UpsertProposition = { kind: 'proposition', ...(handle ? { handle } : {}), identity, pos };
  const version = parseExpectVersion(c);
  if (version !== undefined) item.expectVersion = version;
  while (!c.acceptPunct('}')) {
    c.expectKeyword('SET', 'ATTRIBUTES (or "}" to close the PROPOSITION block)');
    c.expectKeyword('ATTRIBUTES', 'after SET in a PROPOSITION block');
    item.attributes = { ...item.attributes, ...parseObject(c) };
  }
  const metadata = parseWithMetadata(c);
  if (metadata) item.metadata = metadata;
  return item;
}

function parseExpectVersion(c: TokenCursor): number | undefined {
  if (!c.acceptKeyword('EXPECT')) return undefined;
  c.expectKeyword('VERSION', 'after EXPECT');
  return parseCount(c, 'EXPECT VERSION');
}

function parseWithMetadata(c: TokenCursor): JsonObject | undefined {
  if (!(c.isKeyword('WITH') && c.isKeyword('METADATA', 1))) return undefined;
  c.next();
  c.next();
  return parseObject(c);
}

/** `UPDATE ?t SET ATTRIBUTES {…} SET METADATA {…} WHERE {…} [LIMIT n]`. */
export function parseUpdate(c: TokenCursor): UpdateStatement {
  const pos = c.expectKeyword('UPDATE').pos;
  const target = c.expectVar('after UPDATE').text;
  const u: UpdateStatement = { kind: 'update', target, where: [], pos };
  while (c.acceptKeyword('SET')) {
    const value = (cc: TokenCursor): Expr => parseExpr(cc, 'update');
    if (c.acceptKeyword('ATTRIBUTES')) u.attributes = { ...u.attributes, ...parseEntries(c, value) };
    else if (c.acceptKeyword('METADATA')) u.metadata = { ...u.metadata, ...parseEntries(c, value) };
    else c.fail('ATTRIBUTES or METADATA after SET');
  }
  if (!u.attributes && !u.metadata) c.fail('SET ATTRIBUTES or SET METADATA after UPDATE ?' + target);
  c.expectKeyword('WHERE', 'after the SET blocks');
  u.where = parseWhereBlock(c);
  if (c.acceptKeyword('LIMIT')) u.limit = parseCount(c, 'LIMIT');
  return u;
}

/** `MERGE CONCEPT ?source INTO ?target WHERE {…}`. */
export function parseMerge(c: TokenCursor): MergeStatement {
  const pos = c.expectKeyword('MERGE').pos;
  c.expectKeyword('CONCEPT', 'after MERGE');
  const source = c.expectVar('after MERGE CONCEPT').text;
  c.expectKeyword('INTO', `after MERGE CONCEPT ?${source}`);
  const target = c.expectVar('after INTO').text;
  c.expectKeyword('WHERE', `after INTO ?${target}`);
  return { kind: 'merge', source, target, where: parseWhereBlock(c), pos };
}

/** `DELETE ATTRIBUTES|METADATA {"k", …} FROM ?x WHERE {…}`, `DELETE PROPOSITIONS ?l WHERE {…}`, `DELETE CONCEPT ?c DETACH WHERE {…}`. */
export function parseDelete(c: TokenCursor): DeleteStatement {
  const pos = c.expectKeyword('DELETE').pos;
  if (c.isKeyword('ATTRIBUTES') || c.isKeyword('METADATA')) {
    const what = c.next().text.toLowerCase() as 'attributes' | 'metadata';
    const keys = parseKeySet(c);
    c.expectKeyword('FROM', `after DELETE ${what.toUpperCase()} {…}`);
    const target = c.expectVar('after FROM').text;
    c.expectKeyword('WHERE', `after FROM ?${target}`);
    return { kind: 'delete', what, keys, target, where: parseWhereBlock(c), pos };
  }
  if (c.acceptKeyword('PROPOSITIONS')) {
    const target = c.expectVar('after DELETE PROPOSITIONS').text;
    c.expectKeyword('WHERE', `after DELETE PROPOSITIONS ?${target}`);
    return { kind: 'delete', what: 'propositions', keys: [], target, where: parseWhereBlock(c), pos };
  }
  if (c.acceptKeyword('CONCEPT')) {
    const target = c.expectVar('after DELETE CONCEPT').text;
    if (!c.acceptKeyword('DETACH')) {
      throw new KipError(
        'KIP_1001',
        `DELETE CONCEPT ?${target} at ${where(pos)} needs DETACH (it removes every link of the concept).`,
        {
          hint: `Write DELETE CONCEPT ?${target} DETACH WHERE { … }.`,
        },
      );
    }
    c.expectKeyword('WHERE', `after DETACH`);
    return { kind: 'delete', what: 'concept', keys: [], target, where: parseWhereBlock(c), pos };
  }
  return c.fail('ATTRIBUTES, METADATA, PROPOSITIONS or CONCEPT after DELETE');
}

/** `{"a", "b"}` (also `["a", "b"]`). */
function parseKeySet(c: TokenCursor): string[] {
  const close = c.acceptPunct('{') ? '}' : c.acceptPunct('[') ? ']' : c.fail('a key set {"key", …}');
  const keys: string[] = [];
  while (!c.acceptPunct(close)) {
    keys.push(parseString(c, 'A key'));
    if (!c.isPunct(close)) c.expectPunct(',', 'between keys');
  }
  return keys;
}
