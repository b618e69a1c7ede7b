import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';
import { openAiResponsesReply } from '../helpers/llm.js';

/**
 * Redaction before any cloud call, end to end: `pie ingest` with an OpenAI model whose server is a loopback stand-in
 * (OPENAI_BASE_URL). The recorded requests hold none of the planted secrets and personal data, only placeholders;
 * the stand-in answers with a placeholder, and the world model keeps the real value.
 */
const PLANTED = {
  key: 'sk-proj-9fKx2LmQ7pRt4VwZ8bNc3HdJ6',
  password: 'Tr0ub4dor&3x',
  email: 'maya.chen@umd.edu',
  phone: '+1 415 555 0132',
  card: '4111 1111 1111 1111',
  address: '742 Evergreen Terrace',
};

let server: Server;
let baseUrl: string;
const bodies: string[] = [];
let dir: string;
let cleanup: () => void;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-redact-'));
  server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      // Answer as a model would: Maya, with the email as the prompt showed it (a placeholder).
      const email = /⟦EMAIL_\d+⟧/.exec(body)?.[0] ?? 'none';
      const extraction = {
        entities: [{ name: 'Maya Chen', type: 'person', state: { email } }],
        summary: 'Notes about Maya.',
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(openAiResponsesReply({ text: JSON.stringify(extraction), inputTokens: 100, outputTokens: 20 })),
      );
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  cleanup();
});

describe('redaction before a cloud call', () => {
  it('sends placeholders, never the planted values, and keeps the real values in the world model', async () => {
    const notes = join(dir, 'notes.md');
    writeFileSync(
      notes,
      [
        '# Maya',
        '',
        `Met Maya Chen today; her email is ${PLANTED.email} and her phone ${PLANTED.phone}.`,
        `She lives at ${PLANTED.address}. I paid with ${PLANTED.card}.`,
        `Staging key for Tidepool: ${PLANTED.key} and the admin password is ${PLANTED.password}`,
        '',
      ].join('\n'),
    );
    const db = join(dir, 'pie.db');
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl, PIE_NOW: '2025-06-01' };
    const r = await pie(['--db', db, 'ingest', notes, '--llm', 'openai:gpt-5-mini', '--consolidate-every', '0'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(bodies.length).toBeGreaterThan(0);
    const sent = bodies.join('\n');
    for (const [what, value] of Object.entries(PLANTED)) expect(sent, what).not.toContain(value);
    // The placeholders went instead, and the notes' other words still reached the model.
    expect(sent).toMatch(/⟦EMAIL_1⟧/);
    expect(sent).toMatch(/⟦SECRET_\d⟧/);
    expect(sent).toContain('Maya Chen');
    const d = new Database(db, { readonly: true });
    try {
      const maya = d.prepare("SELECT state FROM entities WHERE name = 'Maya Chen'").get() as { state: string };
      expect(JSON.parse(maya.state)).toMatchObject({ email: PLANTED.email });
    } finally {
      d.close();
    }
  }, 60_000);

  it('--dry-run says what would be replaced, masked, and sends nothing', async () => {
    bodies.length = 0;
    const notes = join(dir, 'dry.md');
    writeFileSync(
      notes,
      `# Keys\n\nMail ${PLANTED.email} or bo@example.org; key ${PLANTED.key}; card ${PLANTED.card}.\n`,
    );
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl, PIE_NOW: '2025-06-03' };
    const r = await pie(['--db', join(dir, 'dry.db'), 'ingest', notes, '--llm', 'openai:gpt-5-mini', '--dry-run'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'Redaction for openai:gpt-5-mini: 2 email addresses (ma…du, bo…rg), 1 secret (sk-…), 1 card number (41…11) would be replaced by placeholders before anything is sent.',
    );
    for (const value of [PLANTED.email, PLANTED.key, PLANTED.card]) expect(r.stdout).not.toContain(value);
    expect(bodies).toEqual([]);
    const local = await pie(
      ['--db', join(dir, 'dry2.db'), 'ingest', notes, '--llm', 'ollama:qwen2.5:14b', '--dry-run'],
      {
        PIE_NOW: '2025-06-03',
      },
    );
    expect(local.stdout).toContain('Redaction: off for ollama:qwen2.5:14b (a local model, or PIE_REDACT=off)');
  }, 60_000);

  it('PIE_REDACT=off sends the text as written (the user chose so)', async () => {
    bodies.length = 0;
    const notes = join(dir, 'plain.md');
    writeFileSync(notes, `# Bo\n\nBo's email is bo@example.org.\n`);
    const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseUrl, PIE_NOW: '2025-06-02', PIE_REDACT: 'off' };
    const r = await pie(
      ['--db', join(dir, 'off.db'), 'ingest', notes, '--llm', 'openai:gpt-5-mini', '--consolidate-every', '0'],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(bodies.join('\n')).toContain('bo@example.org');
  }, 60_000);
});
