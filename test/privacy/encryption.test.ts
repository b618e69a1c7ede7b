import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, pieJson, tempDir } from '../helpers/cli.js';

/**
 * Encryption at rest (issue 17, part 2): a database opened with PIE_DB_KEY is encrypted page by page, cannot be read
 * without its key, and converts both ways (and to a new key) without ever being left half-converted.
 */
const PLANTED = 'zq-encrypt-5521';
const KEY = 'correct horse battery staple';
let dir: string;
let cleanup: () => void;
let chat: string;
beforeAll(() => {
  ({ dir, cleanup } = tempDir());
  chat = join(dir, 'chat.jsonl');
  writeFileSync(
    chat,
    `${JSON.stringify({
      id: 'c1',
      title: 'Moving',
      created_at: '2024-05-01T10:00:00Z',
      messages: [{ role: 'user', content: `I moved to Boston with Maya. My locker code is ${PLANTED}.` }],
    })}\n`,
  );
});
afterAll(() => cleanup());

/** The bytes of the database and its WAL, as one buffer. */
function fileBytes(db: string): Buffer {
  return Buffer.concat([db, `${db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
}
const header = (db: string) => readFileSync(db).subarray(0, 16).toString('latin1');

/** What the memory holds (not where or how big the file is). */
async function counts(db: string, env: Record<string, string>) {
  const s = await pieJson<Record<string, unknown>>(['--db', db, 'stats'], env);
  return { episodes: s.episodes, turns: s.turns, entities: s.entities, transitions: s.transitions, facts: s.facts };
}

describe('encryption at rest', () => {
  it('a database created with a key holds no plain text, and opens only with that key', async () => {
    const db = join(dir, 'keyed.db');
    const env = { PIE_DB_KEY: KEY };
    expect((await pie(['--db', db, 'ingest', chat], env)).code).toBe(0);
    expect(header(db)).not.toBe('SQLite format 3\u0000');
    expect(fileBytes(db).includes(PLANTED)).toBe(false);
    expect(fileBytes(db).includes('Boston')).toBe(false);
    expect((await pie(['--db', db, 'stats'], env)).stdout).toMatch(/^Database: .*keyed\.db \(encrypted\)$/m);
    const found = await pie(['--db', db, 'search', 'locker code'], env);
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(PLANTED);

    const none = await pie(['--db', db, 'stats']);
    expect(none.code).toBe(5);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/is encrypted .*set PIE_DB_KEY or PIE_DB_KEY_FILE/);
    const wrong = await pie(['--db', db, 'stats'], { PIE_DB_KEY: 'not the key' });
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toMatch(/does not open/);
  });

  it('encrypts a plain database in place, re-keys it and decrypts it, with the same rows each time', async () => {
    const db = join(dir, 'plain.db');
    expect((await pie(['--db', db, 'ingest', chat])).code).toBe(0);
    const before = await counts(db, {});
    expect(fileBytes(db).includes(PLANTED)).toBe(true);

    const keyFile = join(dir, 'key.txt');
    writeFileSync(keyFile, `${KEY}\n`);
    const enc = await pie(['--db', db, 'encrypt'], { PIE_DB_KEY_FILE: keyFile });
    expect(enc.code, enc.stderr).toBe(0);
    expect(enc.stdout).toMatch(/^Encrypted .* rows in \d+ tables checked/);
    expect(fileBytes(db).includes(PLANTED)).toBe(false);
    expect(await counts(db, { PIE_DB_KEY: KEY })).toEqual(before);
    // Encrypting twice is refused with what to do instead.
    const again = await pie(['--db', db, 'encrypt'], { PIE_DB_KEY: KEY });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already encrypted.*--new-key-file/);

    const newKey = join(dir, 'new-key.txt');
    writeFileSync(newKey, 'a second, longer key\n');
    expect((await pie(['--db', db, 'encrypt', '--new-key-file', newKey], { PIE_DB_KEY: KEY })).code).toBe(0);
    expect((await pie(['--db', db, 'stats'], { PIE_DB_KEY: KEY })).code).toBe(5);
    expect(await counts(db, { PIE_DB_KEY: 'a second, longer key' })).toEqual(before);

    const dec = await pie(['--db', db, 'decrypt'], { PIE_DB_KEY: 'a second, longer key' });
    expect(dec.code, dec.stderr).toBe(0);
    expect(header(db)).toBe('SQLite format 3\u0000');
    expect(await counts(db, {})).toEqual(before);
    expect(readdirSync(dir).filter((f) => f.includes('.converting-'))).toEqual([]);
  });

  it('refuses to convert while another process has the database open, and changes nothing', async () => {
    const db = join(dir, 'busy.db');
    expect((await pie(['--db', db, 'ingest', chat])).code).toBe(0);
    const before = readFileSync(db);
    const other = new Database(db);
    try {
      other.pragma('journal_mode = WAL');
      other.prepare('SELECT count(*) FROM episodes').get();
      const r = await pie(['--db', db, 'encrypt'], { PIE_DB_KEY: KEY });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/Another process has .* open/);
    } finally {
      other.close();
    }
    expect(header(db)).toBe('SQLite format 3\u0000');
    expect(readFileSync(db).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.includes('.converting-'))).toEqual([]);
  });

  it('a backup of an encrypted memory restores into a new encrypted database, and a sleep runs on it', async () => {
    const db = join(dir, 'keyed.db');
    const env = { PIE_DB_KEY: KEY };
    const backup = join(dir, 'keyed.jsonl.gz');
    const written = await pie(['--db', db, 'backup', backup], env);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('encrypted with the database key');
    // The backup is encrypted too: no plain text, no gzip stream to open without the key.
    expect(readFileSync(backup).includes(PLANTED)).toBe(false);
    expect(readFileSync(backup).subarray(0, 8).toString('latin1')).toBe('PIEBAK1\n');
    const nokey = await pie(['--db', join(dir, 'nokey.db'), 'restore', backup]);
    expect(nokey.code).toBe(5);
    expect(nokey.stderr).toMatch(/backup .* is encrypted; set PIE_DB_KEY/);
    const wrongKey = await pie(['--db', join(dir, 'wrongkey.db'), 'restore', backup], { PIE_DB_KEY: 'nope' });
    expect(wrongKey.code).toBe(5);
    expect(wrongKey.stderr).toMatch(/does not open the backup/);
    expect(existsSync(join(dir, 'nokey.db')) || existsSync(join(dir, 'wrongkey.db'))).toBe(false);
    // An altered byte fails the authentication at the end: the restore changes nothing.
    const altered = join(dir, 'altered.jsonl.gz');
    const bytes = readFileSync(backup);
    bytes[bytes.length - 40] = (bytes[bytes.length - 40] ?? 0) ^ 0xff;
    writeFileSync(altered, bytes);
    const bad = await pie(['--db', join(dir, 'altered.db'), 'restore', altered], env);
    expect(bad.code).not.toBe(0);
    expect(existsSync(join(dir, 'altered.db'))).toBe(false);
    // --plain writes a readable backup when asked.
    const plain = join(dir, 'plain-copy.jsonl');
    expect((await pie(['--db', db, 'backup', plain, '--plain'], env)).code).toBe(0);
    expect(readFileSync(plain, 'utf8')).toContain(PLANTED);
    const copy = join(dir, 'restored.db');
    const restored = await pie(['--db', copy, 'restore', backup], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(fileBytes(copy).includes(PLANTED)).toBe(false);
    expect(await counts(copy, env)).toEqual(await counts(db, env));
    const sleep = await pie(['--db', copy, 'sleep'], env);
    expect(sleep.code, sleep.stderr).toBe(0);
    expect(fileBytes(copy).includes(PLANTED)).toBe(false);
  });

  it('forgetting on an encrypted memory compacts it and keeps it encrypted', async () => {
    const db = join(dir, 'restored.db');
    const env = { PIE_DB_KEY: KEY };
    const r = await pie(['--db', db, 'forget', 'Moving', '--kind', 'conversation', '--yes'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(header(db)).not.toBe('SQLite format 3\u0000');
    expect((await counts(db, env)).episodes).toBe(0);
    expect((await pie(['--db', db, 'stats'])).code).toBe(5);
  });

  it('reads the key file, and says which setting is wrong', async () => {
    const db = join(dir, 'keyed.db');
    const missing = await pie(['--db', db, 'stats'], { PIE_DB_KEY_FILE: join(dir, 'nope.txt') });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/PIE_DB_KEY_FILE .*nope\.txt does not exist/);
    const both = await pie(['--db', db, 'stats'], { PIE_DB_KEY: KEY, PIE_DB_KEY_FILE: join(dir, 'key.txt') });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/keep one of them/);
    const decryptPlain = await pie(['--db', join(dir, 'busy.db'), 'decrypt'], { PIE_DB_KEY: KEY });
    expect(decryptPlain.code).toBe(2);
    expect(decryptPlain.stderr).toMatch(/is not encrypted/);
  });
});
