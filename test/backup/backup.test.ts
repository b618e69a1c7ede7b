import Database from 'better-sqlite3';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, pieJson, ROOT, SAMPLE, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const ENV = { PIE_EMBEDDER: 'fake:trigram', PIE_NOW: '2024-09-01T00:00:00Z' };

let dir: string;
let cleanup: () => void;
let source: string;
let first: string;

/** Every line but the header (whose createdAt is the one part that may differ). */
const body = (file: string): string => readFileSync(file, 'utf8').split('\n').slice(1).join('\n');

/** Every row of every table in rowid order with its rowid, the full-text indexes included (not their shadow tables). */
function dump(db: string): Record<string, unknown[]> {
  const conn = new Database(db, { readonly: true });
  try {
    const names = (
      conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]
    )
      .map((r) => r.name)
      .filter((n) => n !== 'schema_migrations' && !n.startsWith('sqlite_') && !n.includes('_fts_'));
    const out: Record<string, unknown[]> = {};
    for (const t of names) out[t] = conn.prepare(`SELECT rowid AS _rowid, * FROM ${t} ORDER BY rowid`).all();
    return out;
  } finally {
    conn.close();
  }
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-backup-'));
  source = join(dir, 'source.db');
  for (const args of [
    ['ingest', SAMPLE, '--extractor', 'offline'],
    ['apply', FIXTURE],
    ['sleep'],
    ['summarize', '--no-llm'],
  ]) {
    const r = await pie([...args, '--db', source], ENV);
    expect(r.code, r.stderr).toBe(0);
  }
  first = join(dir, 'first.jsonl');
  const r = await pie(['backup', first, '--db', source, '--llm-cache'], ENV);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => cleanup());

describe('pie backup / pie restore', () => {
  it('covers every data table, with blobs, journal and maintenance log, and a checksummed trailer', () => {
    const lines = readFileSync(first, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(header).toMatchObject({
      format: 'pie-backup',
      version: 1,
      schemaVersion: expect.any(Number),
      llmCache: true,
    });
    const trailer = JSON.parse(lines.at(-1) ?? '') as { tables: Record<string, number>; rows: number };
    for (const t of ['episodes', 'turns', 'entities', 'entity_aliases', 'transitions', 'facts', 'relationships']) {
      expect(trailer.tables[t], t).toBeGreaterThan(0);
    }
    for (const t of ['entity_mentions', 'periods', 'embeddings', 'journal', 'maintenance_log', 'ingest_runs']) {
      expect(trailer.tables[t], t).toBeGreaterThan(0);
    }
    for (const t of ['observations', 'mental_models', 'summaries']) {
      expect(trailer.tables[t], t).toBeGreaterThan(0);
    }
    expect(Object.keys(trailer.tables)).toContain('llm_cache');
    expect(Object.keys(trailer.tables)).not.toContain('schema_migrations');
    expect(Object.keys(trailer.tables).some((t) => t.includes('_fts'))).toBe(false);
    expect(lines.some((l) => l.includes('{"$bytes":'))).toBe(true);
  });

  it('backup → restore into an empty database → backup is identical apart from the header time, row for row', async () => {
    const restored = join(dir, 'restored.db');
    const r = await pie(['restore', first, '--db', restored], ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Restored \d[\d,]* rows from /);
    const second = join(dir, 'second.jsonl');
    expect(
      (await pie(['backup', second, '--db', restored, '--llm-cache'], { ...ENV, PIE_NOW: '2030-01-01' })).code,
    ).toBe(0);
    expect(body(second)).toBe(body(first));
    expect(readFileSync(second, 'utf8').split('\n')[0]).not.toBe(readFileSync(first, 'utf8').split('\n')[0]);
    // Stored rows, rowids and the derived full-text indexes are the same too.
    expect(dump(restored)).toEqual(dump(source));
    // The restored world answers like the original (search also counts accesses, so on copies of both).
    const a = await pieJson(['search', 'research project', '--db', restored], ENV);
    const copy = join(dir, 'copy.db');
    expect((await pie(['restore', first, '--db', copy], ENV)).code).toBe(0);
    expect(await pieJson(['search', 'research project', '--db', copy], ENV)).toEqual(a);
    expect(JSON.stringify(a)).toMatch(/entity|turn|episode/);
  }, 60_000);

  it('compresses a .gz file to the same content', async () => {
    const gz = join(dir, 'world.jsonl.gz');
    expect((await pie(['backup', gz, '--db', source, '--llm-cache'], ENV)).code).toBe(0);
    const plain = join(dir, 'plain-now.jsonl');
    expect((await pie(['backup', plain, '--db', source, '--llm-cache'], ENV)).code).toBe(0);
    const text = gunzipSync(readFileSync(gz)).toString('utf8');
    expect(text.split('\n').slice(1).join('\n')).toBe(body(plain));
    const restored = join(dir, 'from-gz.db');
    expect((await pie(['restore', gz, '--db', restored], ENV)).code).toBe(0);
    expect(dump(restored)).toEqual(dump(source));
  }, 60_000);

  it('leaves the LLM cache out unless asked', async () => {
    const file = join(dir, 'no-cache.jsonl');
    const summary = await pieJson<{ tables: Record<string, number> }>(['backup', file, '--db', source], ENV);
    expect(Object.keys(summary.tables)).not.toContain('llm_cache');
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0] ?? '')).toMatchObject({ llmCache: false });
  });

  it('refuses a database that holds data with one sentence, and replaces it with --force', async () => {
    const target = join(dir, 'busy.db');
    expect((await pie(['apply', FIXTURE, '--db', target], ENV)).code).toBe(0);
    const before = dump(target);
    const refused = await pie(['restore', first, '--db', target], ENV);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(
      /already holds data \(.*episodes.*\); restore into a new --db file, or pass --force/,
    );
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(dump(target)).toEqual(before);
    const forced = await pie(['restore', first, '--db', target, '--force'], ENV);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/Replaced what was there before: /);
    const again = join(dir, 'after-force.jsonl');
    expect((await pie(['backup', again, '--db', target, '--llm-cache'], ENV)).code).toBe(0);
    expect(body(again)).toBe(body(first));
  }, 60_000);

  it('refuses a newer format, a newer schema, a foreign file, a truncated and an edited file, changing nothing', async () => {
    const lines = readFileSync(first, 'utf8').trimEnd().split('\n');
    const header = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    const variant = (name: string, content: string): string => {
      const file = join(dir, name);
      writeFileSync(file, content);
      return file;
    };
    const cases: [string, string, RegExp, number][] = [
      [
        'newer-format.jsonl',
        [JSON.stringify({ ...header, version: 99 }), ...lines.slice(1)].join('\n'),
        /uses backup format 99, newer than this PIE reads \(1\); upgrade PIE/,
        5,
      ],
      [
        'newer-schema.jsonl',
        [JSON.stringify({ ...header, schemaVersion: 999 }), ...lines.slice(1)].join('\n'),
        /newer database schema \(999;/,
        5,
      ],
      ['foreign.jsonl', '{"hello":"world"}\n', /is not a PIE backup/, 3],
      ['empty.jsonl', '', /is empty/, 3],
      ['truncated.jsonl', lines.slice(0, -1).join('\n'), /truncated; nothing was restored/, 3],
      ['cut-mid-line.jsonl', lines.join('\n').slice(0, -40), /line \d+: not valid JSON/, 3],
      [
        'edited.jsonl',
        lines.map((l, i) => (i === 5 && l.startsWith('[') ? l.replace(/"/, '"X') : l)).join('\n'),
        /checksum|line \d+/,
        3,
      ],
    ];
    for (const [name, content, message, code] of cases) {
      const target = join(dir, `target-${name}.db`);
      const r = await pie(['restore', variant(name, content), '--db', target], ENV);
      expect(r.code, `${name}: ${r.stderr}`).toBe(code);
      expect(r.stderr, name).toMatch(message);
      expect(r.stderr.trim().split('\n'), name).toHaveLength(1);
      // A restore into a new path that fails leaves no database file behind (it used to leave an empty one).
      for (const suffix of ['', '-wal', '-shm'])
        expect(existsSync(`${target}${suffix}`), `${name}${suffix}`).toBe(false);
    }
    // Into an existing database, a failed restore changes nothing and keeps the file.
    const existing = join(dir, 'existing.db');
    expect((await pie(['restore', first, '--db', existing], ENV)).code).toBe(0);
    const before = dump(existing);
    const refused = await pie(
      ['restore', variant('t2.jsonl', lines.slice(0, -1).join('\n')), '--db', existing, '--force'],
      ENV,
    );
    expect(refused.code).toBe(3);
    expect(dump(existing)).toEqual(before);
    const missing = await pie(['restore', join(dir, 'nope.jsonl'), '--db', join(dir, 'x.db')], ENV);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/There is no backup file at/);
  }, 60_000);

  it('refuses to write the backup over the database itself and leaves no partial file on failure', async () => {
    const r = await pie(['backup', source, '--db', source], ENV);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is the database itself/);
    const bad = await pie(['backup', join(dir, 'no-such-dir', 'b.jsonl'), '--db', source], ENV);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/does not exist; create it first/);
    // A directory is named as one, with a file to use, before a byte of the backup is written.
    const folder = await pie(['backup', dir, '--db', source], ENV);
    expect(folder.code).toBe(2);
    expect(folder.stderr.trim()).toMatch(
      /^pie: .+ is a directory; name the backup file in it, e\.g\. .+\/pie-\d{4}-\d\d-\d\d\.jsonl\.gz\.$/,
    );
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
