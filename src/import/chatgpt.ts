/** ChatGPT export (conversations.json): one conversation object -> one Conversation, linearized on its active path. */
import type { Turn } from '../domain/conversation.js';
import { fromUnixSeconds } from '../domain/time.js';
import { activePath } from './chatgpt-tree.js';
import { readChatgptMessage } from './chatgpt-message.js';
import {
  exportConversationEvents,
  isObject,
  itemRef,
  recordRef,
  stringField,
  TimeChecker,
  type RecordContext,
} from './common.js';
import type { DropCounts, ImportEvent } from './types.js';

/** Turns one element of a ChatGPT conversations.json into import events (warnings, then the conversation or a skip). */
export function chatgptConversationToEvents(raw: unknown, ctx: RecordContext): ImportEvent[] {
  if (!isObject(raw)) {
    const ref = itemRef(ctx);
    return [{ kind: 'skipped', ref, reason: `${ref} is not a conversation object; skipped.` }];
  }
  const id = stringField(raw, 'conversation_id') ?? stringField(raw, 'id');
  const rawTitle = stringField(raw, 'title');
  const ref = recordRef({ kind: 'conversation', title: rawTitle, id: id ?? itemRef(ctx) });
  if (id === undefined || id === '') {
    return [{ kind: 'skipped', ref, reason: `${ref} has no conversation_id or id; skipped.` }];
  }
  if (!isObject(raw.mapping)) {
    return [{ kind: 'skipped', ref, reason: `${ref} has no message tree (mapping); skipped.` }];
  }
  const path = activePath({ mapping: raw.mapping, currentNode: raw.current_node, ref });
  if (!path.ok) return [{ kind: 'skipped', ref, reason: path.reason }];
  const events: ImportEvent[] = path.warnings.map((message) => ({ kind: 'warning', ref, message }));

  const dropped: DropCounts = {};
  const times = new TimeChecker();
  const turns: Turn[] = [];
  for (const node of path.nodes) {
    const draft = readChatgptMessage({ message: node.message, dropped });
    if (!draft) continue;
    turns.push({
      role: draft.role,
      text: draft.text,
      time: times.check(draft.time, `message ${draft.messageId ?? node.id}`),
      externalId: draft.messageId ?? node.id,
    });
  }

  const created = times.check(fromUnixSeconds(raw.create_time), 'create_time');
  const updated = times.check(fromUnixSeconds(raw.update_time), 'update_time');
  const rest = exportConversationEvents({
    source: 'chatgpt',
    externalId: id,
    title: rawTitle,
    model: stringField(raw, 'default_model_slug') ?? null,
    created,
    updated,
    timeFields: 'create_time, update_time',
    turns,
    dropped,
    times,
    ref,
  });
  return [...events, ...rest];
}
