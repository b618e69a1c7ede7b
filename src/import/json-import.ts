/**
 * Streaming import of the JSON formats: each item of the top-level array (or each entry of the top-level object)
 * goes through its format's record parser. A record that is not valid JSON is skipped; the stream continues.
 */
import { itemRef, type RecordContext } from './common.js';
import { chatgptConversationToEvents } from './chatgpt.js';
import { claudeConversationToEvents } from './claude.js';
import type { ByteSource } from './input.js';
import { streamJsonItems, type JsonItem } from './json-stream.js';
import { locomoSampleToEvents } from './locomo.js';
import { longmemevalSessionToEvent, longmemevalQuestionSessions } from './longmemeval.js';
import { memorybankUserToEvents } from './memorybank.js';
import type { JsonFormat } from './plan.js';
import type { ImportEvent } from './types.js';

interface RecordHandler {
  handle(item: { key: string | null; value: unknown }, ctx: RecordContext): ImportEvent[];
  /** Events after the last record (summaries). */
  finish?(): ImportEvent[];
}

interface HandlerFactoryOptions {
  source: ByteSource;
  tz: string;
}

const stateless = (parse: (value: unknown, ctx: RecordContext) => ImportEvent[]): RecordHandler => ({
  handle: (item, ctx) => parse(item.value, ctx),
});

/**
 * LongMemEval shares sessions between questions. A first pass maps each session id to the questions that include
 * it; the second yields each session once (at its first appearance) with all those question ids.
 */
async function longmemevalHandler(opts: HandlerFactoryOptions): Promise<RecordHandler> {
  const questionsBySession = new Map<string, string[]>();
  const firstDate = new Map<string, unknown>();
  const conflicting = new Set<string>();
  for await (const item of streamJsonItems({
    chunks: opts.source.open(),
    label: opts.source.label,
    objectMode: 'single',
  })) {
    if (item.kind !== 'item') continue;
    const shape = longmemevalQuestionSessions(item.value, { label: opts.source.label, index: item.index });
    if (!shape.ok) continue;
    for (const session of shape.sessions) {
      const ids = questionsBySession.get(session.id) ?? [];
      if (!ids.includes(shape.questionId)) ids.push(shape.questionId);
      questionsBySession.set(session.id, ids);
      if (!firstDate.has(session.id)) firstDate.set(session.id, session.date);
      else if (firstDate.get(session.id) !== session.date) conflicting.add(session.id);
    }
  }
  const seen = new Set<string>();
  return {
    handle(item, ctx) {
      const shape = longmemevalQuestionSessions(item.value, ctx);
      if (!shape.ok) return [shape.event];
      const events: ImportEvent[] = [];
      for (const session of shape.sessions) {
        if (seen.has(session.id)) continue;
        seen.add(session.id);
        const questionIds = questionsBySession.get(session.id) ?? [shape.questionId];
        events.push(longmemevalSessionToEvent({ session, questionIds, tz: ctx.tz }));
      }
      const time = (e: ImportEvent): number => (e.kind === 'conversation' ? e.conversation.createdAt : 0);
      return events.sort((a, b) => time(a) - time(b));
    },
    finish() {
      if (conflicting.size === 0) return [];
      const examples = [...conflicting].slice(0, 3).join(', ');
      return [
        {
          kind: 'warning',
          ref: opts.source.label,
          message: `${conflicting.size} haystack session(s) appear under several questions with different dates (e.g. ${examples}); each was imported once, with the date of its first appearance.`,
        },
      ];
    },
  };
}

const FORMATS: Record<
  JsonFormat,
  { objectMode: 'entries' | 'single'; create(opts: HandlerFactoryOptions): Promise<RecordHandler> }
> = {
  chatgpt: { objectMode: 'single', create: () => Promise.resolve(stateless(chatgptConversationToEvents)) },
  claude: { objectMode: 'single', create: () => Promise.resolve(stateless(claudeConversationToEvents)) },
  locomo: { objectMode: 'single', create: () => Promise.resolve(stateless(locomoSampleToEvents)) },
  longmemeval: { objectMode: 'single', create: longmemevalHandler },
  memorybank: {
    objectMode: 'entries',
    create: () =>
      Promise.resolve({
        handle: (item, ctx) =>
          memorybankUserToEvents({ key: item.key ?? `user ${ctx.index + 1}`, value: item.value }, ctx),
      }),
  },
};

function invalidItem(item: Extract<JsonItem, { kind: 'invalid' }>, label: string): ImportEvent {
  const ref = item.key === null ? itemRef({ label, index: item.index }) : `entry "${item.key}" of ${label}`;
  return { kind: 'skipped', ref, reason: `${ref} is ${item.reason}; skipped.` };
}

export async function* importJsonRecords(opts: {
  source: ByteSource;
  format: JsonFormat;
  tz: string;
}): AsyncGenerator<ImportEvent> {
  const { source, format, tz } = opts;
  const spec = FORMATS[format];
  const handler = await spec.create({ source, tz });
  const items = streamJsonItems({ chunks: source.open(), label: source.label, objectMode: spec.objectMode });
  for await (const item of items) {
    if (item.kind === 'invalid') {
      yield invalidItem(item, source.label);
      continue;
    }
    yield* handler.handle(item, { tz, label: source.label, index: item.index });
  }
  if (handler.finish) yield* handler.finish();
}
