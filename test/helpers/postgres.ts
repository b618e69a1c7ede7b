import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';

/** A PostgreSQL server for tests: its URL (no password: trust authentication on loopback) and how to stop it. */
export interface TestServer {
  url: string;
  /** Where it came from, for messages. */
  origin: 'PIE_TEST_PG_URL' | 'throwaway cluster';
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

/**
 * Whether the real-server tests can run: a server URL is given, or the binaries exist. In CI (CI set) a missing
 * server is an error (CI installs PostgreSQL); on a developer machine the caller skips with a loud message.
 */
export function postgresAvailability(): { ok: true } | { ok: false; reason: string } {
  if (process.env.PIE_TEST_PG_URL) return { ok: true };
  if (findPostgresBin() !== null) return { ok: true };
  return {
    ok: false,
    reason:
      'No PostgreSQL server binaries (initdb, pg_ctl) were found and PIE_TEST_PG_URL is not set: the PostgreSQL ' +
      'store tests against a real server are SKIPPED. Install them (apt-get install postgresql) or set PIE_TEST_PG_URL.',
  };
}

/**
 * A describe block whose tests need a real PostgreSQL server: a throwaway one (or PIE_TEST_PG_URL) is started
 * before them and stopped after. Without one the block is skipped with a loud message, except in CI, where it is an
 * error. `server()` is the running server, for the tests.
 */
export function describeWithPostgres(name: string, body: (server: () => TestServer) => void): void {
  const availability = postgresAvailability();
  if (!availability.ok) {
    if (process.env.CI) throw new Error(`${availability.reason} CI must install PostgreSQL (see .ci/run).`);
    console.warn(`\n*** ${availability.reason}\n`);
  }
  (availability.ok ? describe : describe.skip)(name, () => {
    let running: TestServer | undefined;
    beforeAll(async () => {
      running = await startTestServer();
    }, 120_000);
    afterAll(async () => {
      await running?.stop();
    });
    body(() => {
      if (!running) throw new Error('the PostgreSQL test server did not start');
      return running;
    });
  });
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

/** Runs a server binary, as the `postgres` OS user when we are root (PostgreSQL refuses to run as root). */
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

/** Starts a throwaway cluster on a temporary directory and a free loopback port, or uses PIE_TEST_PG_URL. */
export async function startTestServer(): Promise<TestServer> {
  const given = process.env.PIE_TEST_PG_URL;
  if (given) return { url: given, origin: 'PIE_TEST_PG_URL', stop: async () => undefined };
  const bin = findPostgresBin();
  if (bin === null) throw new Error(postgresAvailability().ok ? 'unreachable' : 'No PostgreSQL binaries found.');
  const dir = await mkdtemp(join(tmpdir(), 'pie-pg-'));
  const owner = postgresIds();
  if (owner) await chown(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = await freePort();
  const user = owner ? 'postgres' : (process.env.USER ?? 'postgres');
  runAsOwner(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', user, '-E', 'UTF8', '--locale=C', '--no-sync']);
  const serverOptions = `-k ${dir} -c listen_addresses=127.0.0.1 -p ${port} -c fsync=off -c synchronous_commit=off`;
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
    origin: 'throwaway cluster',
    async stop() {
      try {
        runAsOwner(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

let counter = 0;

/** A schema name no other test uses. */
export function freshSchemaName(): string {
  counter += 1;
  return `t_${process.pid}_${Date.now().toString(36)}_${counter}`;
}

/** Drops a test schema and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
