import pg from 'pg';
import { openPostgresStore } from '../../src/adapters/store/postgres/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { dropSchema, startThrowawayServer } from '../../scripts/pg-cluster.js';

/** The PostgreSQL server a benchmark runs against, described for the report. */
export interface BenchServer {
  url: string;
  /** "PostgreSQL 15.x, throwaway cluster (fsync on) …" */
  label: string;
  stop(): Promise<void>;
}

/**
 * `--pg-url URL` or PIE_BENCH_PG_URL when given (an operator's own server), else a throwaway cluster from Debian's
 * binaries with the server's default durability (fsync and synchronous commit on), so commits cost what they cost.
 */
export async function benchServer(input: { url: string | undefined }): Promise<BenchServer> {
  const given = input.url ?? process.env.PIE_BENCH_PG_URL;
  const server = given ? null : await startThrowawayServer({ durable: true });
  const url = given ?? (server as { url: string }).url;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const version =
      (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ?? '?';
    const buffers =
      (await client.query<{ v: string }>("SELECT current_setting('shared_buffers') AS v")).rows[0]?.v ?? '?';
    const origin = server
      ? 'a throwaway cluster on this machine (initdb defaults, fsync and synchronous commit on, loopback TCP)'
      : 'the server given by --pg-url / PIE_BENCH_PG_URL';
    return {
      url,
      label: `PostgreSQL ${version}, ${origin}, shared_buffers ${buffers}`,
      stop: async () => {
        await server?.stop();
      },
    };
  } finally {
    await client.end();
  }
}

/** A fresh schema of the bench server (dropped first if an earlier run left it), opened as a PIE store. */
export async function freshPgStore(input: { url: string; schema: string }): Promise<WorldStore> {
  await dropSchema(input.url, input.schema);
  return openPostgresStore({ url: input.url, schema: input.schema });
}

/** `--store sqlite|postgres` and `--pg-url` taken out of a benchmark's arguments; the rest is left for it. */
export function storeArgs(args: readonly string[]): { postgres: boolean; pgUrl: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let store = 'sqlite';
  let pgUrl: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg];
    if (flag === '--store' || flag === '--pg-url') {
      const value = inline ?? args[++i];
      if (value === undefined) throw new Error(`${flag} wants a value`);
      if (flag === '--store') store = value;
      else pgUrl = value;
    } else rest.push(arg);
  }
  if (store !== 'sqlite' && store !== 'postgres') throw new Error(`--store is sqlite or postgres, not "${store}"`);
  return { postgres: store === 'postgres', pgUrl, rest };
}
