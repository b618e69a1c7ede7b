import { describe, expect, it } from 'vitest';
import { bearerMatches } from './bearer.js';

const TOKEN = Buffer.from('s3cret-token_0123');

describe('bearerMatches', () => {
  it.each([
    ['Bearer s3cret-token_0123', true],
    ['bearer s3cret-token_0123', true],
    ['BEARER s3cret-token_0123', true],
    ['BeArEr \t s3cret-token_0123  ', true],
    ['Bearer s3cret-token_012', false],
    ['Bearer s3cret-token_01234', false],
    ['Bearer S3CRET-TOKEN_0123', false],
    ['Basic s3cret-token_0123', false],
    ['Bearers3cret-token_0123', false],
    ['s3cret-token_0123', false],
    ['Bearer s3cret-token_0123 extra', false],
    ['', false],
  ])('%j → %s', (header, expected) => {
    expect(bearerMatches(header, TOKEN)).toBe(expected);
  });

  it('refuses a missing header', () => {
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});
