/**
 * Generic JSON Lines chat log (source 'jsonl'). Message lines are grouped by conversation id, whether or not they
 * are consecutive; the groups are emitted at the end of the file in order of first appearance. Conversation lines
 * are emitted as they are read. A bad line is skipped with its line number and the rest continues.
 */
import { errorMessage } from '../domain/errors.js';
import { isObject, TimeChecker } from './common.js';
import type { ByteSource } from './input.js';
import {
  addMessage,
  conversationIdOfMessage,
  conversationLineToEvents,
  finishDraft,
  isConversationLine,
  TEXT_KEYS,
  titleOf,
  type ConversationDraft,
} from './jsonl-record.js';
import { readLines } from './lines.js';
import type { ImportEvent } from './types.js';

function skip(line: number, why: string): ImportEvent {
  return { kind: 'skipped', ref: `line ${line}`, reason: `line ${line}: ${why}; skipped.` };
}

export async function* importJsonl(opts: { source: ByteSource; tz: string }): AsyncGenerator<ImportEvent> {
  const { source, tz } = opts;
  const fileName = source.name.replace(/\.(jsonl|ndjson)$/i, '');
  const groups = new Map<string, ConversationDraft>();
  for await (const { number, text } of readLines(source.open())) {
    const trimmed = (number === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
    if (trimmed === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      yield skip(number, `not valid JSON (${errorMessage(error)})`);
      continue;
    }
    if (!isObject(value)) {
      yield skip(number, 'not a JSON object');
      continue;
    }
    if (isConversationLine(value)) {
      yield* conversationLineToEvents({ obj: value, line: number, fileName, mtimeMs: source.mtimeMs, tz });
      continue;
    }
    if (!TEXT_KEYS.some((k) => k in value)) {
      yield skip(number, 'has neither text/content (a message) nor messages (a conversation)');
      continue;
    }
    const id = conversationIdOfMessage(value) ?? fileName;
    let group = groups.get(id);
    if (!group) {
      group = { id, title: undefined, turns: [], dropped: {}, times: new TimeChecker(), created: null, updated: null };
      groups.set(id, group);
    }
    group.title ??= titleOf(value);
    const error = addMessage({
      message: value,
      turns: group.turns,
      dropped: group.dropped,
      times: group.times,
      tz,
      where: `line ${number}`,
    });
    if (error !== null) yield skip(number, `has an ${error}`);
  }
  for (const draft of groups.values()) {
    yield* finishDraft({ draft, mtimeMs: source.mtimeMs, ref: `conversation ${draft.id}` });
  }
}
