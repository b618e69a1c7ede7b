import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';

interface IngestJson {
  extraction: { batches: { done: number }; consolidations: number };
}

function sleepRuns(db: string): { status: string; scope: string }[] {
  const conn = new Database(db, { readonly: true });
  try {
    return (
      conn.prepare("SELECT status, report FROM maintenance_log WHERE kind = 'sleep' ORDER BY started_at").all() as {
        status: string;
        report: string;
      }[]
    ).map((r) => ({ status: r.status, scope: (JSON.parse(r.report) as { scope: string }).scope }));
  } finally {
    conn.close();
  }
}

describe('pie ingest runs a light consolidation every N batches and at the end', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  beforeEach(() => {
    dir = tempDir('pie-light-');
    db = join(dir.dir, 'pie.db');
  });
  afterEach(() => dir.cleanup());

  it('recomputes importance as journaled daydream sleeps, undoable like any sleep', async () => {
    const r = await pieJson<IngestJson>(['--db', db, 'ingest', SAMPLE, '--limit', '12', '--consolidate-every', '5']);
    const done = r.extraction.batches.done;
    expect(done).toBeGreaterThan(5);
    // after every 5 applied batches, plus one at the end for the rest
    expect(r.extraction.consolidations).toBe(Math.ceil(done / 5));
    const runs = sleepRuns(db);
    expect(runs).toHaveLength(r.extraction.consolidations);
    expect(runs.every((x) => x.status === 'completed' && x.scope === 'daydream')).toBe(true);
    const conn = new Database(db, { readonly: true });
    const spread = conn.prepare('SELECT count(DISTINCT importance) AS n FROM entities').get() as { n: number };
    conn.close();
    expect(spread.n).toBeGreaterThan(1); // no longer everyone at the default 0.5
  });

  it('--consolidate-every 0 turns it off', async () => {
    const r = await pieJson<IngestJson>(['--db', db, 'ingest', SAMPLE, '--limit', '3', '--consolidate-every', '0']);
    expect(r.extraction.consolidations).toBe(0);
    expect(sleepRuns(db)).toEqual([]);
  });

  it('a bad --consolidate-every is refused with one sentence before anything is imported', async () => {
    const r = await pie(['--db', db, 'ingest', SAMPLE, '--consolidate-every', '-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('pie: --consolidate-every must be a whole number (0 turns it off), not "-1".\n');
  });
});
