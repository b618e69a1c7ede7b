import { createHash } from 'node:crypto';

/**
 * What PIE keeps of a conversation it was asked to forget: a digest of its id (derived from its source and its id
 * there), so a later import of the same export can leave it out while the stored row says nothing about what the
 * conversation was. Pure.
 */
export function forgottenKey(episodeId: string): string {
  return createHash('sha256').update(`pie-forgotten-episode\u0000${episodeId}`).digest('hex');
}
