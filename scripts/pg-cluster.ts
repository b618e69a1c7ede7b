import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: Debian's server binaries, a temporary data directory,
 * a free loopback port and trust authentication. PostgreSQL refuses to run as root, so as root the binaries run as
 * the `postgres` OS user.
 */
export interface ThrowawayServer {
  /** `postgres://user@127.0.0.1:port/postgres` (no password: trust authentication on loopback). */
  url: string;
  /** The server's major version directory, e.g. "15". */
  version: string;
  stop(): Promise<void>;
}

/** Debian keeps the server binaries in /usr/lib/postgresql/<version>/bin, off PATH; the newest version wins. */
export function findPostgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], 'bin');
  }
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Runs a server binary, as the `postgres` OS user when we are root. */
function runAsOwner(bin: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [command, full] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(command, full, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

function postgresIds(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

/**
 * Starts a cluster. `durable: false` (tests) turns fsync and synchronous commit off, and autovacuum: its ANALYZE takes
 * a transaction id, which moves the server-wide snapshot WorldStore.revision reads, so a test that only reads could
 * see the revision change under load (the contract test "stays the same while the memory is only read" failed once
 * so). Benchmarks keep the defaults, so a commit costs what it costs on a real server.
 */
export async function startThrowawayServer(input: { durable: boolean }): Promise<ThrowawayServer> {
  const bin = findPostgresBin();
  if (bin === null) throw new Error('No PostgreSQL server binaries (initdb, pg_ctl) were found.');
  const dir = await mkdtemp(join(tmpdir(), 'pie-pg-'));
  const owner = postgresIds();
  if (owner) await chown(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const user = owner ? 'postgres' : (process.env.USER ?? 'postgres');
  runAsOwner(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', user, '-E', 'UTF8', '--locale=C', '--no-sync']);
  const fast = input.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c autovacuum=off';
  const serverOptions = `-k ${dir} -c listen_addresses=127.0.0.1 -p ${port}${fast}`;
  runAsOwner(join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    serverOptions,
    'start',
  ]);
  return {
    url: `postgres://${user}@127.0.0.1:${port}/postgres`,
    version: bin.split('/').at(-2) ?? '?',
    async stop() {
      try {
        runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Drops a schema and everything in it (a test's or a benchmark's memory). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
