import { existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { readLines, restoreBackup, writeBackup, writeFileAtomically } from '../../../backup/index.js';
import { createEmbedderFromEnv } from '../../../compose.js';
import { databaseKey } from '../../../config/config.js';
import { PieError } from '../../../domain/errors.js';
import { indexEmbeddings } from '../../../ingest/embed-index.js';
import type { CommandContext } from '../context.js';
import { localDate, num } from '../format.js';
import { createProgress } from '../io.js';
import type { ActionRunner } from '../run.js';

export function registerBackup(program: Command, run: ActionRunner): void {
  program
    .command('backup')
    .description('write the whole memory (history, journal, provenance, pyramid, embeddings) to a JSON Lines file')
    .argument('<file>', 'backup file to write (a .gz name is compressed); replaced only when the backup succeeded')
    .option('--llm-cache', 'include the LLM response cache')
    .option('--plain', 'write it unencrypted although the database is encrypted (PIE_DB_KEY)')
    .action((file: string, flags: { llmCache?: boolean; plain?: boolean }) =>
      run((ctx) => backup(ctx, file, { includeLlmCache: flags.llmCache === true, plain: flags.plain === true })),
    );
  program
    .command('restore')
    .description('restore a pie backup into an empty database, in one transaction (all or nothing)')
    .argument('<file>', 'backup file written by pie backup')
    .option('--force', 'replace everything the database already holds')
    .action((file: string, flags: { force?: boolean }) => run((ctx) => restore(ctx, file, flags.force === true)));
  program
    .command('reindex')
    .description('give every entity and episode a vector of the configured embedding model (after changing it)')
    .option('--embedder <provider:model>', 'embedding model (default $PIE_EMBEDDER)')
    .action((flags: { embedder?: string }) => run((ctx) => reindex(ctx, flags.embedder)));
}

async function reindex(ctx: CommandContext, flag: string | undefined): Promise<void> {
  const env = flag === undefined ? ctx.io.env : { ...ctx.io.env, PIE_EMBEDDER: flag };
  const embedder = createEmbedderFromEnv(env);
  if (!embedder) {
    throw new PieError(
      'INVALID_ARGUMENT',
      'No embedding model is configured; set PIE_EMBEDDER (e.g. openai:text-embedding-3-small or ollama:nomic-embed-text) or pass --embedder.',
    );
  }
  const services = await ctx.services({ existing: true });
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const done = await indexEmbeddings({
    store: services.store,
    embedder,
    clock: services.clock,
    onProgress: (n, kind) =>
      progress.update(`Embedding with ${embedder.model}… ${n} ${kind === 'entity' ? 'entities' : 'episodes'}`),
  });
  progress.done();
  const [entities, episodes] = await Promise.all([
    services.store.embeddings.count({ ownerKind: 'entity', model: embedder.model }),
    services.store.embeddings.count({ ownerKind: 'episode', model: embedder.model }),
  ]);
  ctx.emit({
    text: `Embedded ${num(done.entities)} entities and ${num(done.episodes)} episodes with ${embedder.model}; it now has vectors for ${num(entities)} entities and ${num(episodes)} episodes (vectors of other models are kept).`,
    json: { model: embedder.model, embedded: done, vectors: { entities, episodes } },
  });
}

function countsLine(tables: Record<string, number>): string {
  return Object.entries(tables)
    .filter(([, n]) => n > 0)
    .map(([t, n]) => `${num(n)} ${t}`)
    .join(', ');
}

export async function backup(
  ctx: CommandContext,
  file: string,
  options: { includeLlmCache: boolean; plain?: boolean },
): Promise<void> {
  const { includeLlmCache } = options;
  // A backup of an encrypted database is encrypted with its key, unless asked otherwise.
  const key = options.plain ? undefined : databaseKey(ctx.io.env);
  const services = await ctx.services({ readonly: true });
  const target = resolve(file);
  if (target === resolve(services.store.info().location)) {
    throw new PieError('INVALID_ARGUMENT', `${file} is the database itself; choose another file for the backup.`);
  }
  if (isDirectory(target)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${file} is a directory; name the backup file in it, e.g. ${join(file, `pie-${localDate(services.clock.now(), ctx.config.tz)}.jsonl.gz`)}.`,
    );
  }
  const summary = await writeFileAtomically(
    target,
    (sink) => writeBackup({ store: services.store, sink, now: services.clock.now(), includeLlmCache }),
    { key },
  );
  ctx.emit({
    text: `Backed up ${num(summary.rows)} rows to ${target} (format ${summary.header.version}, schema ${summary.header.schemaVersion}${includeLlmCache ? ', with the LLM cache' : ''}${key === undefined ? '' : ', encrypted with the database key'}): ${countsLine(summary.tables) || 'empty database'}.`,
    json: { file: target, encrypted: key !== undefined, ...summary },
  });
}

async function restore(ctx: CommandContext, file: string, force: boolean): Promise<void> {
  const source = resolve(file);
  const lines = readLines(source, databaseKey(ctx.io.env));
  const target = ctx.config.dbPath;
  const created = !existsSync(target);
  const services = await ctx.services();
  const summary = await restoreBackup({ store: services.store, lines, source, force }).catch(async (error: unknown) => {
    // A restore that fails changed nothing; a database file it created for the purpose goes again.
    if (created) {
      await services.close();
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
    }
    throw error;
  });
  const replaced = countsLine(summary.replaced);
  ctx.emit({
    text: [
      `Restored ${num(summary.rows)} rows from ${source} (made ${summary.header.createdAt}) into ${services.store.info().location}: ${countsLine(summary.tables) || 'empty backup'}.`,
      ...(replaced ? [`Replaced what was there before: ${replaced}.`] : []),
    ].join('\n'),
    json: { file: source, database: services.store.info().location, ...summary },
  });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
