import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * A 2023 conversation, a 2025 one that changes what it said, then the 2023 conversation again with a turn added (a
 * ChatGPT conversation continued and exported again): its values are history already recorded. They had been
 * recorded a second time ("Rust status adopted" twice, a millisecond apart).
 */
let dir: string;
let cleanup: () => void;
const db = () => join(dir, 'pie.db');
const late = () => join(dir, 'late.db');
const line = (conversation: string, title: string, text: string, time: string) =>
  `${JSON.stringify({ conversation, title, role: 'user', text, time })}\n`;
const early = line('c1', 'Rust', 'I switched to Rust for my side project. It is great.', '2023-05-02T10:00:00Z');

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  writeFileSync(join(dir, 'early.jsonl'), early);
  writeFileSync(
    join(dir, 'late.jsonl'),
    line('c2', 'Rust again', 'I dropped Rust. I switched to Go for the side project.', '2025-03-10T10:00:00Z'),
  );
  writeFileSync(
    join(dir, 'continued.jsonl'),
    early + line('c1', 'Rust', 'Also I bought a new keyboard.', '2023-05-02T11:00:00Z'),
  );
  for (const [file, order] of [
    [db(), ['early.jsonl', 'late.jsonl', 'continued.jsonl']],
    [late(), ['late.jsonl', 'early.jsonl', 'continued.jsonl']],
  ] as const) {
    for (const f of order) {
      const r = await pie(['--db', file, 'ingest', join(dir, f)]);
      if (r.code !== 0) throw new Error(r.stderr);
    }
  }
}, 120_000);
afterAll(() => cleanup());

describe('an older conversation extracted again after a later one changed what it said', () => {
  it('records its history once, and what is new in it', () => {
    const facts = rows<{ name: string; attribute: string; value: string; open: number }>(
      db(),
      `SELECT e.name, f.attribute, f.value, f.valid_to IS NULL AS open FROM facts f JOIN entities e ON e.id = f.entity_id
        WHERE e.name = 'Rust' OR f.attribute = 'latest_event' ORDER BY e.name, f.attribute, f.valid_from`,
    );
    expect(facts).toEqual([
      { name: 'Rust', attribute: 'category', value: '"language"', open: 1 },
      { name: 'Rust', attribute: 'status', value: '"adopted"', open: 0 },
      { name: 'Rust', attribute: 'status', value: '"dropped"', open: 1 },
      { name: 'User', attribute: 'latest_event', value: '"bought a new keyboard"', open: 1 },
    ]);
  });

  it('out of date order too: no fact and no relationship is recorded twice', () => {
    for (const file of [db(), late()]) {
      const twice = (table: string, columns: string) =>
        rows<{ n: number }>(
          file,
          `SELECT count(*) AS n FROM (SELECT ${columns} FROM ${table} GROUP BY ${columns} HAVING count(*) > 1)`,
        )[0]?.n;
      expect(twice('facts', 'entity_id, attribute, value, valid_to'), file).toBe(0);
      expect(twice('relationships', 'source_id, type, target_id, properties, valid_to'), file).toBe(0);
    }
  });
});
