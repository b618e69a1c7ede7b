import { describe, expect, it } from 'vitest';
import { bearerIndex, bearerMatches, tokenDigest } from './bearer.js';

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

describe('bearerIndex', () => {
  const digests = ['alice-token-0123456789', 'bob-token-0123456789ab', 'carol-0123456789abcdef'].map((t) =>
    tokenDigest(t),
  );

  it.each([
    ['Bearer alice-token-0123456789', 0],
    ['bearer  bob-token-0123456789ab ', 1],
    ['Bearer carol-0123456789abcdef', 2],
    ['Bearer alice-token-012345678', -1],
    ['Bearer ALICE-TOKEN-0123456789', -1],
    ['Bearer bob-token-0123456789abX', -1],
    ['Basic alice-token-0123456789', -1],
    ['alice-token-0123456789', -1],
    ['', -1],
  ])('%j → %i', (header, expected) => {
    expect(bearerIndex(header, digests)).toBe(expected);
  });

  it('finds nothing without a header or without tokens', () => {
    expect(bearerIndex(undefined, digests)).toBe(-1);
    expect(bearerIndex('Bearer alice-token-0123456789', [])).toBe(-1);
  });
});
