import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Two features crossed: where a speaker has been (the offline travel rule) and a full sleep. Both speakers and both
 * places come up in all three sessions, so the sleep's micro dreams link co-mentioned pairs; the visit the extractor
 * read must stay one VISITED edge (no RELATED_TO beside it), a place only wished for gets no visit, and a context
 * built after the sleep shows the visit before the dreamt links.
 */
const SESSIONS: [string, string][][] = [
  [
    ['Maria', 'Last year I took a solo trip and took this pic in Spain.'],
    ['John', 'Spain looks amazing! I want to visit Paris someday though.'],
  ],
  [
    ['Maria', 'I still think about Spain, the food there was so good.'],
    ['John', 'Paris is still on my list, I hope to go next year.'],
  ],
  [
    ['Maria', "Spain reminded me that life is hard but there's still hope."],
    ['John', "I keep reading about Paris, I'd love to go."],
  ],
];

function locomoFile(path: string): void {
  const conversation: Record<string, unknown> = { speaker_a: 'Maria', speaker_b: 'John' };
  SESSIONS.forEach((turns, i) => {
    conversation[`session_${i + 1}_date_time`] = `1:00 pm on ${i + 1} May, 2023`;
    conversation[`session_${i + 1}`] = turns.map(([speaker, text], j) => ({
      speaker,
      dia_id: `D${i + 1}:${j + 1}`,
      text,
    }));
  });
  writeFileSync(path, JSON.stringify([{ sample_id: 'travel-1', conversation, qa: [] }]));
}

interface Edge {
  source: string;
  type: string;
  target: string;
  discovered: string | null;
}

describe('a visit read from the talk, after a sleep', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-06-01', ...args];
  const edges = () =>
    rows<Edge>(
      db,
      `SELECT s.name AS source, r.type AS type, t.name AS target, r.discovered_by AS discovered
         FROM relationships r JOIN entities s ON s.id = r.source_id JOIN entities t ON t.id = r.target_id`,
    );
  const between = (a: string, b: string) =>
    edges().filter((e) => (e.source === a && e.target === b) || (e.source === b && e.target === a));

  beforeAll(async () => {
    dir = tempDir('pie-travel-sleep-');
    db = join(dir.dir, 'pie.db');
    const file = join(dir.dir, 'travel.json');
    locomoFile(file);
    const ingested = await pie(cli(['ingest', file, '--format', 'locomo', '--extractor', 'offline']));
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('reads the visit, and no visit to a place only wished for', async () => {
    expect(between('Maria', 'Spain').map((e) => e.type)).toEqual(['VISITED']);
    expect(between('John', 'Paris')).toEqual([]);
    const entity = await pie(cli(['entity', 'Maria']));
    expect(entity.stdout).toMatch(/VISITED → Spain \(by \d+ \w+ 2022\)/);
  });

  it('a full sleep links co-mentioned pairs but adds nothing beside the visit', async () => {
    const slept = await pie(cli(['sleep', '--scope', 'full']));
    expect(slept.code, slept.stderr).toBe(0);
    // The dreams ran over these sessions (John and Paris, named together three times, are linked now) …
    expect(between('John', 'Paris').map((e) => [e.type, e.discovered])).toEqual([['RELATED_TO', 'micro-dream']]);
    // … and the pair the talk already linked keeps its one typed edge.
    expect(between('Maria', 'Spain').map((e) => [e.type, e.discovered])).toEqual([['VISITED', null]]);
  });

  it('a snapshot of a day before the sleep, made after it, has no dreamt link; from the sleep on it has', async () => {
    // John and Paris are named together on 1, 2 and 3 May; the sleep of 1 June linked them. Before that day the
    // memory did not know the link (a sleep changes no snapshot of the past), even once the third session was in.
    for (const at of ['2023-05-02', '2023-05-03', '2023-05-31']) {
      const before = await pie(cli(['snapshot', '--at', at]), { PIE_TZ: 'UTC' });
      expect(before.code, before.stderr).toBe(0);
      expect(before.stdout).toContain('John (person)');
      expect(before.stdout).not.toContain('RELATED_TO');
    }
    const after = await pie(cli(['snapshot', '--at', '2023-06-01']), { PIE_TZ: 'UTC' });
    expect(after.stdout).toMatch(/RELATED_TO Paris \(coMentions: 3[^\n]*since 1 June 2023/);
  });

  it('a context after the sleep shows the visit before the links the sleep dreamt', async () => {
    const asked = await pie(
      cli(['ask', '--context-only', '--context-tokens', '1000', 'Which countries has Maria been to?']),
    );
    expect(asked.code, asked.stderr).toBe(0);
    const text = asked.stdout;
    expect(text).toContain('↔ Maria VISITED Spain, by');
    // A dreamt link's direction follows the entities' ids, so either end may come first.
    const dreamt = /↔ (?:\w+ RELATED_TO Maria|Maria RELATED_TO \w+)/;
    expect(text).toMatch(dreamt);
    expect(text.indexOf('↔ Maria VISITED Spain')).toBeLessThan(text.search(dreamt));
  });
});
