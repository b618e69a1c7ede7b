import Database from 'better-sqlite3';
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE, pie, pieJson, tempDir } from '../helpers/cli.js';
import { KG_TITLE, QUICK_UPDATE, writeNewerExport } from '../helpers/newer-export.js';

interface Stats {
  episodes: number;
  turns: number;
  entities: number;
  transitions: number;
  episodesPendingExtraction: number;
}

let dir: string;
let cleanup: () => void;
let db: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
});
afterEach(() => cleanup());

describe('pie ingest: import stage through the CLI', () => {
  it('imports the sample, re-import adds nothing, a changed conversation is updated and re-extracted', async () => {
    const first = await pieJson<{ import: { conversations: number; outcomes: Record<string, number> } }>([
      '--db',
      db,
      'ingest',
      SAMPLE,
      '--extractor',
      'offline',
    ]);
    expect(first.import.conversations).toBe(49);
    expect(first.import.outcomes).toEqual({ inserted: 49, updated: 0, unchanged: 0 });
    const before = await pieJson<Stats>(['--db', db, 'stats']);
    expect(before.episodes).toBe(49);
    expect(before.episodesPendingExtraction).toBe(0);

    const again = await pieJson<{
      import: { outcomes: Record<string, number> };
      extraction: { batches: { planned: number } };
    }>(['--db', db, 'ingest', SAMPLE]);
    expect(again.import.outcomes).toEqual({ inserted: 0, updated: 0, unchanged: 49 });
    expect(again.extraction.batches.planned).toBe(0);
    expect(await pieJson<Stats>(['--db', db, 'stats'])).toEqual(before);

    // A newer export: one conversation got a new message.
    const exported = JSON.parse(readFileSync(SAMPLE, 'utf8')) as Array<Record<string, unknown>>;
    const conv = exported.find((c) => c.title === 'Study group app idea') as {
      mapping: Record<string, { id: string; parent: string | null; children: string[]; message: unknown }>;
      current_node: string;
    };
    const leaf = conv.mapping[conv.current_node]!;
    const newId = 'appended-node';
    leaf.children.push(newId);
    conv.mapping[newId] = {
      id: newId,
      parent: leaf.id,
      children: [],
      message: {
        id: newId,
        author: { role: 'user' },
        create_time: 1726000000,
        content: { content_type: 'text', parts: ['One more thing: I want Tidepool to work offline too.'] },
      },
    };
    conv.current_node = newId;
    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify(exported));
    const updated = await pieJson<{ import: { outcomes: Record<string, number> }; extraction: { episodes: number } }>([
      '--db',
      db,
      'ingest',
      newer,
    ]);
    expect(updated.import.outcomes).toEqual({ inserted: 0, updated: 1, unchanged: 48 });
    expect(updated.extraction.episodes).toBe(1);
    const hits = await pieJson<{ results: { kind: string; snippet?: string }[] }>([
      '--db',
      db,
      'search',
      'offline',
      'too',
    ]);
    const turns = hits.results.filter((r) => r.kind === 'turn');
    expect(turns.map((t) => t.snippet).join(' ')).toContain('«offline»');
  });

  it('--dry-run shows daily batches and writes nothing', async () => {
    const r = await pie(['--db', db, 'ingest', SAMPLE, '--dry-run', '--extractor', 'offline']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Would import 49 conversations');
    expect(r.stdout).toMatch(/Extraction plan: \d+ batches over \d+ days, 49 episodes\./);
    expect(r.stdout).toContain('2024-09-03');
    expect(r.stdout).toContain('Dry run: nothing was written');
    // Not even the database file, which did not exist yet.
    expect(readdirSync(dir)).toEqual([]);
    const stats = await pie(['--db', db, 'stats']);
    expect(stats.code).toBe(3);
    expect(stats.stderr).toContain('There is no database at');
    // On an existing memory the dry run adds nothing to it.
    await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline', '--limit', '2']);
    const before = await pieJson<Stats>(['--db', db, 'stats']);
    const again = await pie(['--db', db, 'ingest', SAMPLE, '--dry-run', '--extractor', 'offline']);
    expect(again.stdout).toContain('Dry run: nothing was written');
    expect(await pieJson<Stats>(['--db', db, 'stats'])).toEqual(before);
  });

  it('--dry-run prices a chosen model without needing its API key', async () => {
    const r = await pie(['--db', db, 'ingest', SAMPLE, '--dry-run', '--llm', 'anthropic:claude-sonnet-4-5']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Estimated cost with anthropic:claude-sonnet-4-5: \$\d+\.\d\d input/);
    expect(r.stdout).toContain('This run would extract with anthropic:claude-sonnet-4-5 (from --llm).');
  });

  it('--extractor llm without a model fails before importing anything', async () => {
    const r = await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'llm']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/No model is configured/);
    expect((await pieJson<Stats>(['--db', db, 'stats'])).episodes).toBe(0);
  });

  it('search finds turns with BM25 snippets and survives hostile query text', async () => {
    await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline']);
    const r = await pie(['--db', db, 'search', 'Supabase', '--limit', '6']);
    expect(r.code).toBe(0);
    // The entity the text names comes first, then what else matched, turns with their words marked.
    expect(r.stdout.split('\n')[0]).toMatch(/^Supabase {2}\[tool\]/);
    expect(r.stdout).toContain('«Supabase»');
    const hostile = await pie(['--db', db, 'search', '--', '"foo" AND (bar', 'c++', '-x', '*']);
    expect(hostile.code).toBe(0);
  });
});

describe('an older export imported after a newer one', () => {
  it('keeps the newer stored conversation and its world facts, and says so', async () => {
    const newer = join(dir, 'newer.json');
    writeNewerExport(newer);
    const world = async () => ({
      maya: (await pieJson<{ entity: { state: Record<string, unknown> } }>(['--db', db, 'entity', 'Maya Chen'])).entity
        .state,
      obsidian: (await pieJson<{ entity: { state: Record<string, unknown> } }>(['--db', db, 'entity', 'Obsidian']))
        .entity.state,
      logseq: (await pie(['--db', db, 'entity', 'Logseq'])).code,
      stats: await pieJson<Stats & { facts: number; relationships: number }>(['--db', db, 'stats']),
    });
    const episode = () => {
      const raw = new Database(db, { readonly: true });
      try {
        const row = raw.prepare('SELECT id, updated_at, turn_count FROM episodes WHERE title = ?').get(KG_TITLE) as {
          id: string;
          updated_at: number;
          turn_count: number;
        };
        const texts = raw
          .prepare('SELECT text FROM turns WHERE episode_id = ? ORDER BY seq')
          .all(row.id)
          .map((t) => (t as { text: string }).text);
        return { ...row, texts };
      } finally {
        raw.close();
      }
    };

    await pieJson(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline']);
    const original = episode();
    const updated = await pieJson<{ import: { outcomes: Record<string, number> } }>(['--db', db, 'ingest', newer]);
    expect(updated.import.outcomes).toEqual({ inserted: 0, updated: 1, unchanged: 48 });
    const afterNewer = { episode: episode(), world: await world() };
    expect(afterNewer.episode.turn_count).toBe(original.turn_count + 2);
    expect(afterNewer.episode.texts).toContain(QUICK_UPDATE);
    expect(afterNewer.world.maya.role).toBe('COO');
    expect(afterNewer.world.obsidian.status).toBe('dropped');
    expect(afterNewer.world.logseq).toBe(0);
    expect(afterNewer.world.stats.turns).toBe(152);

    // The older original again: nothing of it is written, and the output names the conversation kept.
    const older = await pie(['--db', db, 'ingest', SAMPLE]);
    expect(older.code, older.stderr).toBe(0);
    expect(episode()).toEqual(afterNewer.episode);
    expect(await world()).toEqual(afterNewer.world);
    expect(older.stdout).toContain('0 new, 0 updated, 48 unchanged, 1 kept (stored version newer).');
    expect(older.stdout).toContain('Kept 1 conversation whose stored version is newer');
    expect(older.stdout).toContain(`"${KG_TITLE}" (${original.id}): stored version of`);

    const again = await pieJson<{
      import: { outcomes: Record<string, number>; keptNewer: { id: string; storedAt: number; importedAt: number }[] };
    }>(['--db', db, 'ingest', SAMPLE]);
    expect(again.import.outcomes).toEqual({ inserted: 0, updated: 0, unchanged: 48 });
    expect(again.import.keptNewer).toEqual([
      { id: original.id, title: KG_TITLE, storedAt: afterNewer.episode.updated_at, importedAt: original.updated_at },
    ]);
    expect(episode()).toEqual(afterNewer.episode);
  });
});

describe('bad input: one sentence, non-zero exit, nothing lost', () => {
  async function seeded(): Promise<Stats> {
    await pie(['--db', db, 'ingest', SAMPLE, '--extractor', 'offline']);
    return pieJson<Stats>(['--db', db, 'stats']);
  }

  it.each([
    ['a file that does not exist', () => join(dir, 'missing.json'), 3, /does not exist|no such|not found/i],
    ['a truncated export', () => truncated(), 3, /truncat|ends in the middle/i],
    ['a file that is not JSON', () => write('notes.json', 'hello, not json'), 3, /JSON/],
    ['an unknown JSON shape', () => write('other.json', '[{"foo": 1}]'), 3, /format/i],
  ])('%s', async (_label, path, code, message) => {
    const before = await seeded();
    const r = await pie(['--db', db, 'ingest', path()]);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(await pieJson<Stats>(['--db', db, 'stats'])).toEqual(before);
  });

  it('an unknown flag or format is a usage error (exit 2)', async () => {
    expect((await pie(['--db', db, 'ingest', SAMPLE, '--format', 'word'])).code).toBe(2);
    const r = await pie(['--db', db, 'stats', '--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--frobnicate'");
    expect((await pie(['--db', db, 'search', 'x', '--limit', 'many'])).stderr).toContain(
      '--limit must be a positive whole number',
    );
  });

  it('a database from a newer PIE is refused and left untouched', async () => {
    await seeded();
    const raw = new Database(db);
    raw.pragma('user_version = 999');
    raw.close();
    const copy = join(dir, 'copy.db');
    copyFileSync(db, copy);
    const r = await pie(['--db', db, 'stats']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/newer PIE/);
    expect(readFileSync(db).equals(readFileSync(copy))).toBe(true);
  });

  it('a database locked by another process fails with DB_LOCKED after the busy timeout', async () => {
    await seeded();
    const holder = new Database(db);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const r = await pie(['--db', db, 'ingest', SAMPLE]);
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/in use by another process/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect((await pieJson<Stats>(['--db', db, 'stats'])).episodes).toBe(49);
  }, 30_000);
});

function write(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function truncated(): string {
  const text = readFileSync(SAMPLE, 'utf8');
  return write('truncated.json', text.slice(0, Math.floor(text.length / 2)));
}
