import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * Two people who talk with each other know each other: a chat log between Jon and Gina links them with one KNOWS
 * edge, dated from their first conversation, however many sessions follow and whoever opens them. The edge is
 * background to most questions about either: the compiled context shows it when the question asks who knows whom,
 * not whenever it names both.
 */
let dir: string;
let cleanup: () => void;
let db: string;

const line = (conversation: string, speaker: string, text: string, time: string) =>
  JSON.stringify({ conversation, title: `Jon & Gina ${conversation}`, role: 'user', speaker, text, time });

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-acquaintance-'));
  db = join(dir, 'pie.db');
  const file = join(dir, 'chat.jsonl');
  writeFileSync(
    file,
    [
      line('s1', 'Jon', 'Hey Gina! I lost my job at the bank last week.', '2023-01-20T10:00:00Z'),
      line('s1', 'Gina', 'Oh no, Jon. I opened my own clothing store online.', '2023-01-20T10:01:00Z'),
      line('s2', 'Gina', 'My store got its first hundred orders!', '2023-02-03T10:00:00Z'),
      line('s2', 'Jon', 'Your hard work is paying off, Gina.', '2023-02-03T10:01:00Z'),
    ].join('\n'),
  );
  const r = await pie(['--db', db, 'ingest', file, '--extractor', 'offline'], { PIE_NOW: '2023-03-01' });
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(() => cleanup());

describe('people who talk with each other', () => {
  it('are linked once, from their first conversation', async () => {
    const r = await pie(['--db', db, '--json', 'entity', 'Gina']);
    expect(r.code, r.stderr).toBe(0);
    const { relationships } = JSON.parse(r.stdout) as {
      relationships: { relationship: { type: string; validFrom: number }; other: { name: string } }[];
    };
    const knows = relationships.filter((x) => x.relationship.type === 'KNOWS');
    expect(knows.map((x) => x.other.name)).toEqual(['Jon']);
    expect(new Date(knows[0]?.relationship.validFrom ?? 0).toISOString().slice(0, 10)).toBe('2023-01-20');
  });

  it('show the link when the question asks who knows whom, not whenever it names both', async () => {
    const ask = (q: string) => pie(['--db', db, '--now', '2023-03-01', 'ask', q, '--context-only']);
    const friends = await ask('How long have Jon and Gina been friends?');
    expect(friends.code, friends.stderr).toBe(0);
    // Known by their first conversation: they may have known each other long before.
    expect(friends.stdout).toContain('Gina KNOWS Jon, as of ');
    const store = await ask("What did Jon say about Gina's store?");
    expect(store.code, store.stderr).toBe(0);
    expect(store.stdout).toContain('hard work is paying off');
    expect(store.stdout).not.toContain('KNOWS');
  });
});
