import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';

/**
 * Exporting into a vault that already holds a person's own notes (black-box QA): a note of theirs named like an
 * entity ("Entities/person/Maya Chen.md") was overwritten by the export, although the docs say files PIE did not
 * write are never touched. It is left alone and reported; PIE's own notes are still refreshed.
 */
let dir: string;
let db: string;
let cleanup: () => void;
beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  const r = await pie(['--db', db, '--now', '2025-11-01', 'ingest', SAMPLE, '--extractor', 'offline']);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(() => cleanup());

describe('pie export obsidian into a vault with notes of your own', () => {
  it('never overwrites a note PIE did not write, says so, and keeps it out of the manifest', async () => {
    const vault = join(dir, 'vault');
    mkdirSync(join(vault, 'Entities', 'person'), { recursive: true });
    const mine = join(vault, 'Entities', 'person', 'Maya Chen.md');
    writeFileSync(mine, 'my own notes about Maya\n');
    const r = await pie(['--db', db, '--now', '2025-11-01', 'export', 'obsidian', vault]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(mine, 'utf8')).toBe('my own notes about Maya\n');
    expect(r.stdout).toContain(
      'Left 1 file alone that PIE did not write (move or rename them to export these): Entities/person/Maya Chen.md.',
    );
    const manifest = JSON.parse(readFileSync(join(vault, '.pie-export.json'), 'utf8')) as {
      files: Record<string, string>;
    };
    expect(manifest.files['Entities/person/Maya Chen.md']).toBeUndefined();
    expect(manifest.files['Entities/person/Nora.md']).toBeDefined();

    const again = await pie(['--db', db, '--now', '2025-11-01', 'export', 'obsidian', vault]);
    expect(again.stdout).toMatch(/0 files written, \d+ unchanged\./);
    expect(readFileSync(mine, 'utf8')).toBe('my own notes about Maya\n');
  });

  it('refuses the other export into the same directory, which would delete every note as "no longer in the world"', async () => {
    const vault = join(dir, 'both');
    const first = await pie(['--db', db, '--now', '2025-11-01', 'export', 'obsidian', vault]);
    expect(first.code, first.stderr).toBe(0);
    const notes = readdirSync(vault, { recursive: true }).length;
    const r = await pie(['--db', db, '--now', '2025-11-01', 'export', 'markdown', vault]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `pie: ${vault} holds a pie export obsidian, which this markdown export would delete; export into another directory.\n`,
    );
    expect(readdirSync(vault, { recursive: true }).length).toBe(notes);
  });
});
