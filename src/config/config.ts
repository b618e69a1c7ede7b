import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { stripUrlCredentials } from '../domain/secrets.js';
import { PieError } from '../domain/errors.js';
import { selectMemory } from './memory.js';
import { assertTimeZone, parseDateArgument, systemTimeZone } from '../domain/time.js';

/** Everything PIE needs to know before it builds its dependencies (see compose.ts). */
export const configSchema = z.object({
  /** The SQLite file; for a PostgreSQL memory, its URL without credentials (safe to print). */
  dbPath: z.string().min(1),
  /** A PostgreSQL memory's URL as given, credentials included: only for connecting, never printed or stored. */
  dbUrl: z.string().min(1).optional(),
  /** The memory in a PostgreSQL database (`--memory`, PIE_MEMORY; see memory.ts); undefined: the default one. */
  memory: z.string().min(1).optional(),
  /** Fixed reference time (epoch ms), or null for the system clock. */
  now: z.number().nullable(),
  tz: z.string().min(1),
  json: z.boolean(),
});
export type Config = z.infer<typeof configSchema>;

export interface GlobalFlags {
  db?: string | undefined;
  memory?: string | undefined;
  now?: string | undefined;
  tz?: string | undefined;
  json?: boolean | undefined;
}

export type Env = Record<string, string | undefined>;

/** Default database location: $PIE_DB, else $PIE_HOME/pie.db, PIE_HOME defaulting to ~/.pie. */
export function defaultDbPath(env: Env): string {
  if (env.PIE_DB && isPostgresUrl(env.PIE_DB)) return stripUrlCredentials(env.PIE_DB.trim());
  if (env.PIE_DB) return resolve(fileOnly(env.PIE_DB, 'PIE_DB'));
  const home = env.PIE_HOME ? resolve(env.PIE_HOME) : join(homedir(), '.pie');
  return join(home, 'pie.db');
}

function dbLocation(flags: GlobalFlags, env: Env): string {
  if (!flags.db) return defaultDbPath(env);
  return isPostgresUrl(flags.db) ? stripUrlCredentials(flags.db.trim()) : resolve(fileOnly(flags.db, '--db'));
}

/** A PostgreSQL URL (postgres:// or postgresql://) selects the PostgreSQL store; anything else is a SQLite file. */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/**
 * A database URL other than PostgreSQL's (mysql://…) would otherwise be taken as a relative path and create files in
 * a folder named "mysql:". Refused in one sentence.
 */
function fileOnly(value: string, origin: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value.trim());
  if (scheme) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${origin} "${stripUrlCredentials(value)}" is a ${scheme[1]} URL; PIE keeps its memory in a SQLite file or in PostgreSQL (postgres://…); give a file path (for example ~/.pie/pie.db) or a postgres:// URL.`,
    );
  }
  return value;
}

/** The URL of a PostgreSQL memory named by --db or PIE_DB (the flag wins), credentials included; else undefined. */
function postgresUrl(flags: GlobalFlags, env: Env): string | undefined {
  const given = flags.db ?? env.PIE_DB;
  return given !== undefined && given !== '' && isPostgresUrl(given) ? given.trim() : undefined;
}

/**
 * The key of an encrypted database: $PIE_DB_KEY, or the contents of the file $PIE_DB_KEY_FILE (its line break
 * dropped); undefined when neither is set. Kept out of Config so that nothing that prints a configuration holds it.
 */
export function databaseKey(env: Env): string | undefined {
  const direct = env.PIE_DB_KEY;
  const file = env.PIE_DB_KEY_FILE;
  if (direct && file) {
    throw new PieError('INVALID_ARGUMENT', 'Both PIE_DB_KEY and PIE_DB_KEY_FILE are set; keep one of them.');
  }
  if (direct) return direct;
  return file ? readKeyFile(file, 'PIE_DB_KEY_FILE') : undefined;
}

/** A key kept in a file (its one trailing line break dropped); `label` names the file in the errors. */
export function readKeyFile(file: string, label: string): string {
  const path = resolve(file);
  if (!existsSync(path)) {
    throw new PieError('FILE_NOT_FOUND', `${label} ${path} does not exist; point it at the file holding the key.`);
  }
  const key = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
  if (key === '') throw new PieError('INVALID_ARGUMENT', `${label} ${path} is empty; write the key in it.`);
  return key;
}

/** Flags win over environment variables, which win over defaults. */
export function loadConfig(input: { flags: GlobalFlags; env: Env }): Config {
  const { flags, env } = input;
  const tz = assertTimeZone(flags.tz ?? env.PIE_TZ ?? systemTimeZone());
  // An empty PIE_NOW is unset (a shell convention); an empty --now was typed, and is refused below.
  const nowText = flags.now ?? (env.PIE_NOW === '' ? undefined : env.PIE_NOW);
  let now: number | null = null;
  if (nowText !== undefined) {
    try {
      now = parseDateArgument(nowText, tz);
    } catch (cause) {
      const origin = flags.now !== undefined ? '--now' : 'PIE_NOW';
      throw new PieError(
        'INVALID_ARGUMENT',
        `${origin} "${nowText}" is not a date; use YYYY-MM-DD or an ISO date-time.`,
        {
          cause,
        },
      );
    }
  }
  const dbUrl = postgresUrl(flags, env);
  const memory = selectMemory({ flag: flags.memory, env: env.PIE_MEMORY, postgres: dbUrl !== undefined });
  return configSchema.parse({
    dbPath: dbLocation(flags, env),
    dbUrl,
    memory,
    now,
    tz,
    json: flags.json ?? false,
  });
}
