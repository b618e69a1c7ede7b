import type { Conversation, ConversationSource } from '../domain/conversation.js';
import type { Episode } from '../domain/world.js';

/**
 * Sources whose `Conversation.updatedAt` is the source's own time of the conversation's last change (ChatGPT's
 * `update_time`, Claude's `updated_at`; for Claude's memory, the export's time), so two versions of a conversation
 * can be told apart by age. Other formats have no such time (a JSON Lines log's update time is its last message's
 * time unless a line gives one, a note's is its file's modification time, a benchmark's is its session date): for
 * them the last import wins, as before.
 */
export const VERSIONED_SOURCES: ReadonlySet<ConversationSource> = new Set(['chatgpt', 'claude']);

/**
 * What an import does with one conversation:
 * - `insert`: nothing is stored under its id;
 * - `unchanged`: the stored episode has the same content hash (nothing is written, whatever the update times);
 * - `update`: the content differs, and the incoming version is not older: its turns replace the stored ones;
 * - `keep-stored`: the content differs and the incoming version is older than the stored one (an older export
 *   imported after a newer one): the stored episode is kept and nothing is written for it.
 */
export type ImportVerdict = 'insert' | 'unchanged' | 'update' | 'keep-stored';

/**
 * Decides an import by content hash and, for sources with update times, by age. Equal update times with different
 * content are an update: the same version of the source read again, whose content differs only because PIE reads it
 * differently now (a newer importer), so the newer reading wins; a source cannot tell apart two versions with the
 * same update time anyway, and the last import wins then, as it always did. A stored episode of another source
 * under the same id (a bare episode `pie apply` made for an id a batch named) has no comparable time: an update.
 */
export function importVerdict(input: {
  incoming: Pick<Conversation, 'source' | 'updatedAt'>;
  hash: string;
  stored: Pick<Episode, 'source' | 'updatedAt' | 'contentHash'> | null;
}): ImportVerdict {
  const { incoming, stored } = input;
  if (stored === null) return 'insert';
  if (stored.contentHash === input.hash) return 'unchanged';
  const comparable = VERSIONED_SOURCES.has(incoming.source) && stored.source === incoming.source;
  return comparable && incoming.updatedAt < stored.updatedAt ? 'keep-stored' : 'update';
}
