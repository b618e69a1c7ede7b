/**
 * The two line shapes of PIE's generic JSON Lines chat log (docs/import-formats.md):
 * (a) one message per line: {conversation, role, text, time, title?, speaker?}
 * (b) one conversation per line: {id, title?, created_at?, messages: [{role, content|text, time?}]}
 * Pure functions: a parsed line in, a draft or events out.
 */
import type { Conversation, Turn, TurnRole } from '../domain/conversation.js';
import { isoString, isPlausibleTime } from '../domain/time.js';
import {
  addDrop,
  conversationEvent,
  fallbackTitle,
  firstString,
  isBlank,
  isObject,
  TimeChecker,
  turnTimeRange,
  type JsonObject,
} from './common.js';
import { parseFlexibleTime } from './times.js';
import type { DropCounts, ImportEvent } from './types.js';

const CONVERSATION_KEYS = [
  'conversation',
  'conversation_id',
  'conversationId',
  'session',
  'session_id',
  'sessionId',
  'thread_id',
];
const ID_KEYS = ['id', 'conversation_id', 'conversationId', 'uuid', 'session_id'];
/** Fields that hold a message's text, in order of preference. */
export const TEXT_KEYS = ['text', 'content', 'message', 'body'];
const TIME_KEYS = ['time', 'timestamp', 'created_at', 'createdAt', 'date', 'ts'];
const UPDATED_KEYS = ['updated_at', 'updatedAt'];

const USER_ROLES = new Set(['user', 'human', 'me', 'customer']);
const ASSISTANT_ROLES = new Set(['assistant', 'ai', 'bot', 'model', 'gpt', 'chatgpt', 'claude', 'agent']);
const DROPPED_ROLES = new Set(['system', 'tool', 'function', 'developer']);

export type RoleResult = { role: TurnRole } | { drop: string } | { unknown: string };

export function readRole(value: unknown): RoleResult {
  if (value === undefined || value === null) return { role: 'user' };
  if (isObject(value)) return readRole(value.role); // {"author": {"role": "user"}}
  const role = String(value).trim().toLowerCase();
  if (USER_ROLES.has(role)) return { role: 'user' };
  if (ASSISTANT_ROLES.has(role)) return { role: 'assistant' };
  if (DROPPED_ROLES.has(role)) return { drop: role };
  return { unknown: String(value) };
}

/** Text from a string, or from a list of strings / {type: "text", text} parts (OpenAI-style content). */
function readText(obj: JsonObject): string {
  for (const key of TEXT_KEYS) {
    const value = obj[key];
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) {
      return value
        .map((p: unknown) => (typeof p === 'string' ? p : isObject(p) && typeof p.text === 'string' ? p.text : ''))
        .filter((p) => p.trim() !== '')
        .join('\n');
    }
  }
  return '';
}

export function readTime(obj: JsonObject, keys: readonly string[], tz: string): number | null {
  for (const key of keys) {
    if (obj[key] !== undefined && obj[key] !== null) return parseFlexibleTime(obj[key], tz);
  }
  return null;
}

/** A conversation id field as a string (numbers are accepted), or null. */
export function readId(obj: JsonObject, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = obj[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return null;
}

export function isConversationLine(obj: JsonObject): boolean {
  return Array.isArray(obj.messages);
}

export function conversationIdOfMessage(obj: JsonObject): string | null {
  return readId(obj, CONVERSATION_KEYS);
}

/** A message line names its conversation with `title`; a conversation line with `title` or `name`. */
export function titleOf(obj: JsonObject, keys: readonly string[] = ['title']): string | undefined {
  return firstString(obj, keys);
}

/** Appends one message (of either shape) to `turns`, or counts why it was dropped. Returns an error for a bad role. */
export function addMessage(opts: {
  message: JsonObject;
  turns: Turn[];
  dropped: DropCounts;
  times: TimeChecker;
  tz: string;
  where: string;
}): string | null {
  const { message, turns, dropped, times, tz, where } = opts;
  const role = readRole(message.role ?? message.sender ?? message.author);
  if ('unknown' in role) return `unknown role ${JSON.stringify(role.unknown)} (use user or assistant)`;
  if ('drop' in role) {
    addDrop(dropped, role.drop);
    return null;
  }
  const text = readText(message);
  if (isBlank(text)) {
    addDrop(dropped, 'empty');
    return null;
  }
  const turn: Turn = { role: role.role, text, time: times.check(readTime(message, TIME_KEYS, tz), where) };
  const speaker = firstString(message, ['speaker', 'name']);
  if (speaker !== undefined) turn.speaker = speaker;
  const id = readId(message, ['id', 'message_id']);
  if (id !== null) turn.externalId = id;
  turns.push(turn);
  return null;
}

export interface ConversationDraft {
  id: string;
  title: string | undefined;
  turns: Turn[];
  dropped: DropCounts;
  times: TimeChecker;
  created: number | null;
  updated: number | null;
}

/** A finished draft -> events; without any time the file's modification time is used, with a warning. */
export function finishDraft(opts: { draft: ConversationDraft; mtimeMs: number; ref: string }): ImportEvent[] {
  const { draft, mtimeMs, ref } = opts;
  const events: ImportEvent[] = draft.times.warning(ref);
  const range = turnTimeRange(draft.turns);
  let createdAt = draft.created ?? range.min;
  if (createdAt === null) {
    if (!isPlausibleTime(mtimeMs)) {
      events.push({ kind: 'skipped', ref, reason: `${ref} has no times and neither has the file; skipped.` });
      return events;
    }
    createdAt = mtimeMs;
    events.push({
      kind: 'warning',
      ref,
      message: `${ref} has no times; the file's modification time (${isoString(mtimeMs)}) was used.`,
    });
  }
  const conversation: Conversation = {
    source: 'jsonl',
    externalId: draft.id,
    title: draft.title ?? fallbackTitle(draft.turns),
    createdAt,
    updatedAt: Math.max(draft.updated ?? range.max ?? createdAt, createdAt),
    model: null,
    turns: draft.turns,
  };
  events.push(conversationEvent({ conversation, dropped: draft.dropped, ref }));
  return events;
}

/** Shape (b): one conversation on one line. */
export function conversationLineToEvents(opts: {
  obj: JsonObject;
  line: number;
  fileName: string;
  mtimeMs: number;
  tz: string;
}): ImportEvent[] {
  const { obj, line, fileName, mtimeMs, tz } = opts;
  const id = readId(obj, ID_KEYS) ?? `${fileName}:line-${line}`;
  const ref = `conversation ${id} (line ${line})`;
  const times = new TimeChecker();
  const draft: ConversationDraft = {
    id,
    title: titleOf(obj, ['title', 'name']),
    turns: [],
    dropped: {},
    times,
    created: times.check(readTime(obj, TIME_KEYS, tz), 'created_at'),
    updated: times.check(readTime(obj, UPDATED_KEYS, tz), 'updated_at'),
  };
  const messages = obj.messages as unknown[];
  for (const [i, message] of messages.entries()) {
    if (!isObject(message)) {
      addDrop(draft.dropped, 'not_a_message');
      continue;
    }
    const where = `message ${i + 1}`;
    const error = addMessage({ message, turns: draft.turns, dropped: draft.dropped, times, tz, where });
    if (error !== null) {
      return [{ kind: 'skipped', ref, reason: `line ${line}: ${where} has an ${error}; skipped.` }];
    }
  }
  return finishDraft({ draft, mtimeMs, ref });
}
