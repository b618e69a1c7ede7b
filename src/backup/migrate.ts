import { PieError } from '../domain/errors.js';
import type { WorldStore } from '../ports/world-store.js';
import { readLines, writeFileAtomically } from './files.js';
import { portableChecksums, type PortableTable } from './portable.js';
import { restoreBackup } from './restore.js';
import { writeBackup } from './write.js';

export type MigratePhase = 'copy out' | 'copy in' | 'verify source' | 'verify target';

export interface MigrateSummary {
  source: string;
  target: string;
  /** Rows copied, in total. */
  rows: number;
  /** Per table: rows and the portable checksum, equal on both sides. */
  tables: Record<string, PortableTable>;
  /** Rows the target held before (only with `force`), by table. */
  replaced: Record<string, number>;
}

const EMPTY: PortableTable = { rows: 0, checksum: '0'.repeat(64) };

/** What the target holds now, by table (tables without rows are left out). */
async function heldRows(store: WorldStore): Promise<Record<string, number>> {
  const held: Record<string, number> = {};
  for (const table of await store.dump.tables()) {
    const n = await store.dump.count(table.name);
    if (n > 0) held[table.name] = n;
  }
  return held;
}

/**
 * Copies everything `source` holds (the LLM cache included) into `target` through the backup format: a backup is
 * written to `scratch` (a private file the caller removes), then restored into the target in one transaction, which
 * maps the adapters' order keys (see portable.ts). Afterwards both sides are read again and must agree table by table
 * on row counts and on the checksum of their portable rows. A target that holds data is refused unless `force`.
 */
export async function migrateStore(input: {
  source: WorldStore;
  target: WorldStore;
  scratch: string;
  now: number;
  force?: boolean;
  /** Encrypts the scratch backup (PIE_DB_KEY, when a side is an encrypted SQLite file). */
  key?: string | undefined;
  onProgress?: (phase: MigratePhase, table: string, rows: number) => void;
}): Promise<MigrateSummary> {
  const { source, target } = input;
  const from = source.info().location;
  const to = target.info().location;
  if (from === to) throw new PieError('INVALID_ARGUMENT', `The source and the target are the same memory (${from}).`);
  const held = await heldRows(target);
  if (Object.keys(held).length > 0 && input.force !== true) {
    const what = Object.entries(held)
      .map(([t, n]) => `${n} ${t}`)
      .join(', ');
    throw new PieError(
      'CONFLICT',
      `The target ${to} already holds a memory (${what}); choose an empty target, or pass --force to replace everything in it.`,
    );
  }
  const progress = (phase: MigratePhase) => (table: string, rows: number) => input.onProgress?.(phase, table, rows);

  await writeFileAtomically(
    input.scratch,
    (sink) => writeBackup({ store: source, sink, now: input.now, includeLlmCache: true, onRows: progress('copy out') }),
    { key: input.key },
  );
  const restored = await restoreBackup({
    store: target,
    lines: readLines(input.scratch, input.key),
    source: input.scratch,
    force: input.force === true,
    onRows: progress('copy in'),
  });

  const before = await portableChecksums({ dump: source.dump, onRows: progress('verify source') });
  const after = await portableChecksums({ dump: target.dump, onRows: progress('verify target') });
  const differ: string[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = before[name] ?? EMPTY;
    const b = after[name] ?? EMPTY;
    if (a.rows !== b.rows) differ.push(`${name} (${a.rows} rows in the source, ${b.rows} in the target)`);
    else if (a.checksum !== b.checksum) differ.push(`${name} (same ${a.rows} rows, different content)`);
  }
  if (differ.length > 0) {
    throw new PieError(
      'INTERNAL',
      `The copy in ${to} does not match ${from}: ${differ.join('; ')}. Do not use the target; please report this.`,
      { details: { differ } },
    );
  }
  return { source: from, target: to, rows: restored.rows, tables: before, replaced: restored.replaced };
}
