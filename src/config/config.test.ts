import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDbPath, loadConfig } from './config.js';

describe('configuration', () => {
  it('database: flag, then PIE_DB, then PIE_HOME/pie.db, then ~/.pie/pie.db', () => {
    expect(loadConfig({ flags: { db: 'x.db', tz: 'UTC' }, env: { PIE_DB: '/y.db' } }).dbPath).toBe(resolve('x.db'));
    expect(defaultDbPath({ PIE_DB: '/y.db', PIE_HOME: '/h' })).toBe('/y.db');
    expect(defaultDbPath({ PIE_HOME: '/h' })).toBe(join('/h', 'pie.db'));
    expect(defaultDbPath({})).toBe(join(homedir(), '.pie', 'pie.db'));
  });

  it('now: flag over PIE_NOW, read in the configured zone; null means the clock', () => {
    const c = loadConfig({ flags: { now: '2025-01-01', tz: 'Europe/Berlin' }, env: { PIE_NOW: '2020-01-01' } });
    expect(c.now).toBe(Date.UTC(2024, 11, 31, 23));
    expect(loadConfig({ flags: { tz: 'UTC' }, env: { PIE_NOW: '2020-01-01' } }).now).toBe(Date.UTC(2020, 0, 1));
    expect(loadConfig({ flags: { tz: 'UTC' }, env: {} }).now).toBeNull();
  });

  it('rejects a bad zone or date with one sentence naming the flag', () => {
    expect(() => loadConfig({ flags: { tz: 'Mars/Olympus' }, env: {} })).toThrow(/Unknown time zone "Mars\/Olympus"/);
    expect(() => loadConfig({ flags: { tz: 'UTC', now: 'soon' }, env: {} })).toThrow(/--now "soon" is not a date/);
    expect(() => loadConfig({ flags: { tz: 'UTC' }, env: { PIE_NOW: 'soon' } })).toThrow(/PIE_NOW "soon"/);
    // An empty variable is unset (a shell convention); an empty --now was typed and is refused, not the clock.
    expect(loadConfig({ flags: { tz: 'UTC' }, env: { PIE_NOW: '' } }).now).toBeNull();
    expect(() => loadConfig({ flags: { tz: 'UTC', now: '' }, env: {} })).toThrow(/--now "" is not a date/);
    expect(() => loadConfig({ flags: { tz: 'UTC', now: '  ' }, env: {} })).toThrow(/--now " {2}" is not a date/);
  });
});

describe('database URLs', () => {
  it('refuses URLs of other databases in one sentence', () => {
    expect(() => loadConfig({ flags: {}, env: { PIE_DB: 'mysql://h/db' } })).toThrow(
      /PIE_DB "mysql:\/\/h\/db" is a mysql URL/,
    );
  });
  it.each([
    [{ db: 'postgres://user:secret@host:5432/pie' }, {}],
    [{}, { PIE_DB: 'postgresql://user:secret@host:5432/pie' }],
  ])('select PostgreSQL for a postgres URL, keeping the credentials out of dbPath: %j %j', (flags, env) => {
    const config = loadConfig({ flags, env });
    expect(config.dbUrl).toMatch(/^postgres(ql)?:\/\/user:secret@host:5432\/pie$/);
    expect(config.dbPath).not.toContain('secret');
    expect(config.dbPath).toContain('host:5432/pie');
  });
  it('--db wins over PIE_DB, and a path keeps SQLite', () => {
    const config = loadConfig({ flags: { db: 'memory.db' }, env: { PIE_DB: 'postgres://h/db' } });
    expect(config.dbUrl).toBeUndefined();
    expect(config.dbPath).toMatch(/memory\.db$/);
  });
  it('a path with a colon that is not a URL is still a path', () => {
    expect(loadConfig({ flags: { db: 'dir/with:colon.db' }, env: {} }).dbPath).toMatch(/dir\/with:colon\.db$/);
  });
});
