import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, ROOT, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Every source joined (issue 17, part 4): a ChatGPT export and a Claude export (with its projects.json and
 * memories.json) that talk about the same project make one entity with both sources as provenance.
 */
const CLAUDE = join(ROOT, 'test', 'fixtures', 'import', 'claude-full');
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

/** A one-conversation ChatGPT export (the mapping tree of the real format). */
function chatgptExport(path: string, text: string, at: number): void {
  const node = (id: string, parent: string | null, children: string[], message: unknown) => ({
    id,
    parent,
    children,
    message,
  });
  writeFileSync(
    path,
    JSON.stringify([
      {
        title: 'Pricing the lab plan',
        create_time: at,
        update_time: at + 60,
        conversation_id: 'gpt-tidepool-1',
        current_node: 'a1',
        mapping: {
          root: node('root', null, ['u1'], null),
          u1: node('u1', 'root', ['a1'], {
            author: { role: 'user' },
            create_time: at,
            content: { content_type: 'text', parts: [text] },
          }),
          a1: node('a1', 'u1', [], {
            author: { role: 'assistant' },
            create_time: at + 30,
            content: { content_type: 'text', parts: ['A per-lab price is easy to explain.'] },
          }),
        },
      },
    ]),
  );
}

describe('a ChatGPT and a Claude export of the same person', () => {
  it('resolve the project they share to one entity, with every source kept', async () => {
    const db = join(dir, 'pie.db');
    const gpt = join(dir, 'conversations.json');
    chatgptExport(gpt, "I'm building Tidepool, an app that helps research labs keep their notes.", 1_735_000_000);
    const first = await pie(['--db', db, 'ingest', gpt]);
    expect(first.code, first.stderr).toBe(0);
    const second = await pie(['--db', db, 'ingest', CLAUDE]);
    expect(second.code, second.stderr).toBe(0);

    const episodes = rows<{ source: string; external_id: string; title: string }>(
      db,
      'SELECT source, external_id, title FROM episodes ORDER BY created_at',
    );
    expect(episodes.map((e) => [e.source, e.external_id])).toEqual([
      ['chatgpt', 'gpt-tidepool-1'],
      ['claude', 'project:p-tidepool-1'],
      ['claude', 'c2b1d2e3-0000-4000-8000-000000000001'],
      ['claude', 'memory:acc-7'],
    ]);
    const projects = rows<{ id: string; name: string }>(
      db,
      "SELECT id, name FROM entities WHERE type = 'project' AND lower(name) LIKE '%tidepool%'",
    );
    expect(projects.map((p) => p.name)).toEqual(['Tidepool']);
    const sources = rows<{ source: string; external_id: string }>(
      db,
      `SELECT DISTINCT e.source, e.external_id FROM entity_mentions m JOIN episodes e ON e.id = m.episode_id
       WHERE m.entity_id = ? ORDER BY e.created_at`,
      projects[0]?.id,
    );
    expect(sources.map((s) => s.source)).toEqual(expect.arrayContaining(['chatgpt', 'claude']));
    expect(sources.map((s) => s.external_id)).toEqual(
      expect.arrayContaining(['gpt-tidepool-1', 'project:p-tidepool-1', 'c2b1d2e3-0000-4000-8000-000000000001']),
    );

    // The project's knowledge document is searchable; users.json (name and e-mail) is not imported.
    const found = await pie(['--db', db, 'search', 'pilot labs three months free']);
    expect(found.stdout).toMatch(/Claude project: Tidepool/);
    expect(JSON.stringify(rows(db, 'SELECT text FROM turns'))).not.toContain('alex@example.com');

    // Importing the same export again adds nothing.
    const again = await pie(['--db', db, 'ingest', CLAUDE, '--json']);
    expect(again.code).toBe(0);
    expect(rows(db, 'SELECT id FROM episodes')).toHaveLength(4);
  });

  it('a near name across sources is not merged silently: it is left for review', async () => {
    const db = join(dir, 'near.db');
    const gpt = join(dir, 'near-gpt.json');
    chatgptExport(gpt, "I'm building Tidepool, an app that helps research labs keep their notes.", 1_735_000_000);
    const claude = join(dir, 'near-claude');
    mkdirSync(claude);
    for (const file of ['conversations.json', 'projects.json', 'memories.json']) {
      const text = readFileSync(join(CLAUDE, file), 'utf8').replace(/Tidepool/g, 'Tide Pool Notes');
      writeFileSync(join(claude, file), text);
    }
    expect((await pie(['--db', db, 'ingest', gpt])).code).toBe(0);
    expect((await pie(['--db', db, 'ingest', claude])).code).toBe(0);
    const names = rows<{ name: string }>(db, "SELECT name FROM entities WHERE type = 'project' ORDER BY name");
    expect(names.map((n) => n.name)).toEqual(['Tide Pool Notes', 'Tidepool']);
    const preview = await pie(['--db', db, 'sleep', '--dry-run']);
    // The pair in either order (which one is named first depends on their ids).
    expect(preview.stdout).toMatch(
      /Left for review: "(?:Tidepool" \/ "Tide Pool Notes|Tide Pool Notes" \/ "Tidepool)"/,
    );
  });
});
