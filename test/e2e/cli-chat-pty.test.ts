import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, PIE_COMMAND, ROOT, SAMPLE, tempDir } from '../helpers/cli.js';

/**
 * `pie chat` on a real pseudo-terminal (util-linux `script` allocates it): the prompt, line editing through Node's
 * readline, Ctrl-C on an empty line saying how to leave instead of killing the session, Ctrl-D leaving, and the
 * history kept beside the database, readable by its owner only.
 */
const SCRIPT = '/usr/bin/script';
let dir: string;
let cleanup: () => void;
let db: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-chat-pty-'));
  db = join(dir, 'pie.db');
  const r = await pie(['--db', db, '--now', '2025-11-01', 'ingest', SAMPLE, '--extractor', 'offline']);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(() => cleanup());

describe.skipIf(!existsSync(SCRIPT))('pie chat on a terminal', () => {
  it('prompts, answers, survives Ctrl-C, leaves on Ctrl-D and keeps the history private', async () => {
    const command = [...PIE_COMMAND, '--db', db, '--now', '2025-11-01', 'chat']
      .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
      .join(' ');
    const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir, PIE_TZ: 'UTC', TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    const waitFor = async (text: string, from: number): Promise<number> => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const at = out.indexOf(text, from);
        if (at >= 0) return at + text.length;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`"${text}" never appeared; output so far:\n${out}`);
    };
    let at = await waitFor('you › ', 0);
    expect(out).toContain('PIE chat on');
    child.stdin.write('What is Tidepool?\r');
    at = await waitFor('[asked]', at);
    at = await waitFor('you › ', at);
    child.stdin.write('\u0003');
    await waitFor('(Ctrl-D or /quit leaves)', at);
    child.stdin.write('\u0004');
    expect(await exited).toBe(0);
    const history = join(dir, 'chat-history');
    expect(readFileSync(history, 'utf8')).toContain('What is Tidepool?');
    expect(statSync(history).mode & 0o777).toBe(0o600);
  }, 90_000);
});
