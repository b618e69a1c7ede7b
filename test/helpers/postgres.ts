import { afterAll, beforeAll, describe } from 'vitest';
import { dropSchema, findPostgresBin, startThrowawayServer } from '../../scripts/pg-cluster.js';

export { dropSchema };

/** A PostgreSQL server for tests: its URL (no password: trust authentication on loopback) and how to stop it. */
export interface TestServer {
  url: string;
  /** Where it came from, for messages. */
  origin: 'PIE_TEST_PG_URL' | 'throwaway cluster';
  stop(): Promise<void>;
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

/** Starts a throwaway cluster (fsync off: test data is disposable), or uses PIE_TEST_PG_URL. */
export async function startTestServer(): Promise<TestServer> {
  const given = process.env.PIE_TEST_PG_URL;
  if (given) return { url: given, origin: 'PIE_TEST_PG_URL', stop: async () => undefined };
  const server = await startThrowawayServer({ durable: false });
  return { url: server.url, origin: 'throwaway cluster', stop: () => server.stop() };
}

let counter = 0;

/** A schema name no other test uses. */
export function freshSchemaName(): string {
  counter += 1;
  return `t_${process.pid}_${Date.now().toString(36)}_${counter}`;
}
