import { createHash } from 'node:crypto';
import type { Conversation } from '../domain/conversation.js';

/**
 * A stable hash of what extraction reads from a conversation. A newer export of an unchanged conversation hashes the
 * same (so re-importing adds nothing); new messages, edits or a new title change it (so it is re-extracted).
 * `updatedAt` is deliberately left out: exports bump it without changing content.
 */
export function conversationHash(conversation: Conversation): string {
  const h = createHash('sha256');
  h.update(JSON.stringify([conversation.title, conversation.createdAt, conversation.model]));
  for (const t of conversation.turns) {
    h.update('\u0000');
    h.update(JSON.stringify([t.role, t.text, t.time, t.speaker ?? null, t.externalId ?? null, t.attachments ?? null]));
  }
  return h.digest('hex');
}
