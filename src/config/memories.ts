import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { PieError } from '../domain/errors.js';
import { isMemoryName } from './memory.js';

/**
 * `--memories FILE` (or PIE_MEMORIES): one `pie serve` or `pie mcp --http` serves several memories of a PostgreSQL
 * database, and the bearer token of each request selects the memory. The file is a JSON object of memory names and
 * tokens, `{"alice": "<token>", "bob": "<token>"}` ("default" is the default memory).
 */
export interface MemoryToken {
  name: string;
  token: string;
}

/** A token that guards a memory must not be guessable: at least this many characters (as beyond loopback). */
export const MIN_TOKEN_CHARS = 16;

/** A token travels in an HTTP header: visible ASCII only (no spaces), or no client could send it as written. */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

export type MemoriesOrigin = '--memories' | 'PIE_MEMORIES';

/** The tokens file named by `--memories` or PIE_MEMORIES (the flag wins; an empty variable is unset). */
export function memoriesFile(input: {
  flag: string | undefined;
  env: string | undefined;
}): { path: string; origin: MemoriesOrigin } | undefined {
  if (input.flag !== undefined) return { path: input.flag, origin: '--memories' };
  const env = input.env?.trim();
  return env ? { path: env, origin: 'PIE_MEMORIES' } : undefined;
}

/**
 * Refuses `--memories` where it cannot apply, each case in one sentence: over stdio (there is no token to route
 * by), on a SQLite file (one file is one memory), beside `--memory`/PIE_MEMORY (one memory or several, not both),
 * and beside the single-memory token (PIE_TOKEN, PIE_MCP_TOKEN), which would be a second key to one of them.
 */
export function checkMemoriesUse(input: {
  origin: MemoriesOrigin;
  http: boolean;
  postgres: boolean;
  memoryFlag: string | undefined;
  memoryEnv: string | undefined;
  /** The single-memory token variable of the command and its value. */
  tokenEnv: { name: string; value: string | undefined };
}): void {
  const { origin } = input;
  const unset = origin === 'PIE_MEMORIES' ? ' (or unset PIE_MEMORIES)' : '';
  if (!input.http) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${origin} serves several memories over HTTP, one token each; add --http, or serve one memory over stdio with --memory${unset}.`,
    );
  }
  if (!input.postgres) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${origin} serves several memories of one PostgreSQL database (--db postgres://…); a SQLite file holds one memory, so serve it without ${origin}${unset}.`,
    );
  }
  const memory = input.memoryFlag !== undefined ? '--memory' : input.memoryEnv ? 'PIE_MEMORY' : undefined;
  if (memory !== undefined) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${origin} names the memories to serve and ${memory} names one; use one of them${memory === 'PIE_MEMORY' ? ' (unset PIE_MEMORY to serve the file)' : ''}.`,
    );
  }
  if (input.tokenEnv.value?.trim()) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `With ${origin} each memory's token is in the file, so ${input.tokenEnv.name} would be a second key to one of them; unset ${input.tokenEnv.name}.`,
    );
  }
}

/**
 * Reads and checks the tokens file: readable by its owner only (it holds every memory's key), a JSON object of
 * valid memory names and distinct tokens of at least 16 visible ASCII characters. Every problem is one sentence
 * naming the file; no message ever contains a token.
 */
export function readMemoriesFile(input: {
  path: string;
  origin: MemoriesOrigin;
  /** Whether to refuse a file other accounts can read or change (default: on every platform but Windows). */
  checkMode?: boolean;
}): MemoryToken[] {
  const path = resolve(input.path);
  const where = `${input.origin} ${path}`;
  const text = readText(path, where);
  if (input.checkMode ?? process.platform !== 'win32') {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `${where} can be read or changed by other accounts (mode ${mode.toString(8)}) and it holds every memory's token; run chmod 600 ${path}.`,
      );
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the text around the error, which may be a token: it is not repeated.
    throw new PieError(
      'UNREADABLE_INPUT',
      `${where} is not valid JSON; write one object of memory names and tokens, such as {"alice": "<token>", "bob": "<token>"}.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${where} must hold one JSON object of memory names and tokens, such as {"alice": "<token>", "bob": "<token>"}.`,
    );
  }
  const entries = Object.entries(parsed);
  if (entries.length === 0) {
    throw new PieError('INVALID_ARGUMENT', `${where} names no memory; add at least one "name": "<token>" pair.`);
  }
  const owners = new Map<string, string>();
  return entries.map(([name, token]) => {
    checkEntry({ where, name, token });
    const owner = owners.get(token as string);
    if (owner !== undefined) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `${where} gives "${owner}" and "${name}" the same token, which must select exactly one memory; give each memory its own.`,
      );
    }
    owners.set(token as string, name);
    return { name, token: token as string };
  });
}

function readText(path: string, where: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new PieError(
        'FILE_NOT_FOUND',
        `${where} does not exist; write the memories to serve there as {"alice": "<token>", …} (chmod 600).`,
        { cause },
      );
    }
    throw new PieError(
      'UNREADABLE_INPUT',
      `${where} cannot be read (${code === 'EISDIR' ? 'it is a folder' : (code ?? 'unknown error')}); point it at the JSON file of memory names and tokens.`,
      { cause },
    );
  }
}

function checkEntry(input: { where: string; name: string; token: unknown }): void {
  const { where, name, token } = input;
  if (!isMemoryName(name)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${where}: ${JSON.stringify(name.slice(0, 60))} is not a memory name; use 1 to 40 lowercase letters, digits and underscores ("default" for the default memory).`,
    );
  }
  if (typeof token !== 'string') {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${where}: the token of "${name}" is not a string; write "${name}": "<token>".`,
    );
  }
  if (!TOKEN_CHARS.test(token)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${where}: the token of "${name}" is empty or has spaces or characters other than visible ASCII, which a client cannot send in an Authorization header; use a random secret such as the output of openssl rand -hex 24.`,
    );
  }
  if (token.length < MIN_TOKEN_CHARS) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${where}: the token of "${name}" has ${token.length} characters, too short to guard a memory; use a random secret of at least ${MIN_TOKEN_CHARS} characters (e.g. openssl rand -hex 24).`,
    );
  }
}
