import { createHash } from 'node:crypto';
import { PieError, errorMessage } from '../domain/errors.js';
import type { CellValue, DumpTable } from '../ports/dump-store.js';
import type { WorldStore } from '../ports/world-store.js';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  decodeCell,
  headerSchema,
  tableRecordSchema,
  trailerSchema,
  type BackupHeader,
} from './format.js';
import { mapColumns } from './portable.js';

export interface RestoreSummary {
  header: BackupHeader;
  tables: Record<string, number>;
  rows: number;
  /** Rows deleted first (only with `force`), by table. */
  replaced: Record<string, number>;
}

const LLM_CACHE_TABLE = 'llm_cache';
const INSERT_ROWS = 500;

/**
 * Restores a backup (see format.ts) from `lines` into `store` in one transaction: everything or nothing. Refuses a
 * newer format or schema, a target that already holds data (unless `force`, which first deletes every row of the
 * tables the backup covers), and a file whose trailer does not match what was read (truncated or edited).
 * `source` names the file in error messages.
 */
export async function restoreBackup(input: {
  store: WorldStore;
  lines: AsyncIterable<string>;
  source: string;
  force?: boolean;
  /** Called after each stored batch of rows with the table and how many of its rows are stored so far. */
  onRows?: (table: string, rows: number) => void;
}): Promise<RestoreSummary> {
  const { store, source } = input;
  const iterator = input.lines[Symbol.asyncIterator]();
  let lineNo = 0;
  const bad = (message: string): PieError =>
    new PieError('INVALID_DATA', `${source} line ${lineNo}: ${message}`, { details: { file: source, line: lineNo } });
  const next = async (): Promise<string | undefined> => {
    for (;;) {
      const r = await iterator.next();
      if (r.done === true) return undefined;
      lineNo += 1;
      if (r.value.trim() !== '') return r.value;
    }
  };

  const header = parseHeader(await next(), source);
  const info = store.info();
  // Schema versions count each adapter's own migrations: comparable only between backups of the same adapter. A
  // backup of another adapter is checked table by table and column by column below instead (see portable.ts).
  if (header.adapter === info.adapter && header.schemaVersion > info.schemaVersion) {
    throw new PieError(
      'DB_NEWER_SCHEMA',
      `${source} was made from a newer database schema (${header.schemaVersion}; this PIE has ${info.schemaVersion}); upgrade PIE to restore it.`,
    );
  }
  const known = new Map((await store.dump.tables()).map((t) => [t.name, t]));
  const covered = [...known.keys()].filter((name) => name !== LLM_CACHE_TABLE || header.llmCache);
  const existing: Record<string, number> = {};
  for (const name of covered) {
    const n = await store.dump.count(name);
    if (n > 0) existing[name] = n;
  }
  if (Object.keys(existing).length > 0 && input.force !== true) {
    const held = Object.entries(existing)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    throw new PieError(
      'CONFLICT',
      `The database ${info.location} already holds data (${held}); restore into a new --db file, or pass --force to replace everything in it.`,
    );
  }

  return store.transaction(async (tx) => {
    if (Object.keys(existing).length > 0) await tx.dump.clear(covered);
    const hash = createHash('sha256');
    const tables: Record<string, number> = {};
    let rows = 0;
    let current:
      { table: DumpTable; columns: string[]; keep: number[]; width: number; pending: CellValue[][] } | undefined;
    const flush = async (): Promise<void> => {
      if (!current || current.pending.length === 0) return;
      try {
        await tx.dump.insert({ table: current.table.name, columns: current.columns, rows: current.pending });
      } catch (error) {
        throw bad(`rows of table ${current.table.name} could not be stored (${errorMessage(error)}).`);
      }
      current.pending = [];
      input.onRows?.(current.table.name, tables[current.table.name] ?? 0);
    };

    for (;;) {
      const line = await next();
      if (line === undefined) {
        throw new PieError(
          'INVALID_DATA',
          `${source} ends before its closing record (after line ${lineNo}): the file is truncated; nothing was restored.`,
        );
      }
      const value = parseJson(line, bad);
      if (Array.isArray(value)) {
        if (!current) throw bad('a row comes before any table record.');
        if (value.length !== current.width) {
          throw bad(`the row has ${value.length} values for ${current.width} columns.`);
        }
        const cells = value as unknown[];
        current.pending.push(current.keep.map((i) => decodeOrFail(cells[i], bad)));
        hash.update(`${line}\n`);
        tables[current.table.name] = (tables[current.table.name] ?? 0) + 1;
        rows += 1;
        if (current.pending.length >= INSERT_ROWS) await flush();
        continue;
      }
      const trailer = trailerSchema.safeParse(value);
      if (trailer.success) {
        await flush();
        checkTrailer({ trailer: trailer.data, tables, rows, hash: hash.digest('hex'), bad });
        if ((await next()) !== undefined) throw bad('there is more after the closing record.');
        return { header, tables, rows, replaced: existing };
      }
      const record = tableRecordSchema.safeParse(value);
      if (!record.success) throw bad('expected a table record, a row or the closing record.');
      await flush();
      const table = known.get(record.data.table);
      if (!table) throw bad(`this database has no table "${record.data.table}".`);
      if (tables[table.name] !== undefined) throw bad(`table ${table.name} appears twice.`);
      const mapping = mapColumns({ columns: record.data.columns, target: table.columns });
      if (mapping.missing.length > 0) {
        throw bad(`table ${table.name} has no column ${mapping.missing.join(', ')} here.`);
      }
      const keep = mapping.targets.flatMap((target, i) => (target === null ? [] : [i]));
      const columns = mapping.targets.filter((target): target is string => target !== null);
      current = { table, columns, keep, width: record.data.columns.length, pending: [] };
      tables[table.name] = 0;
      hash.update(`${line}\n`);
    }
  });
}

function parseHeader(line: string | undefined, source: string): BackupHeader {
  const notBackup = (): PieError =>
    new PieError('UNKNOWN_FORMAT', `${source} is not a PIE backup (its first line is not a pie-backup header).`);
  if (line === undefined) throw new PieError('UNREADABLE_INPUT', `${source} is empty; it is not a PIE backup.`);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw notBackup();
  }
  const format = (value as { format?: unknown } | null)?.format;
  const version = (value as { version?: unknown } | null)?.version;
  if (format !== BACKUP_FORMAT) throw notBackup();
  if (typeof version === 'number' && version > BACKUP_VERSION) {
    throw new PieError(
      'DB_NEWER_SCHEMA',
      `${source} uses backup format ${version}, newer than this PIE reads (${BACKUP_VERSION}); upgrade PIE to restore it.`,
    );
  }
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success) {
    throw new PieError('INVALID_DATA', `${source} line 1: the backup header is damaged (${parsed.error.message}).`);
  }
  return parsed.data;
}

function parseJson(line: string, bad: (m: string) => PieError): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw bad(`not valid JSON (${errorMessage(error)}); the file is damaged.`);
  }
}

function decodeOrFail(cell: unknown, bad: (m: string) => PieError): CellValue {
  try {
    return decodeCell(cell);
  } catch (error) {
    throw bad(errorMessage(error));
  }
}

function checkTrailer(input: {
  trailer: { tables: Record<string, number>; rows: number; sha256: string };
  tables: Record<string, number>;
  rows: number;
  hash: string;
  bad: (m: string) => PieError;
}): void {
  const { trailer, tables } = input;
  const names = new Set([...Object.keys(trailer.tables), ...Object.keys(tables)]);
  for (const name of names) {
    if ((trailer.tables[name] ?? -1) !== (tables[name] ?? -1)) {
      throw input.bad(
        `the closing record counts ${trailer.tables[name] ?? 0} rows of ${name} but ${tables[name] ?? 0} were read; the file is damaged, nothing was restored.`,
      );
    }
  }
  if (trailer.rows !== input.rows || trailer.sha256 !== input.hash) {
    throw input.bad('the content does not match its checksum; the file was changed or damaged, nothing was restored.');
  }
}
