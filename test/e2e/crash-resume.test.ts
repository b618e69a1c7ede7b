import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, finished, spawnPie, tempDir } from '../helpers/cli.js';
import { doneBatches, writeSampleModel } from '../helpers/sample-model.js';

/**
 * Kill a real `pie ingest` (SIGKILL: no cleanup of any kind) in the middle of extraction, run the same command
 * again, and compare the world with an uninterrupted run: no duplicate, no missing record, and no model call paid
 * twice (the answer that was in flight at the kill comes from the response cache).
 */

interface World {
  entities: string[];
  transitions: string[];
  facts: string[];
  relationships: string[];
  mentions: number;
  pending: number;
}

function readWorld(db: string): World {
  const d = new Database(db, { readonly: true });
  try {
    const rows = (sql: string): string[] => (d.prepare(sql).all() as { v: string }[]).map((r) => r.v).sort();
    return {
      entities: rows("SELECT name || '|' || type || '|' || state AS v FROM entities"),
      transitions: rows(
        "SELECT e.name || '|' || t.kind || '|' || t.summary || '|' || t.event_time || '|' || coalesce(t.to_state,'') AS v FROM transitions t JOIN entities e ON e.id = t.entity_id",
      ),
      facts: rows(
        "SELECT e.name || '|' || f.attribute || '|' || f.value || '|' || f.valid_from || '|' || coalesce(f.valid_to, 'open') AS v FROM facts f JOIN entities e ON e.id = f.entity_id",
      ),
      relationships: rows(
        "SELECT s.name || '|' || r.type || '|' || t.name || '|' || r.valid_from || '|' || coalesce(r.valid_to, 'open') AS v FROM relationships r JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id",
      ),
      mentions: (d.prepare('SELECT count(*) AS n FROM entity_mentions').get() as { n: number }).n,
      pending: (d.prepare("SELECT count(*) AS n FROM episodes WHERE extraction <> 'extracted'").get() as { n: number })
        .n,
    };
  } finally {
    d.close();
  }
}

let dir: string;
let cleanup: () => void;
let script: string;

beforeAll(() => {
  ({ dir, cleanup } = tempDir('pie-crash-'));
  // One rule per conversation title: a topic entity, and a shared project whose state follows the days.
  script = writeSampleModel({ dir, delayMs: 120 });
});
afterAll(() => cleanup());

const ingestArgs = (db: string): string[] => [
  '--db',
  db,
  '--json',
  'ingest',
  SAMPLE,
  '--llm',
  `fake:${script}`,
  '--concurrency',
  '1',
];

describe('crash and resume', () => {
  it('a killed ingest resumes to exactly the world of an uninterrupted run', async () => {
    const reference = join(dir, 'reference.db');
    const full = await finished(spawnPie(ingestArgs(reference)));
    expect(full.code, full.stderr).toBe(0);
    const expected = readWorld(reference);
    expect(expected.pending).toBe(0);
    expect(expected.entities.length).toBeGreaterThan(40);

    const db = join(dir, 'crashed.db');
    const child = spawnPie(ingestArgs(db));
    const exit = finished(child);
    const deadline = Date.now() + 60_000;
    while (doneBatches(db) < 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await exit;
    const killedAfter = doneBatches(db);
    expect(killedAfter).toBeGreaterThanOrEqual(12);
    expect(readWorld(db).pending).toBeGreaterThan(0);

    const resumed = await finished(spawnPie(ingestArgs(db)));
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout) as {
      import: { outcomes: Record<string, number> };
      extraction: { batches: { planned: number; done: number }; usage: { calls: number; cachedCalls: number } };
    };
    expect(report.import.outcomes).toEqual({ inserted: 0, updated: 0, unchanged: 49 });
    expect(report.extraction.batches.done).toBe(report.extraction.batches.planned);
    // Nothing paid twice: every batch applied before the kill is skipped, the one in flight (if its answer had
    // arrived) is served from the cache.
    expect(report.extraction.usage.calls).toBeLessThanOrEqual(49 - killedAfter);
    expect(report.extraction.usage.calls + report.extraction.usage.cachedCalls).toBe(49 - killedAfter);

    expect(readWorld(db)).toEqual(expected);
  }, 120_000);
});
