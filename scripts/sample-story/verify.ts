/**
 * Checks the generated export against the story and the ground truth, and stamps ground-truth events with dates
 * taken from the export itself. Any mismatch throws: the sample must never disagree with its README.
 */
import type { ExportConversation, ExportMessage } from './export-types.js';
import type { Distractor, TruthEvent, TruthPeriod } from './truth.js';
import type { StoryConversation } from './types.js';

export interface BuiltConversation {
  story: StoryConversation;
  exported: ExportConversation;
}

/** Messages on the active branch, root first: walk from current_node up the parent chain, then reverse. */
export function activePath(conv: ExportConversation): ExportMessage[] {
  const path: ExportMessage[] = [];
  const seen = new Set<string>();
  let id: string | null = conv.current_node;
  while (id !== null) {
    if (seen.has(id)) throw new Error(`${conv.title}: cycle at node ${id}`);
    seen.add(id);
    const node: ExportConversation['mapping'][string] | undefined = conv.mapping[id];
    if (!node) throw new Error(`${conv.title}: node ${id} is missing from the mapping`);
    if (node.message) path.push(node.message);
    id = node.parent;
  }
  return path.reverse();
}

/** Text a person typed: user messages with text or multimodal content (hidden context excluded). */
export function userText(message: ExportMessage): string | null {
  if (message.author.role !== 'user' || message.metadata.is_visually_hidden_from_conversation) return null;
  const c = message.content;
  if (c.content_type === 'text') return c.parts.join('\n');
  if (c.content_type === 'multimodal_text') return c.parts.filter((p) => typeof p === 'string').join('\n');
  return null;
}

function allUserTexts(conv: ExportConversation): string[] {
  return Object.values(conv.mapping).flatMap((n) => {
    const text = n.message ? userText(n.message) : null;
    return text === null ? [] : [text];
  });
}

const utcDay = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

export function checkConversation({ story, exported }: BuiltConversation): void {
  const ids = new Set<string>();
  for (const [key, node] of Object.entries(exported.mapping)) {
    if (key !== node.id) throw new Error(`${story.key}: mapping key ${key} differs from node id ${node.id}`);
    if (node.message && node.message.id !== node.id) throw new Error(`${story.key}: message id differs at ${key}`);
    for (const child of node.children) {
      if (exported.mapping[child]?.parent !== key) throw new Error(`${story.key}: child ${child} has another parent`);
    }
    ids.add(key);
  }
  const path = activePath(exported);
  const times = path.flatMap((m) => (m.create_time === null ? [] : [m.create_time]));
  times.forEach((t, i) => {
    const prev = times[i - 1];
    if (prev !== undefined && t <= prev) throw new Error(`${story.key}: times do not increase on the active path`);
  });
  // Local date == UTC date for every message, so a statement's date does not depend on the reader's time zone.
  const allowed = new Set([story.at, ...story.turns.flatMap((t) => (t.role === 'user' && t.at ? [t.at] : []))]);
  const days = new Set([...allowed].map((iso) => iso.slice(0, 10)));
  for (const t of times) {
    if (!days.has(utcDay(t))) throw new Error(`${story.key}: a message falls on ${utcDay(t)} UTC, not ${[...days]}`);
  }
  const last = times[times.length - 1];
  if (last === undefined || exported.update_time < last) throw new Error(`${story.key}: bad update_time`);
}

export interface DatedEvent extends TruthEvent {
  date: string;
  conversationId: string;
  title: string;
}

function findQuote(built: BuiltConversation[], conv: string, quote: string): { date: string; b: BuiltConversation } {
  const b = built.find((x) => x.story.key === conv);
  if (!b) throw new Error(`Ground truth names an unknown conversation: ${conv}`);
  const hit = activePath(b.exported).find((m) => userText(m)?.includes(quote));
  if (!hit || hit.create_time === null) throw new Error(`${conv}: quote not on the active path: "${quote}"`);
  return { date: utcDay(hit.create_time), b };
}

export function dateEvents(built: BuiltConversation[], events: TruthEvent[]): DatedEvent[] {
  return events.map((e) => {
    const { date, b } = findQuote(built, e.conv, e.quote);
    return { ...e, date, conversationId: b.exported.conversation_id, title: b.exported.title };
  });
}

export function checkPeriods(built: BuiltConversation[], periods: TruthPeriod[]): void {
  for (const p of periods) for (const ev of p.evidence) findQuote(built, ev.conv, ev.quote);
}

export function checkDistractors(built: BuiltConversation[], distractors: Distractor[]): void {
  for (const d of distractors) {
    const b = built.find((x) => x.story.key === d.conv);
    if (!b) throw new Error(`Distractor names an unknown conversation: ${d.conv}`);
    const onPath = activePath(b.exported).some((m) => userText(m)?.includes(d.quote));
    const anywhere = allUserTexts(b.exported).some((t) => t.includes(d.quote));
    const raw = JSON.stringify(b.exported).includes(JSON.stringify(d.quote).slice(1, -1));
    const ok = d.where === 'active' ? onPath : d.where === 'abandoned-branch' ? anywhere && !onPath : raw && !anywhere;
    if (!ok) throw new Error(`${d.conv}: distractor not where the ground truth says (${d.where}): "${d.quote}"`);
  }
}
