import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';
import { PLANTED, SECRET_ID, filesHolding, plantedWorld, type PlantedWorld } from './forget-world.js';

/**
 * Forgetting a conversation outlives the next import of the same export (it used to come straight back), and a
 * backup restored elsewhere: only a digest of the conversation's id is kept, and `--include-forgotten` is the way
 * back in.
 */
let w: PlantedWorld;
beforeEach(async () => {
  w = await plantedWorld();
});
afterEach(() => w.cleanup());

const episodes = (db: string) => rows<{ id: string }>(db, 'SELECT id FROM episodes ORDER BY id').map((r) => r.id);
const history = () => join(w.dir, 'history.jsonl');
const model = () => `fake:${join(w.dir, 'model.json')}`;

describe('a forgotten conversation and a later import of the same export', () => {
  it('stays out, says so, and leaves nothing of it in the file; --include-forgotten brings it back', async () => {
    const before = episodes(w.db);
    expect((await w.run(['forget', SECRET_ID, '--yes'])).code).toBe(0);
    const after = episodes(w.db);
    expect(after).toHaveLength(before.length - 1);

    const again = await w.run(['ingest', history(), '--llm', model()]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Left out 1 conversation you asked PIE to forget (pie forget)');
    expect(episodes(w.db)).toEqual(after);
    // The kept digest says nothing about the conversation.
    const kept = rows<{ key: string }>(w.db, 'SELECT key FROM forgotten_episodes');
    expect(kept).toHaveLength(1);
    expect(kept[0]?.key).toMatch(/^[0-9a-f]{64}$/);
    expect((await w.run(['forget', '--compact'])).code).toBe(0);
    expect(filesHolding(w.db, PLANTED)).toEqual([]);

    const dry = await w.run(['ingest', history(), '--dry-run', '--include-forgotten', '--llm', model()]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(rows(w.db, 'SELECT key FROM forgotten_episodes')).toHaveLength(1);
    const back = await w.run(['ingest', history(), '--include-forgotten', '--llm', model()]);
    expect(back.code, back.stderr).toBe(0);
    expect(episodes(w.db)).toEqual(before);
    expect(rows(w.db, 'SELECT key FROM forgotten_episodes')).toEqual([]);
  });

  it('a backup restored into a new database keeps leaving it out', async () => {
    expect((await w.run(['forget', SECRET_ID, '--yes'])).code).toBe(0);
    const file = join(w.dir, 'memory.pie-backup');
    expect((await w.run(['backup', file])).code).toBe(0);
    const restored = join(w.dir, 'restored.db');
    const r = await pie(['restore', file, '--db', restored]);
    expect(r.code, r.stderr).toBe(0);
    const count = episodes(restored).length;
    const again = await pie(['--db', restored, '--now', '2025-06-01', 'ingest', history(), '--llm', model()]);
    expect(again.code, again.stderr).toBe(0);
    expect(episodes(restored)).toHaveLength(count);
    expect(again.stdout).toContain('Left out 1 conversation you asked PIE to forget');
  });
});
