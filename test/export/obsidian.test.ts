import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, ROOT, SAMPLE, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const ENV = { PIE_NOW: '2025-10-01T00:00:00Z' };

let dir: string;
let cleanup: () => void;
let db: string;
let vault: string;

beforeEach(async () => {
  ({ dir, cleanup } = tempDir('pie-obsidian-'));
  db = join(dir, 'pie.db');
  vault = join(dir, 'vault');
  expect((await pie(['apply', FIXTURE, '--db', db], ENV)).code).toBe(0);
});
afterEach(() => cleanup());

function notes(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) out.push(relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

interface Report {
  written: string[];
  unchanged: number;
  removed: string[];
}

describe('pie export obsidian', () => {
  it('writes a vault whose every wikilink resolves to a note, with front matter, periods and timelines', async () => {
    const report = await pieJson<Report>(['export', 'obsidian', vault, '--db', db], ENV);
    const files = notes(vault);
    expect(report.written.sort()).toEqual(files);
    expect(files).toContain('PIE World.md');
    expect(files).toContain('Entities/project/PIE.md');
    expect(files.some((f) => f.startsWith('Periods/'))).toBe(true);
    const byName = new Set(files.map((f) => f.replace(/^.*\//, '').replace(/\.md$/, '')));
    let links = 0;
    for (const f of files) {
      const text = readFileSync(join(vault, f), 'utf8');
      expect(text.startsWith('---\n'), f).toBe(true);
      for (const m of text.matchAll(/\[\[([^\]|]+)(\|[^\]]+)?\]\]/g)) {
        links += 1;
        expect(byName.has(m[1] ?? ''), `${f} links to ${m[1]}`).toBe(true);
      }
      expect(f).not.toMatch(/[\\:*?"<>|]/);
    }
    expect(links).toBeGreaterThan(20);
    const pieNote = readFileSync(join(vault, 'Entities/project/PIE.md'), 'utf8');
    expect(pieNote).toMatch(/^type: "project"$/m);
    expect(pieNote).toMatch(/^periods:\n {2}- "\[\[junior year at UMD\]\]"$/m);
    expect(pieNote).toContain('## Timeline\n- **2024-11-02** · creation:');
    expect(pieNote).toContain('USES → [[FalkorDB]]');
    const period = readFileSync(join(vault, 'Periods/junior year at UMD.md'), 'utf8');
    expect(period).toMatch(/^start: "2024-09-10"$/m);
    expect(period).toContain('## During this period\n');
    expect(period).toContain('- [[PIE]]');
  });

  it('rewrites nothing when nothing changed, only the touched notes after a change, and removes notes of vanished entities', async () => {
    await pieJson(['export', 'obsidian', vault, '--db', db], ENV);
    const again = await pieJson<Report>(['export', 'obsidian', vault, '--db', db], ENV);
    expect(again.written).toEqual([]);
    expect(again.unchanged).toBe(notes(vault).length);

    const line = JSON.stringify({
      batch: { id: '2025-09-25', date: '2025-09-25T10:00:00Z', episodeIds: ['c-late'] },
      entities: [{ name: 'Obsidian', type: 'tool', state: { status: 'trying' } }],
      relationships: [{ source: 'PIE', target: 'Obsidian', type: 'USES' }],
      summary: 'Started exporting PIE to Obsidian.',
    });
    const more = join(dir, 'more.jsonl');
    writeFileSync(more, `${line}\n`);
    expect((await pie(['apply', more, '--db', db], ENV)).code).toBe(0);
    const third = await pieJson<Report>(['export', 'obsidian', vault, '--db', db], ENV);
    expect(third.written).toContain('Entities/tool/Obsidian.md');
    expect(third.written).toContain('Entities/project/PIE.md');
    expect(third.written.length).toBeLessThan(notes(vault).length / 2);

    // A note in the vault that PIE did not write is never touched; an edited note of ours is rewritten.
    writeFileSync(join(vault, 'My own note.md'), 'mine');
    writeFileSync(join(vault, 'Entities/tool/Neo4j.md'), 'edited');
    const fourth = await pieJson<Report>(['export', 'obsidian', vault, '--db', db], ENV);
    expect(fourth.written).toEqual(['Entities/tool/Neo4j.md']);
    expect(readFileSync(join(vault, 'My own note.md'), 'utf8')).toBe('mine');

    // An export of another (smaller) world removes the notes PIE wrote that no longer exist.
    const other = join(dir, 'other.db');
    expect((await pie(['apply', more, '--db', other], ENV)).code).toBe(0);
    const fifth = await pieJson<Report>(['export', 'obsidian', vault, '--db', other], ENV);
    expect(fifth.removed).toContain('Entities/project/Tidepool.md');
    expect(existsSync(join(vault, 'Entities/project/Tidepool.md'))).toBe(false);
    expect(existsSync(join(vault, 'My own note.md'))).toBe(true);
  });

  it('exports an ingested chat history with safe, unique file names', async () => {
    const big = join(dir, 'sample.db');
    expect((await pie(['ingest', SAMPLE, '--extractor', 'offline', '--db', big], ENV)).code).toBe(0);
    const report = await pieJson<Report>(['export', 'obsidian', vault, '--db', big], ENV);
    const files = notes(vault);
    expect(report.written.length).toBe(files.length);
    expect(new Set(files.map((f) => f.toLowerCase().replace(/^.*\//, ''))).size).toBe(files.length);
  }, 60_000);

  it('escapes hostile names: NUL bytes, newlines, [[, | and # stay inside their heading, list item and link', async () => {
    const hostile = join(dir, 'hostile.jsonl');
    const name = 'Evil\u0000Corp\n# Injected [[PIE]] | cell';
    writeFileSync(
      hostile,
      `${JSON.stringify({
        batch: { id: '2024-12-01', date: '2024-12-01T10:00:00Z', episodeIds: ['c-hostile'] },
        entities: [
          { name, type: 'organization', aliases: ['E]]vil|Co'], state: { 'motto\nx': 'line1\n## line2' } },
          { name: 'Tidepool', type: 'project' },
        ],
        relationships: [{ source: 'Tidepool', target: name, type: 'USES' }],
      })}\n`,
    );
    expect((await pie(['apply', hostile, '--db', db], ENV)).code).toBe(0);
    await pieJson<Report>(['export', 'obsidian', vault, '--db', db], ENV);
    const file = notes(vault).find((f) => f.startsWith('Entities/organization/Evil'));
    expect(file).toBeDefined();
    const text = readFileSync(join(vault, file ?? ''), 'utf8');
    expect(text).not.toContain('\u0000');
    const body = text.slice(text.indexOf('\n---\n') + 5);
    // One heading only, the name on it escaped; no new heading, link or cell made by the name's characters.
    expect(body.match(/^# /gm)).toHaveLength(1);
    expect(body).toContain('# Evil Corp \\# Injected \\[\\[PIE\\]\\] \\| cell\n');
    expect(body).toContain('also called E\\]\\]vil\\|Co');
    expect(body).toContain('- motto x: line1 \\#\\# line2');
    const tidepool = readFileSync(join(vault, 'Entities/project/Tidepool.md'), 'utf8');
    const link = [...tidepool.matchAll(/USES → \[\[([^\]]*)\]\]/g)].find((m) => m[1]?.startsWith('Evil'));
    expect(link?.[1]).toMatch(/^Evil-Corp - Injected --PIE-- - cell\|Evil Corp # Injected PIE cell$/);
  });

  it('refuses a file as the vault directory with one sentence', async () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    const r = await pie(['export', 'obsidian', file, '--db', db], ENV);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a file, not a directory; choose a directory to export into\.\n$/);
  });
});
