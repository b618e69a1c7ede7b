import { createHash, timingSafeEqual } from 'node:crypto';
import { MIN_TOKEN_CHARS } from '../../config/memories.js';
import { PieError } from '../../domain/errors.js';

/**
 * Whether an Authorization header carries the expected bearer token. The scheme name is case-insensitive
 * (RFC 7235 §2.1, RFC 6750 §2.1: "Bearer", "bearer", "BEARER"), whitespace after it is free; the token itself is
 * compared exactly and in constant time. Shared by the HTTP API (PIE_TOKEN) and the MCP HTTP server (PIE_MCP_TOKEN).
 */
export function bearerMatches(header: string | undefined, token: Buffer): boolean {
  const given = bearerToken(header);
  return given !== null && given.length === token.length && timingSafeEqual(given, token);
}

function bearerToken(header: string | undefined): Buffer | null {
  const match = /^bearer[ \t]+(.+?)[ \t]*$/i.exec(header ?? '');
  return match?.[1] ? Buffer.from(match[1]) : null;
}

/** One memory of a server of several (`--memories`): its name, the token that selects it, its dependencies. */
export interface ServedMemory<D> {
  name: string;
  token: string;
  deps: D;
}

/** The SHA-256 digest of a token, the form `bearerIndex` compares. */
export function tokenDigest(token: string | Buffer): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Which of several tokens (given as `tokenDigest`s) an Authorization header carries: its index, or -1. Every token
 * is compared, each as a digest of one length in constant time, and the loop never stops early, so the time taken
 * tells neither which token matched nor how long the tokens are. Used by servers of several memories
 * (`--memories`), where the token selects the memory.
 */
export function bearerIndex(header: string | undefined, digests: readonly Buffer[]): number {
  const given = bearerToken(header);
  if (given === null) return -1;
  const digest = tokenDigest(given);
  let found = -1;
  digests.forEach((expected, i) => {
    if (timingSafeEqual(digest, expected) && found === -1) found = i;
  });
  return found;
}

/** A token that guards a server reachable from the network must not be guessable: at least this many characters. */
export const MIN_EXPOSED_TOKEN_CHARS = MIN_TOKEN_CHARS;

/**
 * Refuses to expose a server beyond loopback with a short token (a one-character PIE_TOKEN used to be accepted).
 * On loopback any token, or none, is fine.
 */
export function requireStrongToken(input: {
  host: string;
  loopback: boolean;
  token: string | undefined;
  env: string;
}): void {
  const { token } = input;
  if (input.loopback || token === undefined || token.length >= MIN_EXPOSED_TOKEN_CHARS) return;
  throw new PieError(
    'INVALID_ARGUMENT',
    `${input.env} has ${token.length} characters, too short to guard --host ${input.host}; use a random secret of at least ${MIN_EXPOSED_TOKEN_CHARS} characters (e.g. openssl rand -hex 24).`,
  );
}
