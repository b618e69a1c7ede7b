/** Small helpers shared by the per-format parsers: reading untyped JSON, counting drops, naming records. */
import type { Conversation, ConversationSource, Turn } from '../domain/conversation.js';
import { PieError } from '../domain/errors.js';
import { describeInstant, isPlausibleTime } from '../domain/time.js';
import type { DropCounts, ImportEvent } from './types.js';

export type JsonObject = Record<string, unknown>;

/** Where a record sits, for its references in warnings and skips, and the zone for local dates. */
export interface RecordContext {
  tz: string;
  /** The file (or zip entry) it came from. */
  label: string;
  /** Its 0-based position in that file. */
  index: number;
}

/** A reference for a record that has no usable title or id. */
export function itemRef(ctx: Pick<RecordContext, 'label' | 'index'>): string {
  return `item ${ctx.index + 1} of ${ctx.label}`;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or undefined when absent or not a string. */
export function stringField(obj: JsonObject, key: string): string | undefined {
  const value = obj[key];
  return typeof value === 'string' ? value : undefined;
}

/** The first of several alternative fields that holds a non-empty string. */
export function firstString(obj: JsonObject, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = obj[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

export function addDrop(counts: DropCounts, kind: string, n = 1): void {
  if (n > 0) counts[kind] = (counts[kind] ?? 0) + n;
}

export function isBlank(text: string | undefined | null): boolean {
  return text === undefined || text === null || text.trim() === '';
}

/** How a record is named in warnings and skip reasons: `conversation "Title" (id)`. */
export function recordRef(opts: { kind: string; title: string | undefined; id: string | undefined }): string {
  const named = opts.title && opts.title.trim() !== '' ? ` "${oneLine(opts.title, 80)}"` : '';
  const withId = opts.id ? ` (${opts.id})` : '';
  return `${opts.kind}${named}${withId}`;
}

export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A title for a conversation whose source has none: the start of its first user turn. */
export function fallbackTitle(turns: readonly Turn[]): string {
  const first = turns.find((t) => t.role === 'user') ?? turns[0];
  return first ? oneLine(first.text, 80) : 'Untitled conversation';
}

/**
 * Keeps a source time when it is plausible; otherwise returns null and counts it so that the caller can warn once
 * per conversation rather than once per message.
 */
export class TimeChecker {
  readonly absurd: string[] = [];

  check(ms: number | null | undefined, what: string): number | null {
    if (ms === null || ms === undefined) return null;
    if (isPlausibleTime(ms)) return ms;
    this.absurd.push(`${what} (${describeInstant(ms)})`);
    return null;
  }

  /** A warning event summarising the absurd times, if any. */
  warning(ref: string): ImportEvent[] {
    if (this.absurd.length === 0) return [];
    const examples = this.absurd.slice(0, 3).join(', ');
    const more = this.absurd.length > 3 ? ` and ${this.absurd.length - 3} more` : '';
    return [
      {
        kind: 'warning',
        ref,
        message: `${ref} has ${this.absurd.length} impossible timestamp(s) (before 1990 or after 2100): ${examples}${more}; they were ignored.`,
      },
    ];
  }
}

/** Earliest and latest non-null turn times. */
export function turnTimeRange(turns: readonly Turn[]): { min: number | null; max: number | null } {
  let min: number | null = null;
  let max: number | null = null;
  for (const t of turns) {
    if (t.time === null) continue;
    if (min === null || t.time < min) min = t.time;
    if (max === null || t.time > max) max = t.time;
  }
  return { min, max };
}

/**
 * A conversation's times: its own creation time, else its earliest message, else its update time; the update time
 * is never before the creation time. Null when there is no plausible time at all (the caller skips it).
 */
export function conversationTimes(opts: {
  created: number | null;
  updated: number | null;
  turns: readonly Turn[];
}): { createdAt: number; updatedAt: number } | null {
  const range = turnTimeRange(opts.turns);
  const createdAt = opts.created ?? range.min ?? opts.updated;
  if (createdAt === null) return null;
  return { createdAt, updatedAt: Math.max(opts.updated ?? range.max ?? createdAt, createdAt) };
}

/** The skip for a conversation without any plausible time; `fields` names the source's time fields. */
export function noTimeSkip(ref: string, fields: string): ImportEvent {
  return {
    kind: 'skipped',
    ref,
    reason: `${ref} has no plausible time (${fields} and message times are missing or impossible); skipped.`,
  };
}

/** The event for a finished conversation, or a skip when nothing of it is left to import. */
export function conversationEvent(opts: { conversation: Conversation; dropped: DropCounts; ref: string }): ImportEvent {
  // Every time is bounded on the way in, whatever the format: a conversation whose own time is impossible is
  // skipped and said; an impossible message time is dropped (the conversation's time stands for it).
  const c = opts.conversation;
  if (!isPlausibleTime(c.createdAt)) {
    return {
      kind: 'skipped',
      ref: opts.ref,
      reason: `${opts.ref} has an impossible time (${describeInstant(c.createdAt)}; PIE accepts 1990 to 2100); skipped.`,
    };
  }
  if (!isPlausibleTime(c.updatedAt)) c.updatedAt = c.createdAt;
  for (const t of c.turns) if (t.time !== null && !isPlausibleTime(t.time)) t.time = null;
  if (opts.conversation.turns.length === 0) {
    const counts = Object.entries(opts.dropped)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ');
    return {
      kind: 'skipped',
      ref: opts.ref,
      reason: `${opts.ref} has no user or assistant text${counts ? ` (dropped: ${counts})` : ''}; skipped.`,
    };
  }
  return { kind: 'conversation', conversation: opts.conversation, dropped: opts.dropped };
}

/**
 * The end of reading one conversation of a ChatGPT or Claude export: the time warnings, then the conversation (dated
 * by conversationTimes, titled by its own title or its first words) or the skip that says why not. `created` and
 * `updated` are the conversation's own times, already checked by `times`; `timeFields` names them for the skip.
 */
export function exportConversationEvents(o: {
  source: ConversationSource;
  externalId: string;
  title: string | undefined;
  model: string | null;
  created: number | null;
  updated: number | null;
  timeFields: string;
  turns: Turn[];
  dropped: DropCounts;
  times: TimeChecker;
  ref: string;
}): ImportEvent[] {
  const events = o.times.warning(o.ref);
  const dated = conversationTimes({ created: o.created, updated: o.updated, turns: o.turns });
  if (dated === null) return [...events, noTimeSkip(o.ref, o.timeFields)];
  const conversation: Conversation = {
    source: o.source,
    externalId: o.externalId,
    title: o.title !== undefined && o.title.trim() !== '' ? o.title : fallbackTitle(o.turns),
    ...dated,
    model: o.model,
    turns: o.turns,
  };
  return [...events, conversationEvent({ conversation, dropped: o.dropped, ref: o.ref })];
}

/** For the benchmark helpers: the conversations of a record, or an INVALID_DATA error naming the first skip. */
export function conversationsOrThrow(events: readonly ImportEvent[]): Conversation[] {
  const out: Conversation[] = [];
  for (const event of events) {
    if (event.kind === 'skipped') throw new PieError('INVALID_DATA', event.reason, { details: { ref: event.ref } });
    if (event.kind === 'conversation') out.push(event.conversation);
  }
  return out;
}
