import { z } from 'zod';
import { PieError } from '../domain/errors.js';
import type { CellValue } from '../ports/dump-store.js';

/**
 * The backup format (JSON Lines, one record a line, so that neither writing nor reading needs the whole world in
 * memory):
 *
 *   {"format":"pie-backup","version":1,"createdAt":"…","schemaVersion":3,"adapter":"sqlite","llmCache":false}
 *   {"table":"episodes","columns":["rid","id",…]}
 *   [1,"ep-1",…]                      one line per row, values in the table record's column order
 *   …                                 (the next table record, its rows, …)
 *   {"end":true,"tables":{"episodes":12,…},"rows":1234,"sha256":"…"}
 *
 * Values are JSON null, numbers, strings, {"$bytes":"<base64>"} for binary values and {"$real":"Infinity"} for
 * non-finite numbers. `sha256` is the hash of every line between the header and the trailer (each with its "\n"),
 * so a truncated or edited file is refused. The header's `createdAt` is the only part that differs between two
 * backups of the same data.
 */
export const BACKUP_FORMAT = 'pie-backup';
/** The first bytes of an encrypted backup (./cipher.ts). */
export const ENCRYPTED_BACKUP_MAGIC = 'PIEBAK1\n';
export const BACKUP_VERSION = 1;

export const headerSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.number().int().positive(),
  createdAt: z.string(),
  schemaVersion: z.number().int().positive(),
  adapter: z.string(),
  llmCache: z.boolean(),
});
export type BackupHeader = z.infer<typeof headerSchema>;

export const tableRecordSchema = z.object({ table: z.string().min(1), columns: z.array(z.string().min(1)).min(1) });
export type TableRecord = z.infer<typeof tableRecordSchema>;

export const trailerSchema = z.object({
  end: z.literal(true),
  tables: z.record(z.string(), z.number().int().nonnegative()),
  rows: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BackupTrailer = z.infer<typeof trailerSchema>;

type EncodedCell = string | number | null | { $bytes: string } | { $real: string };

export function encodeCell(value: CellValue): EncodedCell {
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
  if (typeof value === 'number' && !Number.isFinite(value)) return { $real: String(value) };
  return value;
}

export function decodeCell(value: unknown): CellValue {
  if (value === null || typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record.$bytes === 'string') return new Uint8Array(Buffer.from(record.$bytes, 'base64'));
    if (record.$real === 'Infinity') return Infinity;
    if (record.$real === '-Infinity') return -Infinity;
  }
  throw new PieError('INVALID_DATA', `unexpected value ${JSON.stringify(value)}`);
}

export function encodeRow(row: readonly CellValue[]): string {
  return JSON.stringify(row.map(encodeCell));
}
