import type { JsonValue, Statement } from '../ast.js';
import { KipError } from '../errors.js';
import { tokenize } from '../lexer.js';
import { TokenCursor } from './cursor.js';
import { parseDelete, parseMerge, parseUpdate, parseUpsert } from './kml.js';
import { parseDescribe, parseExport, parseFind, parseSearch } from './kql.js';

/**
 * Parses one KIP command into its statements (a command usually holds one; several are run in order). Parameters
 * are substituted as JSON values wherever a value may stand; a missing one is KIP_3001.
 */
export function parseKip(source: string, params: Readonly<Record<string, JsonValue>> = {}): Statement[] {
  const c = new TokenCursor(tokenize(source), params);
  const statements: Statement[] = [];
  while (!c.atEnd()) {
    if (c.acceptPunct(';')) continue;
    statements.push(parseStatement(c));
  }
  if (statements.length === 0) throw new KipError('KIP_1001', 'The command is empty.');
  return statements;
}

function parseStatement(c: TokenCursor): Statement {
  const t = c.peek();
  const word = t.kind === 'ident' ? t.text.toUpperCase() : '';
  switch (word) {
    case 'FIND':
      return parseFind(c);
    case 'UPSERT':
      return parseUpsert(c);
    case 'UPDATE':
      return parseUpdate(c);
    case 'MERGE':
      return parseMerge(c);
    case 'DELETE':
      return parseDelete(c);
    case 'DESCRIBE':
      return parseDescribe(c);
    case 'SEARCH':
      return parseSearch(c);
    case 'EXPORT':
      return parseExport(c);
    default:
      return c.fail('FIND, UPSERT, UPDATE, MERGE, DELETE, DESCRIBE, SEARCH or EXPORT');
  }
}
