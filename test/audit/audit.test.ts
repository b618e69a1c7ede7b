import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshot } from '../helpers/db.js';
import { pie, pieJson, tempDir } from '../helpers/cli.js';

/**
 * pie audit on a real database built by pie ingest with a scripted model (the only fake): junk entities such as a
 * pronoun, a pet taken for a person and a sentence taken for a place are found with their source turn; --fix archives
 * and retypes them in one journaled run, and pie undo restores every row.
 */
const G = ['--tz', 'UTC', '--now', '2024-06-01'];
let dir: string;
let db: string;
let cleanup: () => void;

const chat = [
  {
    id: 'c1',
    title: 'Weekend',
    created_at: '2024-05-04T10:00:00Z',
    messages: [
      { role: 'user', content: 'My dog Max loves the beach. She ran around all day with Maya.' },
      {
        role: 'user',
        content: 'Right now its enough to rest, go with this book that writes about bird watching guides.',
      },
    ],
  },
];
const extraction = {
  entities: [
    { name: 'Max', type: 'person', state: { relation: 'mother' }, episodeId: 'c1' },
    { name: 'she', type: 'person', episodeId: 'c1' },
    { name: 'go with this book that writes about bird watching guides', type: 'place', episodeId: 'c1' },
    { name: 'Maya', type: 'person', episodeId: 'c1' },
  ],
  summary: 'A weekend.',
};

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, 'pie.db');
  writeFileSync(join(dir, 'chat.jsonl'), chat.map((c) => JSON.stringify(c)).join('\n'));
  writeFileSync(join(dir, 'fake.json'), JSON.stringify({ prompts: { 'extract-batch@3': [{ response: extraction }] } }));
  const r = await pie(['--db', db, ...G, 'ingest', join(dir, 'chat.jsonl'), '--llm', `fake:${join(dir, 'fake.json')}`]);
  if (r.code !== 0) throw new Error(r.stderr);
}, 60_000);
afterAll(() => cleanup());

interface AuditJson {
  entities: number;
  findings: {
    kind: string;
    entity: { name: string };
    why: string;
    action: { kind: string; type?: string };
    safe: boolean;
    source: { title: string; excerpt: string | null } | null;
  }[];
  fix: { runId: string; applied: { archived: number; retyped: number; merged: number } } | null;
}

describe('pie audit', () => {
  it('reports junk with why, where it came from and what to do, and changes nothing by default', async () => {
    const before = snapshot(db);
    const r = await pieJson<AuditJson>(['--db', db, ...G, 'audit']);
    const junk = Object.fromEntries(r.findings.filter((f) => f.kind === 'junk').map((f) => [f.entity.name, f]));
    expect(Object.keys(junk).sort()).toEqual([
      'Max',
      'go with this book that writes about bird watching guides',
      'she',
    ]);
    expect(junk.Max?.action).toEqual({ kind: 'retype', type: 'pet' });
    expect(junk.Max?.source).toMatchObject({ title: 'Weekend', excerpt: 'My dog Max loves the beach.' });
    expect(junk.she?.action).toEqual({ kind: 'archive' });
    expect(r.fix).toBeNull();
    expect(snapshot(db)).toEqual(before);
    const text = await pie(['--db', db, ...G, 'audit']);
    expect(text.stdout).toContain('Dry run: nothing changed. pie audit --fix applies the safe actions (undoable).');
  });

  it('--fix applies the safe actions as one run that pie undo reverts exactly', async () => {
    const before = snapshot(db, ['maintenance_log', 'journal']);
    const fixed = await pieJson<AuditJson>(['--db', db, ...G, 'audit', '--fix']);
    expect(fixed.fix?.applied).toEqual({ archived: 2, retyped: 1, merged: 0 });
    const max = await pieJson<{ entity: { type: string } }>(['--db', db, ...G, 'entity', 'Max']);
    expect(max.entity.type).toBe('pet');
    const again = await pieJson<AuditJson>(['--db', db, ...G, 'audit']);
    expect(again.findings.filter((f) => f.kind === 'junk')).toEqual([]);
    const undo = await pie(['--db', db, ...G, 'undo', fixed.fix?.runId ?? '']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(snapshot(db, ['maintenance_log', 'journal'])).toEqual(before);
  });

  it('--fix with nothing safe to fix says there is nothing to revert, not a run id to undo', async () => {
    const first = await pieJson<AuditJson>(['--db', db, ...G, 'audit', '--fix']);
    const second = await pie(['--db', db, ...G, 'audit', '--fix']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(
      'Fixed: nothing (no finding was safe to fix); nothing changed, so there is nothing to revert.',
    );
    expect(second.stdout).not.toContain('revert with');
    await pie(['--db', db, ...G, 'undo', first.fix?.runId ?? '']);
  });

  it('refuses --fix with --dry-run in one sentence', async () => {
    const r = await pie(['--db', db, ...G, 'audit', '--fix', '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fix and --dry-run contradict each other/);
  });
});
