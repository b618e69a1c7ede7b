/**
 * LoCoMo (locomo10.json): each sample is a long two-person conversation split into dated sessions; every session
 * becomes one Conversation. speaker_a plays the user, speaker_b the assistant. Turns have no time of their own
 * (turn.time is null); the session's date is the conversation's createdAt.
 */
import type { Conversation, Turn } from '../domain/conversation.js';
import {
  addDrop,
  conversationEvent,
  conversationsOrThrow,
  isBlank,
  isObject,
  itemRef,
  stringField,
  type JsonObject,
  type RecordContext,
} from './common.js';
import { parseLocomoDate } from './times.js';
import type { DropCounts, ImportEvent } from './types.js';

/** The numbers N of the `session_N` keys that hold a list of turns, ascending (not the `session_N_date_time` keys). */
export function locomoSessionNumbers(conversation: JsonObject): number[] {
  const numbers: number[] = [];
  for (const [key, value] of Object.entries(conversation)) {
    const m = /^session_(\d+)$/.exec(key);
    if (m && Array.isArray(value)) numbers.push(Number(m[1]));
  }
  return numbers.sort((a, b) => a - b);
}

function readTurn(opts: { raw: unknown; speakerB: string; dropped: DropCounts; strangers: Set<string> }): Turn | null {
  const { raw, speakerB, dropped, strangers } = opts;
  if (!isObject(raw)) {
    addDrop(dropped, 'not_a_turn');
    return null;
  }
  const speaker = stringField(raw, 'speaker') ?? '';
  const caption = stringField(raw, 'blip_caption');
  const photo = isBlank(caption) ? '' : `[shares a photo: ${(caption as string).trim()}]`;
  const said = stringField(raw, 'text') ?? '';
  const text = [said, photo].filter((s) => s.trim() !== '').join(' ');
  if (text === '') {
    addDrop(dropped, 'empty');
    return null;
  }
  const turn: Turn = { role: speaker === speakerB ? 'assistant' : 'user', text, time: null };
  if (speaker !== '') turn.speaker = speaker;
  else strangers.add('(no speaker)');
  const diaId = stringField(raw, 'dia_id');
  if (diaId) turn.externalId = diaId;
  return turn;
}

function sessionEvents(opts: {
  sampleId: string;
  conversation: JsonObject;
  n: number;
  speakerA: string;
  speakerB: string;
  tz: string;
}): ImportEvent[] {
  const { sampleId, conversation, n, speakerA, speakerB, tz } = opts;
  const externalId = `${sampleId}:session_${n}`;
  const ref = `LoCoMo ${externalId}`;
  const dateText = stringField(conversation, `session_${n}_date_time`);
  const createdAt = dateText === undefined ? null : parseLocomoDate(dateText, tz);
  if (createdAt === null) {
    const what = dateText === undefined ? 'has no' : `has an unreadable (${JSON.stringify(dateText)})`;
    return [{ kind: 'skipped', ref, reason: `${ref} ${what} session_${n}_date_time; skipped.` }];
  }
  const dropped: DropCounts = {};
  const strangers = new Set<string>();
  const turns: Turn[] = [];
  for (const raw of conversation[`session_${n}`] as unknown[]) {
    const turn = readTurn({ raw, speakerB, dropped, strangers });
    if (!turn) continue;
    if (turn.speaker !== undefined && turn.speaker !== speakerA && turn.speaker !== speakerB)
      strangers.add(turn.speaker);
    turns.push(turn);
  }
  const events: ImportEvent[] = [];
  if (strangers.size > 0) {
    const names = [...strangers].join(', ');
    events.push({
      kind: 'warning',
      ref,
      message: `${ref} has turns by ${names}, who is neither ${speakerA} nor ${speakerB}; they were imported as user turns.`,
    });
  }
  const conversationOut: Conversation = {
    source: 'locomo',
    externalId,
    title: `${speakerA} & ${speakerB} — session ${n}`,
    createdAt,
    updatedAt: createdAt,
    model: null,
    turns,
    meta: { sampleId, session: n },
  };
  events.push(conversationEvent({ conversation: conversationOut, dropped, ref }));
  return events;
}

/** All events for one LoCoMo sample: one conversation per session, in session order. */
export function locomoSampleToEvents(sample: unknown, ctx: RecordContext): ImportEvent[] {
  const fallbackRef = `LoCoMo sample (${itemRef(ctx)})`;
  if (!isObject(sample)) {
    return [{ kind: 'skipped', ref: fallbackRef, reason: `${fallbackRef} is not an object; skipped.` }];
  }
  const sampleId = stringField(sample, 'sample_id');
  const ref = sampleId ? `LoCoMo sample ${sampleId}` : fallbackRef;
  if (!sampleId) return [{ kind: 'skipped', ref, reason: `${ref} has no sample_id; skipped.` }];
  const conversation = sample.conversation;
  if (!isObject(conversation)) return [{ kind: 'skipped', ref, reason: `${ref} has no conversation; skipped.` }];
  const speakerA = stringField(conversation, 'speaker_a') ?? 'Speaker A';
  const speakerB = stringField(conversation, 'speaker_b') ?? 'Speaker B';
  const numbers = locomoSessionNumbers(conversation);
  if (numbers.length === 0) return [{ kind: 'skipped', ref, reason: `${ref} has no session_N lists; skipped.` }];
  return numbers.flatMap((n) => sessionEvents({ sampleId, conversation, n, speakerA, speakerB, tz: ctx.tz }));
}

/**
 * One LoCoMo sample -> its session conversations (for the benchmark harness, one world per sample).
 * Throws PieError INVALID_DATA when a session cannot be imported, rather than silently building a smaller world.
 */
export function locomoSampleToConversations(sample: unknown, tz: string): Conversation[] {
  return conversationsOrThrow(locomoSampleToEvents(sample, { tz, label: 'LoCoMo data', index: 0 }));
}
