import { timingSafeEqual } from 'node:crypto';

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
