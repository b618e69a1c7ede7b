/**
 * MemoryBank (memory_bank_en.json): {user: {name, history: {"YYYY-MM-DD": [{query, response}]}}}. One conversation
 * per (user, day), at noon local time in `tz`; query -> user turn (speaker = the user's name), response -> assistant
 * turn. Turns have no time of their own (turn.time is null).
 */
import type { Conversation, Turn } from '../domain/conversation.js';
import { addDrop, conversationEvent, isBlank, isObject, stringField, type RecordContext } from './common.js';
import { parseDayKey } from './times.js';
import type { DropCounts, ImportEvent } from './types.js';

function dayEvent(opts: { user: string; name: string; day: string; exchanges: unknown; tz: string }): ImportEvent {
  const { user, name, day, exchanges, tz } = opts;
  const externalId = `${user}:${day}`;
  const ref = `MemoryBank ${externalId}`;
  const createdAt = parseDayKey(day, { tz, hour: 12 });
  if (createdAt === null) {
    return { kind: 'skipped', ref, reason: `${ref} is keyed by "${day}", which is not a YYYY-MM-DD date; skipped.` };
  }
  if (!Array.isArray(exchanges)) {
    return { kind: 'skipped', ref, reason: `${ref} is not a list of {query, response} exchanges; skipped.` };
  }
  const dropped: DropCounts = {};
  const turns: Turn[] = [];
  for (const exchange of exchanges) {
    if (!isObject(exchange)) {
      addDrop(dropped, 'not_an_exchange');
      continue;
    }
    const query = stringField(exchange, 'query');
    const response = stringField(exchange, 'response');
    if (isBlank(query)) addDrop(dropped, 'empty');
    else turns.push({ role: 'user', text: query as string, time: null, speaker: name });
    if (isBlank(response)) addDrop(dropped, 'empty');
    else turns.push({ role: 'assistant', text: response as string, time: null });
  }
  const conversation: Conversation = {
    source: 'memorybank',
    externalId,
    title: `${name} — ${day}`,
    createdAt,
    updatedAt: createdAt,
    model: null,
    turns,
    meta: { user: name, day },
  };
  return conversationEvent({ conversation, dropped, ref });
}

/** One top-level entry (a user and their dated history) -> one conversation per day, in date order. */
export function memorybankUserToEvents(entry: { key: string; value: unknown }, ctx: RecordContext): ImportEvent[] {
  const user = entry.key.trim() || `user ${ctx.index + 1}`;
  const ref = `MemoryBank user "${user}"`;
  const value = entry.value;
  if (!isObject(value) || !isObject(value.history)) {
    return [{ kind: 'skipped', ref, reason: `${ref} has no history keyed by date; skipped.` }];
  }
  const name = (stringField(value, 'name') ?? user).trim() || user;
  const history = value.history;
  return Object.keys(history)
    .sort()
    .map((day) => dayEvent({ user, name, day, exchanges: history[day], tz: ctx.tz }));
}
