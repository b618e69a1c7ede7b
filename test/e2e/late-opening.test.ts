import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * Extracting out of date order: the 2025 conversation where the user quit Door Dash is read first, the 2023 one
 * where they worked there comes later. The old job must stay history ending at the quitting, as it does when the
 * two are read in date order; it had been opened again, so the memory said they still worked there.
 */
let dir: string;
let cleanup: () => void;
const line = (conversation: string, title: string, text: string, time: string) =>
  `${JSON.stringify({ conversation, title, role: 'user', text, time })}\n`;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  writeFileSync(
    join(dir, 'late.jsonl'),
    line(
      'c2',
      'Job news',
      "I quit my job at Door Dash last week. I'm looking for something new now.",
      '2025-03-10T10:00:00Z',
    ),
  );
  writeFileSync(
    join(dir, 'early.jsonl'),
    line('c1', 'Work', 'I work at Door Dash as a driver. The shifts are long.', '2023-05-02T10:00:00Z'),
  );
  for (const [db, files] of [
    ['late.db', ['late.jsonl', 'early.jsonl']],
    ['once.db', ['early.jsonl', 'late.jsonl']],
  ] as const) {
    for (const f of files) {
      const r = await pie(['--db', join(dir, db), 'ingest', join(dir, f)]);
      if (r.code !== 0) throw new Error(r.stderr);
    }
  }
}, 120_000);
afterAll(() => cleanup());

const worksAt = (db: string) =>
  rows<{ role: string | null; validFrom: number; validTo: number | null }>(
    join(dir, db),
    `SELECT json_extract(r.properties, '$.role') AS role, r.valid_from AS validFrom, r.valid_to AS validTo
       FROM relationships r JOIN entities t ON t.id = r.target_id
      WHERE r.type = 'WORKS_AT' AND t.name = 'Door Dash' ORDER BY r.valid_from`,
  );

describe('an edge told late from before its recorded ending', () => {
  it('stays closed history: no job at Door Dash is open, read in date order or not', () => {
    const inOrder = worksAt('once.db');
    expect(inOrder.length).toBeGreaterThan(0);
    expect(inOrder.filter((r) => r.validTo === null)).toEqual([]);
    const late = worksAt('late.db');
    expect(late.filter((r) => r.validTo === null)).toEqual([]);
    // The driver job held from 2023 until the quitting, whichever came first.
    const driver = late.find((r) => r.role === 'driver');
    expect(driver).toMatchObject({ validFrom: inOrder[0]?.validFrom, validTo: inOrder[0]?.validTo });
    expect(late.every((r) => r.validTo === null || r.validTo >= r.validFrom)).toBe(true);
  });
});
