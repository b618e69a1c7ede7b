import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isPieError, type PieErrorCode } from '../domain/errors.js';
import { checkMemoriesUse, memoriesFile, readMemoriesFile } from './memories.js';

const dir = mkdtempSync(join(tmpdir(), 'pie-memories-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const A = 'alice-token-0123456789abcdef';
const B = 'bob-token-0123456789abcdef00';

let n = 0;
function file(text: string, mode = 0o600): string {
  n += 1;
  const path = join(dir, `memories-${n}.json`);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

/** The error `run` throws: its code and message (a failure if it throws nothing or something else). */
function refusal(run: () => unknown): { code: PieErrorCode; message: string } {
  try {
    run();
  } catch (error) {
    if (isPieError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('memoriesFile', () => {
  it('takes the flag over PIE_MEMORIES, and an empty variable as unset', () => {
    expect(memoriesFile({ flag: 'a.json', env: 'b.json' })).toEqual({ path: 'a.json', origin: '--memories' });
    expect(memoriesFile({ flag: undefined, env: 'b.json' })).toEqual({ path: 'b.json', origin: 'PIE_MEMORIES' });
    expect(memoriesFile({ flag: undefined, env: ' ' })).toBeUndefined();
    expect(memoriesFile({ flag: undefined, env: undefined })).toBeUndefined();
  });
});

describe('readMemoriesFile', () => {
  it('reads names and tokens in the order of the file, "default" included', () => {
    const path = file(JSON.stringify({ alice: A, bob: B, default: 'default-token-0123456789' }));
    expect(readMemoriesFile({ path, origin: '--memories' })).toEqual([
      { name: 'alice', token: A },
      { name: 'bob', token: B },
      { name: 'default', token: 'default-token-0123456789' },
    ]);
  });

  it('accepts a file readable by its owner only (0400 as well as 0600)', () => {
    const path = file(JSON.stringify({ alice: A }), 0o400);
    expect(readMemoriesFile({ path, origin: '--memories' })).toHaveLength(1);
  });

  const cases: { name: string; text: string; mode?: number; code: PieErrorCode; message: RegExp }[] = [
    {
      name: 'a file other accounts can read',
      text: JSON.stringify({ alice: A }),
      mode: 0o644,
      code: 'INVALID_ARGUMENT',
      message: /can be read or changed by other accounts \(mode 644\).*run chmod 600 /,
    },
    {
      name: 'a file the group can change',
      text: JSON.stringify({ alice: A }),
      mode: 0o620,
      code: 'INVALID_ARGUMENT',
      message: /\(mode 620\)/,
    },
    {
      name: 'text that is not JSON',
      text: `{"alice": "${A}"`,
      code: 'UNREADABLE_INPUT',
      message: /is not valid JSON; write one object of memory names and tokens/,
    },
    {
      name: 'an array',
      text: JSON.stringify([A]),
      code: 'INVALID_ARGUMENT',
      message: /must hold one JSON object of memory names and tokens/,
    },
    {
      name: 'null',
      text: 'null',
      code: 'INVALID_ARGUMENT',
      message: /must hold one JSON object/,
    },
    {
      name: 'an empty object',
      text: '{}',
      code: 'INVALID_ARGUMENT',
      message: /names no memory/,
    },
    {
      name: 'a name with capitals',
      text: JSON.stringify({ Alice: A }),
      code: 'INVALID_ARGUMENT',
      message: /"Alice" is not a memory name; use 1 to 40 lowercase letters/,
    },
    {
      name: 'a name with a hyphen',
      text: JSON.stringify({ 'team-a': A }),
      code: 'INVALID_ARGUMENT',
      message: /"team-a" is not a memory name/,
    },
    {
      name: 'an empty name',
      text: JSON.stringify({ '': A }),
      code: 'INVALID_ARGUMENT',
      message: /"" is not a memory name/,
    },
    {
      name: 'a name of 41 characters',
      text: JSON.stringify({ ['a'.repeat(41)]: A }),
      code: 'INVALID_ARGUMENT',
      message: /is not a memory name/,
    },
    {
      name: 'a token that is not a string',
      text: JSON.stringify({ alice: 1234567890123456 }),
      code: 'INVALID_ARGUMENT',
      message: /the token of "alice" is not a string/,
    },
    {
      name: 'a token of 15 characters',
      text: JSON.stringify({ alice: 'x'.repeat(15) }),
      code: 'INVALID_ARGUMENT',
      message:
        /the token of "alice" has 15 characters, too short to guard a memory; use a random secret of at least 16/,
    },
    {
      name: 'an empty token',
      text: JSON.stringify({ alice: '' }),
      code: 'INVALID_ARGUMENT',
      message: /the token of "alice" is empty or has spaces/,
    },
    {
      name: 'a token with a space',
      text: JSON.stringify({ alice: 'alice token 0123456789' }),
      code: 'INVALID_ARGUMENT',
      message: /the token of "alice" is empty or has spaces or characters other than visible ASCII/,
    },
    {
      name: 'a token with a non-ASCII letter',
      text: JSON.stringify({ alice: 'café-token-0123456789' }),
      code: 'INVALID_ARGUMENT',
      message: /visible ASCII/,
    },
    {
      name: 'two memories with one token',
      text: JSON.stringify({ alice: A, bob: B, carol: A }),
      code: 'INVALID_ARGUMENT',
      message: /gives "alice" and "carol" the same token, which must select exactly one memory/,
    },
  ];

  it.each(cases)('refuses $name in one sentence, without printing a token', (c) => {
    const path = file(c.text, c.mode);
    const error = refusal(() => readMemoriesFile({ path, origin: '--memories', checkMode: true }));
    expect(error.code).toBe(c.code);
    expect(error.message).toMatch(c.message);
    expect(error.message.startsWith(`--memories ${path}`)).toBe(true);
    expect(error.message).not.toContain(A);
    expect(error.message).not.toContain(B);
    expect(error.message).not.toMatch(/\n/);
  });

  it('refuses a missing file and a folder, naming the variable it came from', () => {
    const missing = refusal(() => readMemoriesFile({ path: join(dir, 'nope.json'), origin: 'PIE_MEMORIES' }));
    expect(missing.code).toBe('FILE_NOT_FOUND');
    expect(missing.message).toMatch(/^PIE_MEMORIES .*nope\.json does not exist; write the memories to serve there/);
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const isFolder = refusal(() => readMemoriesFile({ path: folder, origin: '--memories' }));
    expect(isFolder.code).toBe('UNREADABLE_INPUT');
    expect(isFolder.message).toMatch(/cannot be read \(it is a folder\)/);
  });
});

describe('checkMemoriesUse', () => {
  const fine = {
    origin: '--memories' as const,
    http: true,
    postgres: true,
    memoryFlag: undefined,
    memoryEnv: undefined,
    tokenEnv: { name: 'PIE_TOKEN', value: undefined },
  };

  it('accepts an HTTP server on PostgreSQL without --memory or a single token', () => {
    expect(() => checkMemoriesUse(fine)).not.toThrow();
    expect(() =>
      checkMemoriesUse({ ...fine, memoryEnv: '', tokenEnv: { name: 'PIE_TOKEN', value: ' ' } }),
    ).not.toThrow();
  });

  it.each([
    {
      name: 'stdio',
      change: { http: false },
      message: /serves several memories over HTTP, one token each; add --http/,
    },
    {
      name: 'a SQLite file',
      change: { postgres: false },
      message:
        /serves several memories of one PostgreSQL database \(--db postgres:\/\/…\); a SQLite file holds one memory/,
    },
    {
      name: '--memory',
      change: { memoryFlag: 'alice' },
      message: /--memories names the memories to serve and --memory names one; use one of them\.$/,
    },
    {
      name: '--memory default',
      change: { memoryFlag: 'default' },
      message: /and --memory names one/,
    },
    {
      name: 'PIE_MEMORY',
      change: { memoryEnv: 'alice' },
      message: /and PIE_MEMORY names one; use one of them \(unset PIE_MEMORY to serve the file\)/,
    },
    {
      name: 'PIE_TOKEN',
      change: { tokenEnv: { name: 'PIE_TOKEN', value: 'x'.repeat(20) } },
      message:
        /With --memories each memory's token is in the file, so PIE_TOKEN would be a second key .*; unset PIE_TOKEN\./,
    },
    {
      name: 'PIE_MCP_TOKEN',
      change: { tokenEnv: { name: 'PIE_MCP_TOKEN', value: 'x'.repeat(20) } },
      message: /unset PIE_MCP_TOKEN\./,
    },
  ])('refuses $name with an invalid-argument sentence', ({ change, message }) => {
    const error = refusal(() => checkMemoriesUse({ ...fine, ...change }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toMatch(message);
  });

  it('names PIE_MEMORIES when the file came from it', () => {
    const error = refusal(() => checkMemoriesUse({ ...fine, origin: 'PIE_MEMORIES', postgres: false }));
    expect(error.message).toMatch(/^PIE_MEMORIES serves .*\(or unset PIE_MEMORIES\)\.$/);
  });
});
