/** Claude.ai export (conversations.json): one conversation object -> one Conversation. */
import type { Attachment, Turn, TurnRole } from '../domain/conversation.js';
import {
  addDrop,
  isBlank,
  exportConversationEvents,
  isObject,
  itemRef,
  recordRef,
  stringField,
  TimeChecker,
  type JsonObject,
  type RecordContext,
} from './common.js';
import { parseIsoTime } from './times.js';
import type { DropCounts, ImportEvent } from './types.js';

const ROLES: Record<string, TurnRole> = { human: 'user', user: 'user', assistant: 'assistant' };

/**
 * The visible text of a message: its `content[]` text blocks joined by a blank line. The top-level `text` is used
 * only when `content` is absent (older exports), because for assistant messages it can be thinking and answer glued
 * together. Thinking, tool_use, tool_result and other blocks are counted by type.
 */
function messageText(message: JsonObject, dropped: DropCounts): string {
  if (!Array.isArray(message.content)) return stringField(message, 'text') ?? '';
  const texts: string[] = [];
  for (const block of message.content) {
    if (!isObject(block)) continue;
    const type = stringField(block, 'type') ?? 'unknown_block';
    const text = stringField(block, 'text');
    if (type === 'text' && text !== undefined && text.trim() !== '') texts.push(text);
    else if (type !== 'text') addDrop(dropped, type);
  }
  return texts.join('\n\n');
}

/** Text extracted from attached documents; files without extracted text (images …) are counted. */
function attachmentsOf(message: JsonObject, dropped: DropCounts): Attachment[] {
  const out: Attachment[] = [];
  const list = Array.isArray(message.attachments) ? message.attachments : [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const text = stringField(item, 'extracted_content');
    if (isBlank(text)) addDrop(dropped, 'attachment_without_text');
    else out.push({ name: stringField(item, 'file_name') ?? 'attachment', text: text as string });
  }
  addDrop(dropped, 'file', Array.isArray(message.files) ? message.files.length : 0);
  return out;
}

function readMessage(opts: { message: unknown; dropped: DropCounts; times: TimeChecker; tz: string }): Turn | null {
  const { message, dropped, times, tz } = opts;
  if (!isObject(message)) {
    addDrop(dropped, 'null_message');
    return null;
  }
  const sender = stringField(message, 'sender') ?? 'unknown_sender';
  const role = ROLES[sender];
  if (!role) {
    addDrop(dropped, sender);
    return null;
  }
  const attachments = attachmentsOf(message, dropped);
  let text = messageText(message, dropped);
  if (isBlank(text) && attachments.length > 0) {
    // A message that is only an attachment: name it, so the turn is not empty and its attachment is kept.
    text = attachments.map((a) => `[attached: ${a.name}]`).join('\n');
  }
  if (isBlank(text)) {
    addDrop(dropped, 'empty');
    return null;
  }
  const id = stringField(message, 'uuid');
  const created = stringField(message, 'created_at');
  const turn: Turn = {
    role,
    text,
    time: times.check(created === undefined ? null : parseIsoTime(created, tz), `message ${id ?? '?'}`),
  };
  if (id) turn.externalId = id;
  if (attachments.length > 0) turn.attachments = attachments;
  return turn;
}

/** Turns one element of a Claude conversations.json into import events. */
export function claudeConversationToEvents(raw: unknown, ctx: RecordContext): ImportEvent[] {
  if (!isObject(raw)) {
    const ref = itemRef(ctx);
    return [{ kind: 'skipped', ref, reason: `${ref} is not a conversation object; skipped.` }];
  }
  const id = stringField(raw, 'uuid');
  const name = stringField(raw, 'name');
  const ref = recordRef({ kind: 'conversation', title: name, id: id ?? itemRef(ctx) });
  if (!id) return [{ kind: 'skipped', ref, reason: `${ref} has no uuid; skipped.` }];
  if (!Array.isArray(raw.chat_messages)) {
    return [{ kind: 'skipped', ref, reason: `${ref} has no chat_messages list; skipped.` }];
  }
  const dropped: DropCounts = {};
  const times = new TimeChecker();
  const turns: Turn[] = [];
  for (const message of raw.chat_messages) {
    const turn = readMessage({ message, dropped, times, tz: ctx.tz });
    if (turn) turns.push(turn);
  }
  const isoField = (key: string): number | null => {
    const value = stringField(raw, key);
    return times.check(value === undefined ? null : parseIsoTime(value, ctx.tz), key);
  };
  return exportConversationEvents({
    source: 'claude',
    externalId: id,
    title: name,
    model: stringField(raw, 'model') ?? null,
    created: isoField('created_at'),
    updated: isoField('updated_at'),
    timeFields: 'created_at, updated_at',
    turns,
    dropped,
    times,
    ref,
  });
}
