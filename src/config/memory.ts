import { PieError } from '../domain/errors.js';

/** A memory's name: lowercase letters, digits and underscores, up to 40 characters. */
const MEMORY_NAME = /^[a-z0-9_]{1,40}$/;

/** The name that selects the default memory explicitly (the one used when no name is given). */
export const DEFAULT_MEMORY = 'default';

/** Whether `name` is a valid memory name (the rule of `--memory`, PIE_MEMORY and the `--memories` file). */
export function isMemoryName(name: string): boolean {
  return MEMORY_NAME.test(name);
}

/**
 * The PostgreSQL schema holding a memory: the adapter's default schema (undefined here) for the default memory,
 * else `pie_<name>`, so that a memory's name can never be a schema of something else (public, pg_catalog, the
 * default memory's own) and may start with a digit.
 */
export function memorySchema(name: string | undefined): string | undefined {
  return name === undefined || name === DEFAULT_MEMORY ? undefined : `pie_${name}`;
}

/**
 * The memory selected by `--memory` or PIE_MEMORY (the flag wins), validated; undefined for the default memory.
 * A SQLite file holds exactly one memory, so a name is refused there.
 */
export function selectMemory(input: {
  flag: string | undefined;
  env: string | undefined;
  postgres: boolean;
}): string | undefined {
  const origin = input.flag !== undefined ? '--memory' : 'PIE_MEMORY';
  const given = input.flag ?? (input.env === '' ? undefined : input.env);
  if (given === undefined) return undefined;
  if (!isMemoryName(given)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${origin} "${given}" is not a memory name; use 1 to 40 lowercase letters, digits and underscores.`,
    );
  }
  if (!input.postgres) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${origin} selects one of several memories on a PostgreSQL server (--db postgres://…); a SQLite file holds one memory, so choose another --db file instead${origin === 'PIE_MEMORY' ? ' or unset PIE_MEMORY' : ''}.`,
    );
  }
  return given === DEFAULT_MEMORY ? undefined : given;
}
