import type {
  DescribeStatement,
  ExportStatement,
  Expr,
  FindStatement,
  OrderKey,
  SearchMode,
  SearchStatement,
} from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';
import type { TokenCursor } from './cursor.js';
import { parseProjection } from './expressions.js';
import { parseWhereBlock } from './patterns.js';
import { parseCount, parseNumber, parseString } from './values.js';

/** `FIND(…) WHERE {…} [ORDER BY …] [LIMIT n] [CURSOR "…"]`. */
export function parseFind(c: TokenCursor): FindStatement {
  const pos = c.expectKeyword('FIND').pos;
  c.expectPunct('(', 'after FIND');
  const projections: Expr[] = [];
  while (!c.acceptPunct(')')) {
    projections.push(parseProjection(c));
    if (!c.isPunct(')')) c.expectPunct(',', 'between FIND items');
  }
  if (projections.length === 0) throw new KipError('KIP_1001', `FIND at ${where(pos)} lists nothing to return.`);
  c.expectKeyword('WHERE', 'after FIND(…)');
  const find: FindStatement = { kind: 'find', projections, where: parseWhereBlock(c), orderBy: [], pos };
  parseModifiers(c, find, true);
  return find;
}

/** ORDER BY (optional), LIMIT and CURSOR, in that order. */
function parseModifiers(
  c: TokenCursor,
  target: { orderBy?: OrderKey[]; limit?: number; cursor?: string },
  order: boolean,
) {
  if (order && c.isKeyword('ORDER')) {
    c.next();
    c.expectKeyword('BY', 'after ORDER');
    const keys: OrderKey[] = [];
    do {
      const expr = parseProjection(c);
      const direction = c.acceptKeyword('DESC') ? 'DESC' : (c.acceptKeyword('ASC'), 'ASC');
      keys.push({ expr, direction });
    } while (c.acceptPunct(','));
    target.orderBy = keys;
  }
  if (c.acceptKeyword('LIMIT')) target.limit = parseCount(c, 'LIMIT');
  if (c.acceptKeyword('CURSOR')) target.cursor = parseString(c, 'CURSOR');
}

/** `DESCRIBE PRIMER | DOMAINS | CONCEPT TYPES | CONCEPT TYPE "T" | PROPOSITION TYPES | PROPOSITION TYPE "p"`. */
export function parseDescribe(c: TokenCursor): DescribeStatement {
  const pos = c.expectKeyword('DESCRIBE').pos;
  if (c.acceptKeyword('PRIMER')) return { kind: 'describe', what: 'primer', pos };
  if (c.acceptKeyword('DOMAINS')) return { kind: 'describe', what: 'domains', pos };
  const family = c.acceptKeyword('CONCEPT') ? 'concept' : c.acceptKeyword('PROPOSITION') ? 'proposition' : null;
  if (!family) return c.fail('PRIMER, DOMAINS, CONCEPT TYPES, CONCEPT TYPE, PROPOSITION TYPES or PROPOSITION TYPE');
  if (c.acceptKeyword('TYPES')) {
    const d: DescribeStatement = { kind: 'describe', what: `${family}_types`, pos };
    parseModifiers(c, d, false);
    return d;
  }
  c.expectKeyword('TYPE', `or TYPES after ${family.toUpperCase()}`);
  return { kind: 'describe', what: `${family}_type`, name: parseString(c, 'The type name'), pos };
}

const MODES: ReadonlySet<string> = new Set(['keyword', 'semantic', 'hybrid']);

/** `SEARCH CONCEPT|PROPOSITION "term" [WITH TYPE "T"] [MODE "m"] [THRESHOLD x] [LIMIT n]` (options in any order). */
export function parseSearch(c: TokenCursor): SearchStatement {
  const pos = c.expectKeyword('SEARCH').pos;
  const target = c.acceptKeyword('CONCEPT') ? 'concept' : c.acceptKeyword('PROPOSITION') ? 'proposition' : null;
  if (!target) return c.fail('CONCEPT or PROPOSITION after SEARCH');
  const s: SearchStatement = { kind: 'search', target, term: parseString(c, 'The search term'), pos };
  for (;;) {
    if (c.acceptKeyword('WITH')) {
      c.expectKeyword('TYPE', 'after WITH');
      s.type = parseString(c, 'WITH TYPE');
    } else if (c.isKeyword('MODE')) {
      const at = c.next().pos;
      const mode = parseString(c, 'MODE');
      if (!MODES.has(mode)) {
        throw new KipError(
          'KIP_2003',
          `MODE at ${where(at)} must be "keyword", "semantic" or "hybrid", got "${mode}".`,
        );
      }
      s.mode = mode as SearchMode;
    } else if (c.isKeyword('THRESHOLD')) {
      const at = c.next().pos;
      const threshold = parseNumber(c, 'THRESHOLD');
      if (threshold < 0 || threshold > 1) {
        throw new KipError('KIP_2003', `THRESHOLD at ${where(at)} must be between 0 and 1, got ${threshold}.`);
      }
      s.threshold = threshold;
    } else if (c.acceptKeyword('LIMIT')) {
      s.limit = parseCount(c, 'LIMIT');
    } else {
      return s;
    }
  }
}

/** `EXPORT ?target WHERE {…} [LIMIT n]`. */
export function parseExport(c: TokenCursor): ExportStatement {
  const pos = c.expectKeyword('EXPORT').pos;
  const target = c.expectVar('after EXPORT').text;
  c.expectKeyword('WHERE', `after EXPORT ?${target}`);
  const e: ExportStatement = { kind: 'export', target, where: parseWhereBlock(c), pos };
  if (c.acceptKeyword('LIMIT')) e.limit = parseCount(c, 'LIMIT');
  return e;
}
