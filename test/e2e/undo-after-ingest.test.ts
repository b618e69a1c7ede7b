import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, pieJson, SAMPLE, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * A sleep, then an ingest that changes entities the sleep changed, then `pie undo <sleep> --force`. The forced undo
 * had put every row the sleep touched back as it was before the sleep, so entities lost the state the ingest gave
 * them while its transitions and facts stayed (Tidepool "launched" with the current fact "pivoted"). It now
 * reverts what the sleep changed and keeps what changed after it.
 */
let dir: string;
let cleanup: () => void;
let db: string;
let runId: string;
type EntityRow = { id: string; state: string; importance: number; tier: string };
const entities = (file: string) =>
  rows<EntityRow>(file, 'SELECT id, state, importance, tier FROM entities WHERE merged_into IS NULL ORDER BY id');
let beforeSleep: EntityRow[];
let afterSleep: EntityRow[];
let afterIngest: EntityRow[];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  const first = await pie(['--db', db, 'ingest', SAMPLE, '--limit', '20']);
  if (first.code !== 0) throw new Error(first.stderr);
  beforeSleep = entities(db);
  runId = (await pieJson<{ runId: string }>(['--db', db, 'sleep'])).runId;
  afterSleep = entities(db);
  const rest = await pie(['--db', db, 'ingest', SAMPLE, '--consolidate-every', '0']);
  if (rest.code !== 0) throw new Error(rest.stderr);
  afterIngest = entities(db);
}, 300_000);
afterAll(() => cleanup());

/** Entities whose state is not what their current facts say. */
function inconsistent(file: string): string[] {
  const facts = rows<{ entityId: string; attribute: string; value: string }>(
    file,
    'SELECT entity_id AS entityId, attribute, value FROM facts WHERE valid_to IS NULL',
  );
  const current = new Map<string, Record<string, unknown>>();
  for (const f of facts) current.set(f.entityId, { ...current.get(f.entityId), [f.attribute]: JSON.parse(f.value) });
  const sorted = (o: Record<string, unknown>) =>
    JSON.stringify(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  return entities(file)
    .filter((e) => sorted(JSON.parse(e.state) as Record<string, unknown>) !== sorted(current.get(e.id) ?? {}))
    .map((e) => e.id);
}

describe('pie undo --force of a sleep after a later ingest', () => {
  it('is refused without --force, naming the rows that changed', async () => {
    const copy = join(dir, 'copy.db');
    copyFileSync(db, copy);
    const r = await pie(['--db', copy, 'undo', runId]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/row\(s\) changed after run .*--force/);
  });

  it('reverts the sleep and keeps the ingest: every state agrees with its current facts', async () => {
    expect(inconsistent(db)).toEqual([]);
    const r = await pie(['--db', db, 'undo', runId, '--force']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /row changes reverted\. \d+ rows had changed since the run; their later changes were kept\./,
    );
    expect(inconsistent(db)).toEqual([]);
    // The states the ingest set stay; the sleep's importance and tier go back where the ingest left them alone.
    const undone = new Map(entities(db).map((e) => [e.id, e]));
    const setByIngest = afterIngest.filter((e) => afterSleep.find((s) => s.id === e.id)?.state !== e.state);
    expect(setByIngest.length).toBeGreaterThan(0);
    for (const e of setByIngest) expect(undone.get(e.id)?.state).toBe(e.state);
    const untouched = beforeSleep.filter((b) => {
      const later = afterIngest.find((a) => a.id === b.id);
      return later !== undefined && later.state === b.state;
    });
    expect(untouched.length).toBeGreaterThan(0);
    const changedBySleep = untouched.filter((b) => {
      const later = afterIngest.find((a) => a.id === b.id);
      return later?.importance !== b.importance || later.tier !== b.tier;
    });
    expect(changedBySleep.length).toBeGreaterThan(0);
    for (const b of changedBySleep) expect(undone.get(b.id)).toMatchObject({ importance: b.importance, tier: b.tier });
  });
});
