import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, ROOT, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');

let dir: string;
let cleanup: () => void;
let db: string;
beforeEach(() => {
  ({ dir, cleanup } = tempDir('pie-reindex-'));
  db = join(dir, 'pie.db');
});
afterEach(() => cleanup());

describe('pie reindex', () => {
  it('embeds what has no vector of the configured model, and nothing on a second run', async () => {
    expect((await pie(['apply', FIXTURE, '--db', db])).code).toBe(0);
    const first = await pieJson<{
      model: string;
      embedded: { entities: number; episodes: number };
      vectors: { entities: number };
    }>(['reindex', '--embedder', 'fake:trigram', '--db', db]);
    expect(first.model).toBe('fake:trigram-64');
    expect(first.embedded.entities).toBe(10);
    expect(first.embedded.episodes).toBeGreaterThan(0);
    expect(first.vectors.entities).toBe(10);
    const second = await pie(['reindex', '--db', db], { PIE_EMBEDDER: 'fake:trigram' });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(
      /^Embedded 0 entities and 0 episodes with fake:trigram-64; it now has vectors for 10 entities/,
    );
  });

  it('says how to configure a model when none is', async () => {
    const r = await pie(['reindex', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^pie: No embedding model is configured; set PIE_EMBEDDER .* or pass --embedder\.\n$/);
  });
});
