import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pie, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * A history for the forget tests, ingested with a scripted model (so the model cache holds answers too): one
 * conversation holds a planted secret and names Tidepool and Maya Chen; two others name Tidepool and Supabase.
 */
export const PLANTED = 'zq-forget-7731';
/** One full-text token (no punctuation): the index stores it whole, so its segments can be searched for it. */
export const TOKEN = 'xylo7731quux';
export const NOW = '2025-06-01';
export const SECRET_ID = 'jsonl:c-secret';
export const SECRET_TITLE = `Vault ${PLANTED}`;

const HISTORY = [
  {
    id: 'c-secret',
    title: SECRET_TITLE,
    created_at: '2024-09-10T15:00:00Z',
    messages: [
      {
        role: 'user',
        content: `I'm building Tidepool with Maya Chen. Our vault code is ${PLANTED}, backup token ${TOKEN}, and Ravi keeps it.`,
        time: '2024-09-10T15:00:00Z',
      },
      { role: 'assistant', content: `Noted: ${PLANTED} stays with Ravi.`, time: '2024-09-10T15:00:30Z' },
    ],
  },
  {
    id: 'c-launch',
    title: 'Tidepool launch',
    created_at: '2024-11-06T18:00:00Z',
    messages: [
      { role: 'user', content: 'We launched Tidepool today. I decided to use Supabase.', time: '2024-11-06T18:00:00Z' },
    ],
  },
  {
    id: 'c-costs',
    title: 'Hosting costs',
    created_at: '2025-01-15T09:00:00Z',
    messages: [{ role: 'user', content: 'Supabase costs went up this month.', time: '2025-01-15T09:00:00Z' }],
  },
];

/** Rules are tried in order: the later batches' preambles quote what came before, so the specific ones lead. */
const MODEL = {
  prompts: {
    'extract-batch@3': [
      {
        contains: 'We launched Tidepool today',
        response: {
          entities: [
            { name: 'Tidepool', type: 'project', state: { stage: 'launched' } },
            { name: 'Supabase', type: 'tool', state: { status: 'adopted' } },
          ],
          relationships: [{ source: 'Tidepool', target: 'Supabase', type: 'USES' }],
          summary: 'Tidepool launched on Supabase.',
        },
      },
      {
        contains: 'Supabase costs went up',
        response: {
          entities: [{ name: 'Supabase', type: 'tool', state: { cost: 'higher' } }],
          summary: 'Supabase got more expensive.',
        },
      },
      {
        contains: PLANTED,
        response: {
          entities: [
            { name: 'Tidepool', type: 'project', state: { stage: 'building', code: PLANTED } },
            { name: 'Maya Chen', type: 'person', state: { role: 'co-founder' } },
            { name: SECRET_TITLE, type: 'concept', state: { holder: 'Ravi' } },
          ],
          relationships: [{ source: 'Maya Chen', target: 'Tidepool', type: 'WORKS_ON' }],
          summary: `Vault code ${PLANTED} is kept by Ravi.`,
          observations: [{ text: `The vault code is ${PLANTED}.`, importance: 8 }],
        },
      },
    ],
    'verify-entity@1': [{ response: { same: false, reason: 'different things' } }],
  },
};

export interface PlantedWorld {
  dir: string;
  db: string;
  run(args: string[]): ReturnType<typeof pie>;
  cleanup(): void;
}

/** A fresh database holding the history above, extracted by the scripted model. */
export async function plantedWorld(): Promise<PlantedWorld> {
  const { dir, cleanup } = tempDir('pie-forget-');
  const db = join(dir, 'pie.db');
  const history = join(dir, 'history.jsonl');
  writeFileSync(history, HISTORY.map((c) => JSON.stringify(c)).join('\n'));
  const script = join(dir, 'model.json');
  writeFileSync(script, JSON.stringify(MODEL));
  const run = (args: string[]) => pie(['--db', db, '--now', NOW, ...args]);
  const ingested = await run(['ingest', history, '--llm', `fake:${script}`]);
  if (ingested.code !== 0) throw new Error(`ingest failed: ${ingested.stderr}`);
  return { dir, db, run, cleanup };
}

/** Every table's row count, the full-text indexes' own tables included. */
export function tableCounts(db: string): Record<string, number> {
  const names = rows<{ name: string }>(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  return Object.fromEntries(
    names.map(({ name }) => [name, rows<{ n: number }>(db, `SELECT count(*) AS n FROM "${name}"`)[0]?.n ?? 0]),
  );
}

/** The raw bytes of the database file and of its -wal and -shm files (those that exist), by file. */
export function fileBytes(db: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const file of [db, `${db}-wal`, `${db}-shm`]) if (existsSync(file)) files.set(file, readFileSync(file));
  return files;
}

/** The files whose raw bytes hold `text`. */
export function filesHolding(db: string, text: string): string[] {
  return [...fileBytes(db)].filter(([, bytes]) => bytes.includes(text)).map(([file]) => file);
}

/** Whether the segments of a full-text index (its `_data` table) hold `token`. */
export function ftsSegmentsHold(db: string, table: string, token: string): boolean {
  return rows<{ block: Buffer }>(db, `SELECT block FROM ${table}_data`).some((r) => r.block.includes(token));
}

/** Keeps a connection open, so the -wal and -shm files stay on disk after each `pie` run closes its own. */
export function holdOpen(db: string): { close(): void } {
  const conn = new Database(db);
  conn.pragma('journal_mode = WAL');
  return { close: () => conn.close() };
}
