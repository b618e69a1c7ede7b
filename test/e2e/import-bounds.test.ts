import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, SAMPLE, tempDir } from '../helpers/cli.js';

/**
 * Times are bounded on the way in (issue 15, item 3): one impossible timestamp in an export never aborts the import;
 * the conversation is imported with its other times, or skipped and reported when none is usable. Messages name the
 * conversation once, and an import that skipped everything says so.
 */
let dir: string;
let cleanup: () => void;
const sample = JSON.parse(readFileSync(SAMPLE, 'utf8')) as Record<string, unknown>[];
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

function exportWith(name: string, edit: (conversations: Record<string, unknown>[]) => void): string {
  const copy = structuredClone(sample);
  edit(copy);
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(copy));
  return path;
}

describe('impossible timestamps', () => {
  it('a create_time of 1e20 is reported once and ignored; all 49 conversations are imported', async () => {
    const path = exportWith('one-bad', (c) => {
      (c[3] as Record<string, unknown>).create_time = 1e20;
    });
    const r = await pie(['--db', join(dir, 'one.db'), 'ingest', path, '--extractor', 'offline']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Imported 49 conversations/);
    const line = r.stdout.split('\n').find((l) => l.includes('impossible timestamp')) ?? '';
    expect(line).toMatch(/create_time \(1e\+23 ms since 1970\)/);
    const title = String((sample[3] as Record<string, unknown>).title);
    expect(line.split(title).length - 1).toBe(1);
  });

  it('a conversation with no usable time at all is skipped and named; the rest are imported', async () => {
    const path = exportWith('all-bad', (c) => {
      const conv = c[5] as {
        create_time: number;
        update_time: number;
        mapping: Record<string, { message: { create_time: number } | null }>;
      };
      conv.create_time = 1e20;
      conv.update_time = -5e18;
      for (const node of Object.values(conv.mapping)) if (node.message) node.message.create_time = 9e15;
    });
    const r = await pie(['--db', join(dir, 'two.db'), 'ingest', path, '--extractor', 'offline']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Imported 48 conversations/);
    expect(r.stdout).toMatch(/Skipped 1 conversation:\n {2}- conversation ".*" \([^)]+\) has no plausible time/);
  });

  it('an import that skipped every conversation says nothing could be imported, exits non-zero and keeps the memory', async () => {
    const path = exportWith('none', (c) => {
      for (const conv of c) {
        const x = conv as {
          create_time: number;
          update_time: number;
          mapping: Record<string, { message: { create_time: number } | null }>;
        };
        x.create_time = 1e20;
        x.update_time = 1e20;
        for (const node of Object.values(x.mapping)) if (node.message) node.message.create_time = 1e20;
      }
    });
    const db = join(dir, 'three.db');
    const r = await pie(['--db', db, 'ingest', path, '--extractor', 'offline']);
    // The skipped conversations are listed with their reasons, then one sentence on stderr and exit 3 (bad input).
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/Skipped 49 conversations:/);
    expect(r.stderr).toContain(`Nothing in "${path}" could be imported (49 skipped, each with its reason above)`);
    expect(r.stdout).not.toContain('Extracting');
    // Into a memory that holds something: the same refusal, and the memory is as it was (nothing extracted again).
    const good = exportWith('good', () => undefined);
    expect((await pie(['--db', db, 'ingest', good, '--extractor', 'offline'])).code).toBe(0);
    const before = await pie(['--db', db, '--json', 'stats']);
    const again = await pie(['--db', db, 'ingest', path, '--extractor', 'offline']);
    expect(again.code).toBe(3);
    expect((await pie(['--db', db, '--json', 'stats'])).stdout).toBe(before.stdout);
    // An export with no conversation at all is not bad input either.
    const none = join(dir, 'none-at-all.json');
    writeFileSync(none, '[]');
    const empty = await pie(['--db', join(dir, 'four.db'), 'ingest', none, '--format', 'chatgpt']);
    expect([empty.code, empty.stdout]).toEqual([0, expect.stringContaining('the input holds no conversation')]);
    // An input with nothing new is not bad input: it imported what it had.
    const unchanged = await pie(['--db', db, 'ingest', good, '--extractor', 'offline']);
    expect([unchanged.code, unchanged.stdout]).toEqual([0, expect.stringContaining('49 unchanged')]);
  });
});
