import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { createRng, pick } from './prng.js';

/**
 * A synthetic ChatGPT export at the scale of the spec's real history: 4,758 conversations, ~17k user and ~24k
 * assistant messages, ~16M tokens, April 2023 to January 2026. Written as a stream so memory stays flat.
 * The text is plausible English-like filler built from a fixed vocabulary; it exercises size, not meaning.
 */
export interface ExportShape {
  conversations: number;
  userMessages: number;
  assistantMessages: number;
  /** Target total characters of message text (~4 chars per token). */
  textChars: number;
  start: number;
  end: number;
  seed: number;
}

export const SPEC_SCALE: ExportShape = {
  conversations: 4758,
  userMessages: 17_000,
  assistantMessages: 24_000,
  textChars: 16_000_000 * 4,
  start: Date.UTC(2023, 3, 1),
  end: Date.UTC(2026, 0, 31),
  seed: 42,
};

const WORDS = (
  'the a to of and in that is for it with as on this be are you we can or if not have your from by at but an they ' +
  'project graph memory model data user time code build idea plan research paper team launch week month design api ' +
  'database query python typescript schema agent context state change decision belief tool framework server deploy ' +
  'students school internship startup pitch investor feedback prototype feature release bug fix test review draft ' +
  'knowledge vector search embedding entity relationship period summary question answer think should would could'
).split(' ');

function sentence(rng: () => number): string {
  const n = 6 + Math.floor(rng() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(pick(rng, WORDS));
  const first = words[0] ?? 'the';
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${words.join(' ')}.`;
}

function paragraph(rng: () => number, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const s = sentence(rng);
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(' ');
}

interface Message {
  id: string;
  role: 'user' | 'assistant';
  time: number;
  text: string;
}

function conversationJson(input: { index: number; start: number; messages: Message[]; title: string }): string {
  const rootId = `root-${input.index}`;
  const mapping: Record<string, unknown> = {
    [rootId]: { id: rootId, message: null, parent: null, children: input.messages[0] ? [input.messages[0].id] : [] },
  };
  input.messages.forEach((m, i) => {
    const parent = i === 0 ? rootId : (input.messages[i - 1]?.id ?? rootId);
    const next = input.messages[i + 1];
    mapping[m.id] = {
      id: m.id,
      message: {
        id: m.id,
        author: { role: m.role, name: null, metadata: {} },
        create_time: m.time,
        update_time: null,
        content: { content_type: 'text', parts: [m.text] },
        status: 'finished_successfully',
        end_turn: m.role === 'assistant' ? true : null,
        weight: 1.0,
        metadata: m.role === 'assistant' ? { model_slug: 'gpt-4o', finish_details: { type: 'stop' } } : {},
        recipient: 'all',
      },
      parent,
      children: next ? [next.id] : [],
    };
  });
  const last = input.messages[input.messages.length - 1];
  return JSON.stringify({
    title: input.title,
    create_time: input.start,
    update_time: last ? last.time : input.start,
    mapping,
    moderation_results: [],
    current_node: last ? last.id : rootId,
    plugin_ids: null,
    conversation_id: `conv-${input.index}`,
    id: `conv-${input.index}`,
    default_model_slug: 'gpt-4o',
  });
}

/** Writes the export to `path`; returns what was written. */
export async function writeSyntheticExport(input: { path: string; shape?: ExportShape }): Promise<{
  conversations: number;
  messages: number;
  textChars: number;
  bytes: number;
}> {
  const shape = input.shape ?? SPEC_SCALE;
  const rng = createRng(shape.seed);
  const out = createWriteStream(input.path);
  const totalMessages = shape.userMessages + shape.assistantMessages;
  const charsPerMessage = shape.textChars / totalMessages;
  const span = shape.end - shape.start;
  let messages = 0;
  let textChars = 0;
  let bytes = 0;
  const write = async (chunk: string): Promise<void> => {
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write('[');
  for (let c = 0; c < shape.conversations; c++) {
    const remainingConvs = shape.conversations - c;
    const perConv = Math.max(2, Math.round((totalMessages - messages) / remainingConvs + (rng() - 0.5) * 6));
    const start = (shape.start + (span * c) / shape.conversations + rng() * 3_600_000) / 1000;
    const list: Message[] = [];
    for (let m = 0; m < perConv; m++) {
      // Users write shorter messages than assistants; keep the overall ratio of the spec's history.
      const role: Message['role'] = m === 0 || (m % 2 === 0 && rng() < 0.83) ? 'user' : 'assistant';
      const factor = role === 'user' ? 0.35 : 1.45;
      const text = paragraph(rng, Math.max(20, charsPerMessage * factor * (0.4 + rng() * 1.2)));
      list.push({ id: `m-${c}-${m}`, role, time: start + m * 45, text });
      textChars += text.length;
    }
    messages += list.length;
    await write((c === 0 ? '' : ',') + conversationJson({ index: c, start, messages: list, title: sentence(rng) }));
  }
  await write(']');
  out.end();
  await once(out, 'finish');
  return { conversations: shape.conversations, messages, textChars, bytes };
}
