/**
 * The rest of a Claude.ai export, beside conversations.json: `projects.json` (each project's description,
 * instructions and knowledge documents) and `memories.json` (what Claude itself remembers about the user, overall and
 * per project). Each becomes a dated source conversation, so what the user told Claude about a project, and what
 * Claude kept, reach the world model with their provenance like any conversation (docs/import.md "Claude").
 */
import type { Attachment, Conversation, Turn } from '../domain/conversation.js';
import { conversationEvent, isBlank, isObject, itemRef, recordRef, stringField, type JsonObject } from './common.js';
import { parseIsoTime } from './times.js';
import type { ImportEvent } from './types.js';

export interface ExtrasContext {
  tz: string;
  /** The file (or zip entry) it came from. */
  label: string;
  /** When the export was made (the file's modification time): memories carry no date of their own. */
  exportedAt: number;
}

function isoTime(obj: JsonObject, key: string, tz: string): number | null {
  const value = stringField(obj, key);
  return value === undefined ? null : parseIsoTime(value, tz);
}

/** Knowledge documents as attachments (their text is kept and searchable); documents without text are counted. */
function projectDocs(raw: JsonObject, dropped: Record<string, number>): Attachment[] {
  const out: Attachment[] = [];
  for (const doc of Array.isArray(raw.docs) ? raw.docs : []) {
    if (!isObject(doc)) continue;
    const content = stringField(doc, 'content');
    if (isBlank(content)) dropped.document_without_text = (dropped.document_without_text ?? 0) + 1;
    else out.push({ name: stringField(doc, 'filename') ?? 'document', text: content as string });
  }
  return out;
}

/** One element of projects.json → one conversation "Claude project: <name>" dated by the project. */
export function claudeProjectToEvents(raw: unknown, ctx: ExtrasContext & { index: number }): ImportEvent[] {
  if (!isObject(raw)) {
    const ref = itemRef(ctx);
    return [{ kind: 'skipped', ref, reason: `${ref} is not a project object; skipped.` }];
  }
  const id = stringField(raw, 'uuid');
  const name = stringField(raw, 'name');
  const ref = recordRef({ kind: 'project', title: name, id: id ?? itemRef(ctx) });
  if (!id || isBlank(name)) return [{ kind: 'skipped', ref, reason: `${ref} has no uuid or no name; skipped.` }];
  const created = isoTime(raw, 'created_at', ctx.tz) ?? isoTime(raw, 'updated_at', ctx.tz);
  if (created === null) return [{ kind: 'skipped', ref, reason: `${ref} has no created_at date; skipped.` }];
  const updated = Math.max(created, isoTime(raw, 'updated_at', ctx.tz) ?? created);
  const dropped: Record<string, number> = {};
  const docs = projectDocs(raw, dropped);
  const description = stringField(raw, 'description');
  const instructions = stringField(raw, 'prompt_template');
  const turns: Turn[] = [];
  turns.push({
    role: 'user',
    text: `My project ${name as string}${isBlank(description) ? '.' : `: ${(description as string).trim()}`}`,
    time: created,
    ...(docs.length > 0 ? { attachments: docs } : {}),
  });
  if (!isBlank(instructions)) {
    turns.push({
      role: 'user',
      text: `Instructions for Claude in ${name as string}: ${(instructions as string).trim()}`,
      time: updated,
    });
  }
  const conversation: Conversation = {
    source: 'claude',
    externalId: `project:${id}`,
    title: `Claude project: ${name as string}`,
    createdAt: created,
    updatedAt: updated,
    model: null,
    turns,
  };
  return [conversationEvent({ conversation, dropped, ref })];
}

/**
 * memories.json (a list with one object per account: `conversations_memory`, `project_memories` keyed by project
 * uuid) → one conversation "Claude's memory" dated at the export, a turn for the overall memory and one per project
 * (named when projects.json names it).
 */
export function claudeMemoriesToEvents(
  raw: unknown,
  ctx: ExtrasContext & { projectNames: ReadonlyMap<string, string> },
): ImportEvent[] {
  const records = Array.isArray(raw) ? raw : [raw];
  const events: ImportEvent[] = [];
  records.forEach((record, index) => {
    const ref = itemRef({ label: ctx.label, index });
    if (!isObject(record)) {
      events.push({ kind: 'skipped', ref, reason: `${ref} is not a memory object; skipped.` });
      return;
    }
    const turns: Turn[] = [];
    const overall = stringField(record, 'conversations_memory');
    if (!isBlank(overall)) turns.push({ role: 'user', text: (overall as string).trim(), time: ctx.exportedAt });
    const perProject = isObject(record.project_memories) ? record.project_memories : {};
    for (const [projectId, memory] of Object.entries(perProject)) {
      if (typeof memory !== 'string' || isBlank(memory)) continue;
      const project = ctx.projectNames.get(projectId) ?? `project ${projectId}`;
      turns.push({ role: 'user', text: `About ${project}: ${memory.trim()}`, time: ctx.exportedAt });
    }
    if (turns.length === 0) {
      events.push({ kind: 'skipped', ref, reason: `${ref} holds no memory text; skipped.` });
      return;
    }
    const account = stringField(record, 'account_uuid') ?? String(index);
    const conversation: Conversation = {
      source: 'claude',
      externalId: `memory:${account}`,
      title: "Claude's memory of you",
      createdAt: ctx.exportedAt,
      updatedAt: ctx.exportedAt,
      model: null,
      turns,
    };
    events.push(
      conversationEvent({
        conversation,
        dropped: {},
        ref: recordRef({ kind: 'memory', title: undefined, id: account }),
      }),
    );
  });
  return events;
}
