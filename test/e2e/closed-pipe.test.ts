import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finished, pieJson, SAMPLE, spawnPie, tempDir } from '../helpers/cli.js';

describe('a reader that closes stdout early (pie ingest … | head -2)', () => {
  let dir: { dir: string; cleanup: () => void };
  beforeEach(() => {
    dir = tempDir('pie-pipe-');
  });
  afterEach(() => dir.cleanup());

  it('does not crash the command on EPIPE: the ingest finishes and exits 0', async () => {
    const db = join(dir.dir, 'pie.db');
    const child = spawnPie(['--db', db, 'ingest', SAMPLE]);
    // The read end goes away before the first line: every write the command makes meets a closed pipe.
    child.stdout?.destroy();
    const r = await finished(child);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|node:events/);
    expect(r.code).toBe(0);
    const stats = await pieJson<{ episodes: number; episodesPendingExtraction: number }>(['--db', db, 'stats']);
    expect(stats).toMatchObject({ episodes: 49, episodesPendingExtraction: 0 });
  });
});
