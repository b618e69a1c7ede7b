import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { migrateStore, type MigratePhase } from '../../../backup/index.js';
import { createClock, openStoreAt } from '../../../compose.js';
import { databaseKey, isPostgresUrl } from '../../../config/config.js';
import { selectMemory } from '../../../config/memory.js';
import { PieError } from '../../../domain/errors.js';
import type { WorldStore } from '../../../ports/world-store.js';
import type { CommandContext } from '../context.js';
import { num } from '../format.js';
import { createProgress } from '../io.js';
import type { ActionRunner } from '../run.js';

export function registerMigrateStore(program: Command, run: ActionRunner): void {
  program
    .command('migrate-store')
    .description('copy a whole memory between SQLite and PostgreSQL (either way) and verify the copy by checksums')
    .argument('<from>', 'the memory to copy: a SQLite file or a postgres:// URL')
    .argument('<to>', 'where to copy it: a SQLite file (created when missing) or a postgres:// URL')
    .option('--force', 'replace everything the target already holds')
    .option('--from-memory <name>', 'the memory to copy when <from> is a PostgreSQL database holding several')
    .option('--to-memory <name>', 'the memory to copy into when <to> is a PostgreSQL database holding several')
    .action((from: string, to: string, flags: { force?: boolean; fromMemory?: string; toMemory?: string }) =>
      run((ctx) =>
        migrate(ctx, {
          from,
          to,
          force: flags.force === true,
          fromMemory: memoryOf(flags.fromMemory, from, '--from-memory'),
          toMemory: memoryOf(flags.toMemory, to, '--to-memory'),
        }),
      ),
    );
}

function memoryOf(name: string | undefined, location: string, flag: string): string | undefined {
  if (name === undefined) return undefined;
  if (!isPostgresUrl(location)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${flag} applies to a postgres:// URL; ${location} is a SQLite file, which holds one memory.`,
    );
  }
  try {
    return selectMemory({ flag: name, env: undefined, postgres: true });
  } catch (error) {
    if (error instanceof PieError) throw new PieError(error.code, error.message.replace('--memory', flag));
    throw error;
  }
}

const LABEL: Record<MigratePhase, string> = {
  'copy out': 'Reading',
  'copy in': 'Writing',
  'verify source': 'Verifying the source,',
  'verify target': 'Verifying the copy,',
};

function where(location: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location) ? location : resolve(location);
}

async function migrate(
  ctx: CommandContext,
  input: { from: string; to: string; force: boolean; fromMemory: string | undefined; toMemory: string | undefined },
): Promise<void> {
  const from = input.from.trim();
  const to = input.to.trim();
  if (from === '' || to === '') throw new PieError('INVALID_ARGUMENT', 'Give both a source and a target memory.');
  if (where(from) === where(to) && input.fromMemory === input.toMemory) {
    throw new PieError('INVALID_ARGUMENT', `The source and the target are the same memory (${from}).`);
  }
  const opened: WorldStore[] = [];
  // A SQLite target this command creates goes again when the copy fails (the restore committed nothing into it).
  const newFile = isPostgresUrl(to) ? null : existsSync(where(to)) ? null : where(to);
  let failed = false;
  const scratchDir = mkdtempSync(join(tmpdir(), 'pie-migrate-'));
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  try {
    const source = await openStoreAt({
      location: where(from),
      env: ctx.io.env,
      create: false,
      memory: input.fromMemory,
    });
    opened.push(source);
    const target = await openStoreAt({ location: where(to), env: ctx.io.env, create: true, memory: input.toMemory });
    opened.push(target);
    const summary = await migrateStore({
      source,
      target,
      scratch: join(scratchDir, 'memory.jsonl'),
      now: createClock(ctx.config).now(),
      force: input.force,
      key: databaseKey(ctx.io.env),
      onProgress: (phase, table, rows) => progress.update(`${LABEL[phase]} ${table}… ${num(rows)} rows`),
    });
    progress.done();
    const tables = Object.entries(summary.tables).filter(([, t]) => t.rows > 0);
    const replaced = Object.entries(summary.replaced).map(([t, n]) => `${num(n)} ${t}`);
    ctx.emit({
      text: [
        `Copied ${num(summary.rows)} rows from ${summary.source} to ${summary.target}; both sides have the same rows and checksums in every table:`,
        ...tables.map(([name, t]) => `  ${name.padEnd(26)} ${num(t.rows).padStart(9)}  ${t.checksum.slice(0, 16)}`),
        ...(replaced.length > 0 ? [`Replaced what the target held before: ${replaced.join(', ')}.`] : []),
      ].join('\n'),
      json: summary,
    });
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    progress.done();
    for (const store of opened.reverse()) await store.close();
    rmSync(scratchDir, { recursive: true, force: true });
    if (failed && newFile !== null)
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${newFile}${suffix}`, { force: true });
  }
}
