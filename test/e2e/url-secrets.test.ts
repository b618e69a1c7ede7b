import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { rows } from '../helpers/db.js';

/**
 * A key written into an --llm URL is never printed or stored (issue 15, item 6): not in the error the user sees, not
 * in ingest_runs or ingest_batches, not in a backup.
 */
const SECRET = 'sk-PLANTED-SECRET-42';
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir()));
afterAll(() => cleanup());

describe('credentials in model URLs', () => {
  it('are stripped from output, the run and batch records and backups', async () => {
    const db = join(dir, 'pie.db');
    const chat = join(dir, 'chat.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      chat,
      `${JSON.stringify({ id: 'c1', title: 'Hi', created_at: '2024-05-01T10:00:00Z', messages: [{ role: 'user', content: 'I moved to Boston.' }] })}\n`,
    );
    // Nothing listens on port 9: the call fails, and the failure is recorded.
    const llm = `openai-compatible:http://user:${SECRET}@127.0.0.1:9/v1?api_key=${SECRET}#model`;
    const r = await pie(['--db', db, 'ingest', chat, '--llm', llm], { PIE_LLM_API_KEY: 'x' });
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(r.stdout + r.stderr).toContain('http://***@127.0.0.1:9/v1');
    const runs = rows<{ options: string }>(db, 'SELECT * FROM ingest_runs');
    const batches = rows<Record<string, unknown>>(db, 'SELECT * FROM ingest_batches');
    expect(runs.length).toBeGreaterThan(0);
    expect(JSON.stringify(runs) + JSON.stringify(batches)).not.toContain(SECRET);
    const backup = join(dir, 'b.jsonl.gz');
    expect((await pie(['--db', db, 'backup', backup])).code).toBe(0);
    expect(gunzipSync(readFileSync(backup)).toString('utf8')).not.toContain(SECRET);
    const bad = await pie(['--db', db, 'ingest', chat, '--llm', `openai-compatible:ftp://u:${SECRET}@h/v1#m`]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain(SECRET);
  });
});
