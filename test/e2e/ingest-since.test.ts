import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';

/**
 * `pie ingest --since` after every waiting conversation (black-box QA): nothing is extracted, and the output must say
 * that the conversations before the date still wait, not that they are all in the world model already.
 */
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

describe('ingest --since later than every conversation', () => {
  it('says the earlier conversations wait for extraction, then a plain ingest extracts them', async () => {
    const db = join(dir, 'since.db');
    const first = await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline', '--since', '2030-01-01']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).not.toMatch(/already in the world model/);
    expect(first.stdout).toMatch(
      /Nothing to extract from 2030-01-01 on: 49 conversations from before then still wait for extraction \(pie ingest without --since extracts them\)\./,
    );
    const stats = await pie(['--db', db, 'stats']);
    expect(stats.stdout).toMatch(/episodes\s+49\s+49 waiting for extraction/);

    const rest = await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stdout).toMatch(/Extracted 49 of 49 batches/);
    const again = await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline', '--since', '2030-01-01']);
    expect(again.stdout).toMatch(
      /Nothing to extract: all 49 conversations in the database are already in the world model\./,
    );
  });
});
