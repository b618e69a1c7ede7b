import { timingSafeEqual } from 'node:crypto';
import { PieError } from '../../domain/errors.js';

/**
 * Whether an Authorization header carries the expected bearer token. The scheme name is case-insensitive
 * (RFC 7235 §2.1, RFC 6750 §2.1: "Bearer", "bearer", "BEARER"), whitespace after it is free; the token itself is
 * compared exactly and in constant time. Shared by the HTTP API (PIE_TOKEN) and the MCP HTTP server (PIE_MCP_TOKEN).
 */
export function bearerMatches(header: string | undefined, token: Buffer): boolean {
  const match = /^bearer[ \t]+(.+?)[ \t]*$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  return given.length === token.length && timingSafeEqual(given, token);
}

/** A token that guards a server reachable from the network must not be guessable: at least this many characters. */
export const MIN_EXPOSED_TOKEN_CHARS = 16;

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
