import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PieError } from '../../../domain/errors.js';
import { translateSqliteError } from './errors.js';

const PATH = '/data/pie.db';

function sqliteError(code: string): Error {
  return new Database.SqliteError(`driver says ${code}`, code);
}

describe('translateSqliteError', () => {
  it.each([
    ['SQLITE_BUSY', 'DB_LOCKED'],
    ['SQLITE_BUSY_SNAPSHOT', 'DB_LOCKED'],
    ['SQLITE_LOCKED', 'DB_LOCKED'],
    ['SQLITE_NOTADB', 'DB_CORRUPT'],
    ['SQLITE_CORRUPT', 'DB_CORRUPT'],
    ['SQLITE_CONSTRAINT_FOREIGNKEY', 'NOT_FOUND'],
    ['SQLITE_CONSTRAINT_PRIMARYKEY', 'CONFLICT'],
    ['SQLITE_CONSTRAINT_UNIQUE', 'CONFLICT'],
    ['SQLITE_CONSTRAINT_CHECK', 'INVALID_DATA'],
    ['SQLITE_CONSTRAINT_NOTNULL', 'INVALID_DATA'],
    ['SQLITE_READONLY', 'UNSUPPORTED'],
    ['SQLITE_CANTOPEN', 'DB_ERROR'],
    ['SQLITE_FULL', 'DB_ERROR'],
    ['SQLITE_IOERR_WRITE', 'DB_ERROR'],
    ['SQLITE_ERROR', 'DB_ERROR'],
  ])('%s → %s, naming the file and keeping the cause', (code, expected) => {
    const cause = sqliteError(code);
    const error = translateSqliteError(cause, PATH);
    expect(error).toBeInstanceOf(PieError);
    expect(error.code).toBe(expected);
    expect(error.message).toContain(PATH);
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ sqliteCode: code });
  });

  it('passes PieErrors through and wraps anything else as INTERNAL', () => {
    const pie = new PieError('NOT_FOUND', 'x');
    expect(translateSqliteError(pie, PATH)).toBe(pie);
    const other = new RangeError('too many parameters');
    expect(translateSqliteError(other, PATH)).toMatchObject({ code: 'INTERNAL', cause: other });
  });
});
