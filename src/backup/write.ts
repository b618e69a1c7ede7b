import { createHash } from 'node:crypto';
import type { WorldStore } from '../ports/world-store.js';
import { BACKUP_FORMAT, BACKUP_VERSION, encodeRow, type BackupHeader, type BackupTrailer } from './format.js';

/** Where backup lines go; `write` resolves when the sink can take more (back-pressure). */
export interface LineSink {
  write(text: string): Promise<void>;
}

export interface BackupSummary {
  header: BackupHeader;
  tables: Record<string, number>;
  rows: number;
}

const LLM_CACHE_TABLE = 'llm_cache';
const PAGE_ROWS = 500;
const FLUSH_CHARS = 1 << 16;

/**
 * Writes every data table of `store` to `sink` in the backup format (see format.ts), page by page inside one read
 * transaction, so the backup is a consistent snapshot and memory stays bounded by a page. The LLM response cache is
 * left out unless `includeLlmCache`.
 */
export async function writeBackup(input: {
  store: WorldStore;
  sink: LineSink;
  now: number;
  includeLlmCache?: boolean;
  pageRows?: number;
  /** Called after each page with the table and how many of its rows are written so far. */
  onRows?: (table: string, rows: number) => void;
}): Promise<BackupSummary> {
  const includeLlmCache = input.includeLlmCache ?? false;
  const pageRows = input.pageRows ?? PAGE_ROWS;
  return input.store.transaction(async (tx) => {
    const info = tx.info();
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date(input.now).toISOString(),
      schemaVersion: info.schemaVersion,
      adapter: info.adapter,
      llmCache: includeLlmCache,
    };
    const hash = createHash('sha256');
    let buffer = `${JSON.stringify(header)}\n`;
    const emit = async (line: string): Promise<void> => {
      const text = `${line}\n`;
      hash.update(text);
      buffer += text;
      if (buffer.length >= FLUSH_CHARS) {
        const chunk = buffer;
        buffer = '';
        await input.sink.write(chunk);
      }
    };

    const tables: Record<string, number> = {};
    let rows = 0;
    for (const table of await tx.dump.tables()) {
      if (table.name === LLM_CACHE_TABLE && !includeLlmCache) continue;
      await emit(JSON.stringify({ table: table.name, columns: table.columns }));
      let count = 0;
      let after: number | null = null;
      do {
        const page = await tx.dump.page({ table: table.name, after, limit: pageRows });
        for (const row of page.rows) await emit(encodeRow(row));
        count += page.rows.length;
        input.onRows?.(table.name, count);
        after = page.next;
      } while (after !== null);
      tables[table.name] = count;
      rows += count;
    }
    const trailer: BackupTrailer = { end: true, tables, rows, sha256: hash.digest('hex') };
    buffer += `${JSON.stringify(trailer)}\n`;
    await input.sink.write(buffer);
    return { header, tables, rows };
  });
}
