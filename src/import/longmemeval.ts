/**
 * LongMemEval (longmemeval_*.json): an array of questions, each with a haystack of dated chat sessions. Every
 * haystack session becomes one Conversation (externalId = haystack session id). Turns have no time of their own
 * (turn.time is null); the session's haystack date is createdAt.
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
  type RecordContext,
} from './common.js';
import { parseLongMemEvalDate } from './times.js';
import type { DropCounts, ImportEvent } from './types.js';

interface RawSession {
  id: string;
  date: unknown;
  turns: unknown;
}

type QuestionShape = { ok: true; questionId: string; sessions: RawSession[] } | { ok: false; event: ImportEvent };

/** Checks the shape of a question and pairs each haystack session with its id and date. */
export function longmemevalQuestionSessions(
  question: unknown,
  ctx: Pick<RecordContext, 'label' | 'index'>,
): QuestionShape {
  const fallback = `LongMemEval question (${itemRef(ctx)})`;
  const skip = (ref: string, why: string): QuestionShape => ({
    ok: false,
    event: { kind: 'skipped', ref, reason: `${ref} ${why}; skipped.` },
  });
  if (!isObject(question)) return skip(fallback, 'is not an object');
  const questionId = stringField(question, 'question_id');
  if (!questionId) return skip(fallback, 'has no question_id');
  const ref = `LongMemEval question ${questionId}`;
  const { haystack_session_ids: ids, haystack_dates: dates, haystack_sessions: sessions } = question;
  if (!Array.isArray(ids) || !Array.isArray(dates) || !Array.isArray(sessions)) {
    return skip(ref, 'lacks haystack_session_ids, haystack_dates or haystack_sessions');
  }
  if (ids.length !== sessions.length || dates.length !== sessions.length) {
    return skip(
      ref,
      `has ${sessions.length} haystack sessions but ${ids.length} session ids and ${dates.length} dates`,
    );
  }
  const out: RawSession[] = sessions.map((turns: unknown, i) => ({
    id: typeof ids[i] === 'string' ? (ids[i] as string) : `${questionId}:session_${i + 1}`,
    date: dates[i],
    turns,
  }));
  return { ok: true, questionId, sessions: out };
}

function readTurn(raw: unknown, dropped: DropCounts): Turn | null {
  if (!isObject(raw)) {
    addDrop(dropped, 'not_a_turn');
    return null;
  }
  const role = stringField(raw, 'role') ?? 'unknown_role';
  if (role !== 'user' && role !== 'assistant') {
    addDrop(dropped, role);
    return null;
  }
  const text = stringField(raw, 'content');
  if (isBlank(text)) {
    addDrop(dropped, 'empty');
    return null;
  }
  const turn: Turn = { role, text: text as string, time: null };
  if (typeof raw.has_answer === 'boolean') turn.meta = { hasAnswer: raw.has_answer };
  return turn;
}

/** One haystack session -> a conversation event (or a skip when its date or turns are unreadable). */
export function longmemevalSessionToEvent(opts: {
  session: RawSession;
  questionIds: string[];
  tz: string;
}): ImportEvent {
  const { session, questionIds, tz } = opts;
  const ref = `LongMemEval session ${session.id}`;
  const createdAt = typeof session.date === 'string' ? parseLongMemEvalDate(session.date, tz) : null;
  if (createdAt === null) {
    return { kind: 'skipped', ref, reason: `${ref} has an unreadable date ${JSON.stringify(session.date)}; skipped.` };
  }
  if (!Array.isArray(session.turns)) {
    return { kind: 'skipped', ref, reason: `${ref} is not a list of turns; skipped.` };
  }
  const dropped: DropCounts = {};
  const turns = session.turns.map((t: unknown) => readTurn(t, dropped)).filter((t): t is Turn => t !== null);
  const conversation: Conversation = {
    source: 'longmemeval',
    externalId: session.id,
    title: `session ${session.id}`,
    createdAt,
    updatedAt: createdAt,
    model: null,
    turns,
    meta: { questionIds },
  };
  return conversationEvent({ conversation, dropped, ref });
}

/** All events of one question's haystack, sorted by session date (the haystack order is not chronological). */
export function longmemevalQuestionToEvents(question: unknown, ctx: RecordContext): ImportEvent[] {
  const shape = longmemevalQuestionSessions(question, ctx);
  if (!shape.ok) return [shape.event];
  const seen = new Set<string>();
  const events: ImportEvent[] = [];
  for (const session of shape.sessions) {
    if (seen.has(session.id)) continue;
    seen.add(session.id);
    events.push(longmemevalSessionToEvent({ session, questionIds: [shape.questionId], tz: ctx.tz }));
  }
  const time = (e: ImportEvent): number => (e.kind === 'conversation' ? e.conversation.createdAt : 0);
  return events.sort((a, b) => time(a) - time(b));
}

/**
 * One LongMemEval question -> the conversations of its haystack, in date order (for the benchmark harness, one world
 * per question). Throws PieError INVALID_DATA when a session cannot be imported.
 */
export function longmemevalQuestionToConversations(question: unknown, tz: string): Conversation[] {
  return conversationsOrThrow(longmemevalQuestionToEvents(question, { tz, label: 'LongMemEval data', index: 0 }));
}
