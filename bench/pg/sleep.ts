import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { WORLD_NOW, ensureWorld } from '../generate/world.js';
import { machineLine, mdTable, writeSection } from '../report.js';
import { sleepSteps } from '../sleep.js';
import { BENCH_TMP, removeDb } from '../workspace.js';
import { benchServer } from './server.js';
import { copiedWorld } from './world.js';

/**
 * `npm run bench -- sleep --store postgres [--pg-url URL]`: the sleep benchmark's steps on a copy of the 20k-entity
 * synthetic world in SQLite and, in the same run, on the same world copied into PostgreSQL.
 */
export async function benchSleepPostgres(input: { pgUrl: string | undefined; args: string[] }): Promise<void> {
  if (input.args.length > 0)
    throw new Error(`sleep --store postgres takes no other flags (got ${input.args.join(' ')})`);
  const source = (await ensureWorld()).path;
  const db = join(BENCH_TMP, 'sleep-world-pg-compare.db');
  removeDb({ db });
  copyFileSync(source, db);
  if (existsSync(`${source}-wal`)) copyFileSync(`${source}-wal`, `${db}-wal`);
  const server = await benchServer({ url: input.pgUrl });
  const copied = await copiedWorld({ path: db, url: server.url, schema: 'bench_sleep' });
  const { sqlite, postgres } = copied;
  try {
    const stats = await postgres.stats();
    console.log('SQLite:');
    const onSqlite = await sleepSteps({ store: sqlite, now: WORLD_NOW });
    console.log('PostgreSQL:');
    const onPostgres = await sleepSteps({ store: postgres, now: WORLD_NOW });
    const rows = onSqlite.map((r, i) => {
      const p = onPostgres[i] ?? [];
      return [r[0] ?? '', r[1] ?? '', p[1] ?? '', p[2] ?? '', p[3] ?? ''];
    });
    // The undo row's note carries a time; the work is the rest.
    const work = (note: string | undefined) => (note ?? '').replace(/, [\d.]+ s\)$/, ')');
    const sameWork = onSqlite.every((r, i) => work(r[3]) === work(onPostgres[i]?.[3]));
    writeSection({
      name: 'sleep-postgres',
      markdown: [
        '## Sleep cycle at scale: PostgreSQL beside SQLite',
        '',
        `Command: \`npm run bench -- sleep --store postgres\`. ${machineLine()}. Server: ${server.label}.`,
        '',
        `World: the sleep benchmark's synthetic world (${stats.entities.toLocaleString('en-US')} entities, ` +
          `${stats.transitions.toLocaleString('en-US')} transitions, ${stats.relationships.toLocaleString('en-US')} ` +
          `relationships), copied from SQLite into a fresh PostgreSQL schema with \`pie migrate-store\`'s code ` +
          `(${copied.rows.toLocaleString('en-US')} rows, checksums equal, ${(copied.copyMs / 1000).toFixed(0)} s). ` +
          'The same steps as the SQLite sleep benchmark (`sleepSteps` in bench/sleep.ts), run in one process, first on ' +
          "SQLite, then on PostgreSQL; PostgreSQL's CPU column is PIE's process only (the server works in its own " +
          'processes on the same cores).',
        '',
        mdTable(['step', 'SQLite wall s', 'PostgreSQL wall s', 'PostgreSQL CPU s', 'what it did (PostgreSQL)'], rows),
        '',
        sameWork
          ? 'Both stores did the same work in every step (the same counts of changes, rows journaled and restored).'
          : 'The stores did NOT report the same work in every step; compare the last column with the SQLite sleep ' +
            'section above.',
      ].join('\n'),
    });
  } finally {
    await sqlite.close();
    await postgres.close();
    await server.stop();
    removeDb({ db });
  }
}
