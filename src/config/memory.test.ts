import { describe, expect, it } from 'vitest';
import { isPieError } from '../domain/errors.js';
import { memorySchema, selectMemory } from './memory.js';

describe('selectMemory', () => {
  it.each([
    { flag: 'work', env: undefined, expected: 'work' },
    { flag: undefined, env: 'home', expected: 'home' },
    { flag: 'work', env: 'home', expected: 'work' },
    { flag: undefined, env: '', expected: undefined },
    { flag: undefined, env: undefined, expected: undefined },
    { flag: 'default', env: undefined, expected: undefined },
    { flag: '2026_team', env: undefined, expected: '2026_team' },
    { flag: 'a'.repeat(40), env: undefined, expected: 'a'.repeat(40) },
  ])('on PostgreSQL: flag $flag, PIE_MEMORY $env -> $expected', ({ flag, env, expected }) => {
    expect(selectMemory({ flag, env, postgres: true })).toBe(expected);
  });

  it.each(['Work', 'my-memory', 'a b', '', 'a'.repeat(41), 'é', 'x;drop'])('refuses the name %j', (name) => {
    expect(() => selectMemory({ flag: name, env: undefined, postgres: true })).toThrow(/is not a memory name/);
  });

  it('refuses a memory name for a SQLite file, saying where it came from', () => {
    const attempt = (flag: string | undefined, env: string | undefined): unknown => {
      try {
        selectMemory({ flag, env, postgres: false });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const byFlag = attempt('work', undefined);
    expect(isPieError(byFlag, 'INVALID_ARGUMENT')).toBe(true);
    expect((byFlag as Error).message).toMatch(/^--memory selects .* a SQLite file holds one memory/);
    expect((attempt(undefined, 'work') as Error).message).toMatch(/^PIE_MEMORY .* or unset PIE_MEMORY\.$/);
    expect(attempt(undefined, undefined)).toBeUndefined();
  });
});

describe('memorySchema', () => {
  it.each([
    [undefined, undefined],
    ['default', undefined],
    ['work', 'pie_work'],
    ['2026', 'pie_2026'],
  ])('%j -> %j', (name, schema) => {
    expect(memorySchema(name)).toBe(schema);
  });
});
