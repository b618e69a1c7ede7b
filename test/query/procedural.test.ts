import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { Procedure } from '../../src/domain/world.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { buildQueryContext } from '../../src/query/ask.js';
import { ROOT, pie, tempDir } from '../helpers/cli.js';

/** Procedural questions retrieve the procedures stored in the world (the query fixture plus three procedures). */
const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const NOW = Date.UTC(2025, 10, 1, 12);
const DAY = 86_400_000;

function procedure(p: Partial<Procedure> & Pick<Procedure, 'id' | 'description' | 'domain'>): Procedure {
  return {
    pattern: [],
    evidence: [],
    timesObserved: 3,
    firstObserved: NOW - 300 * DAY,
    lastObserved: NOW - 10 * DAY,
    confidence: 0.7,
    ...p,
  };
}

const PROCEDURES: Procedure[] = [
  procedure({
    id: 'proc-project',
    description: 'Starts a new project with a one-page brief, then a throwaway prototype',
    domain: 'new project',
    pattern: ['write a one-page brief', 'build a throwaway prototype', 'show it to two users'],
    timesObserved: 4,
  }),
  procedure({
    id: 'proc-deploy',
    description: 'Deploys on Fridays only after a staging soak',
    domain: 'deploying',
    pattern: ['merge to main', 'soak on staging for a day', 'deploy'],
    timesObserved: 6,
  }),
  procedure({
    id: 'proc-cooking',
    description: 'Batch-cooks on Sundays for the week',
    domain: 'cooking',
    timesObserved: 9,
  }),
];

let store: WorldStore;
let cleanup: () => void;

beforeAll(async () => {
  const tmp = tempDir();
  cleanup = tmp.cleanup;
  const db = join(tmp.dir, 'pie.db');
  const applied = await pie(['--db', db, '--tz', 'UTC', 'apply', FIXTURE]);
  if (applied.code !== 0) throw new Error(applied.stderr);
  store = await openSqliteStore({ path: db });
  for (const p of PROCEDURES) await store.procedures.upsert(p);
});
afterAll(async () => {
  await store.close();
  cleanup();
});

const ask = (question: string) => buildQueryContext({ store, question, now: NOW, tz: 'UTC', format: 'hybrid' });

describe('procedural intent', () => {
  it('retrieves the procedures that share words with the question, and writes their steps', async () => {
    const c = await ask('How do I usually approach a new project?');
    expect(c.plan.intent).toBe('procedural');
    expect(c.subgraph.procedures.map((p) => p.id)).toEqual(['proc-project']);
    expect(c.text).toContain('How the user usually works (procedures mined from their history):');
    expect(c.text).toContain('Starts a new project with a one-page brief, then a throwaway prototype [new project]');
    expect(c.text).toContain('seen 4 times');
    expect(c.text).toContain('Steps: write a one-page brief → build a throwaway prototype → show it to two users');
    expect(c.text).not.toContain('Batch-cooks');
  });

  it('matches a procedure by its steps as well as its domain', async () => {
    const c = await ask('What is my usual process for staging?');
    expect(c.plan.intent).toBe('procedural');
    expect(c.subgraph.procedures.map((p) => p.id)).toEqual(['proc-deploy']);
  });

  it('with no procedure sharing a word, all of them, most observed first', async () => {
    const c = await ask('What are my habits?');
    expect(c.plan.intent).toBe('procedural');
    expect(c.subgraph.procedures.map((p) => p.id)).toEqual(['proc-cooking', 'proc-deploy', 'proc-project']);
  });

  it('other intents leave procedures out', async () => {
    const c = await ask('Who is Maya?');
    expect(c.subgraph.procedures).toEqual([]);
    expect(c.text).not.toContain('How the user usually works');
  });
});
