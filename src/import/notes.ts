/**
 * Markdown / text notes: one episode per file, its whole body one user turn (turn.time null). Title from front
 * matter `title`, else the first "# " heading, else the file name. Date from front matter `date` or `created`
 * (a date alone is local midnight in `tz`), else the file's modification time.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, relative, sep } from 'node:path';
import type { Conversation } from '../domain/conversation.js';
import { errorMessage } from '../domain/errors.js';
import { isoString, isPlausibleTime } from '../domain/time.js';
import { oneLine, type JsonObject } from './common.js';
import { splitFrontMatter } from './front-matter.js';
import { walkFolder } from './notes-files.js';
import { parseFlexibleTime } from './times.js';
import type { ImportEvent } from './types.js';

export interface NoteInput {
  /** The note's id: its path relative to the imported folder (or its file name), with "/" separators. */
  id: string;
  text: string;
  mtimeMs: number;
  tz: string;
}

function titleOf(data: JsonObject, body: string, id: string): string {
  const fromMatter = data.title;
  if (typeof fromMatter === 'string' && fromMatter.trim() !== '') return fromMatter.trim();
  if (typeof fromMatter === 'number') return String(fromMatter);
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(body);
  if (heading?.[1]) return heading[1].trim();
  const name = basename(id);
  return name.slice(0, name.length - extname(name).length) || name;
}

function tagsOf(data: JsonObject): string[] | undefined {
  const tags = data.tags;
  if (typeof tags === 'string') return tags.split(/[,\s]+/).filter((t) => t !== '');
  if (Array.isArray(tags)) return tags.filter((t): t is string => typeof t === 'string');
  return undefined;
}

/** One note -> warnings, then its conversation or a skip. Pure. */
export function noteToEvents(note: NoteInput): ImportEvent[] {
  const ref = `note ${note.id}`;
  if (note.text.includes('\u0000')) {
    return [{ kind: 'skipped', ref, reason: `${ref} is not a text file; skipped.` }];
  }
  const events: ImportEvent[] = [];
  const matter = splitFrontMatter(note.text.replace(/^\uFEFF/, ''));
  if (matter.error !== undefined) {
    events.push({
      kind: 'warning',
      ref,
      message: `${ref}: its front matter could not be read (${matter.error}); the note was imported without it.`,
    });
  }
  const body = matter.body.trim();
  if (body === '') {
    events.push({ kind: 'skipped', ref, reason: `${ref} is empty; skipped.` });
    return events;
  }
  const rawDate = matter.data.date ?? matter.data.created;
  let createdAt: number | null = null;
  if (rawDate !== undefined && rawDate !== null) {
    const parsed = parseFlexibleTime(rawDate, note.tz);
    if (isPlausibleTime(parsed)) createdAt = parsed;
    else {
      events.push({
        kind: 'warning',
        ref,
        message: `${ref}: its front matter date ${JSON.stringify(oneLine(String(rawDate), 40))} is not a date PIE can use (write YYYY-MM-DD); the file's modification time was used.`,
      });
    }
  }
  const mtime = isPlausibleTime(note.mtimeMs) ? note.mtimeMs : null;
  createdAt ??= mtime;
  if (createdAt === null) {
    const when = Number.isFinite(note.mtimeMs) ? isoString(note.mtimeMs) : 'unknown';
    events.push({
      kind: 'skipped',
      ref,
      reason: `${ref} has no date in its front matter and its modification time (${when}) is not plausible; add "date: YYYY-MM-DD" to its front matter.`,
    });
    return events;
  }
  const conversation: Conversation = {
    source: 'markdown',
    externalId: note.id,
    title: titleOf(matter.data, body, note.id),
    createdAt,
    updatedAt: Math.max(createdAt, mtime ?? createdAt),
    model: null,
    turns: [{ role: 'user', text: body, time: null }],
    meta: { path: note.id },
  };
  const tags = tagsOf(matter.data);
  if (tags && tags.length > 0) conversation.meta = { ...conversation.meta, tags };
  events.push({ kind: 'conversation', conversation, dropped: {} });
  return events;
}

async function readNote(opts: { path: string; id: string; tz: string }): Promise<ImportEvent[]> {
  try {
    const [text, info] = await Promise.all([readFile(opts.path, 'utf8'), stat(opts.path)]);
    return noteToEvents({ id: opts.id, text, mtimeMs: Number(info.mtimeMs), tz: opts.tz });
  } catch (error) {
    const ref = `note ${opts.id}`;
    return [{ kind: 'skipped', ref, reason: `${ref} could not be read (${errorMessage(error)}); skipped.` }];
  }
}

/** A chat export or log inside a folder of notes is not a note: saying so beats leaving it out unseen. Pure. */
export function leftOutDataFile(id: string): ImportEvent {
  const ref = `file ${id}`;
  return {
    kind: 'skipped',
    ref,
    reason: `${ref} is not a note (a folder import reads .md, .markdown and .txt); ingest it by its own path if it is an export or chat log.`,
  };
}

/** Every note of a folder (ids relative to it), or one note file (id = its file name). */
export async function* importNotes(opts: {
  root: string;
  singleFile: boolean;
  tz: string;
}): AsyncGenerator<ImportEvent> {
  if (opts.singleFile) {
    yield* await readNote({ path: opts.root, id: basename(opts.root), tz: opts.tz });
    return;
  }
  for await (const { path, note } of walkFolder(opts.root)) {
    const id = relative(opts.root, path).split(sep).join('/');
    if (note) yield* await readNote({ path, id, tz: opts.tz });
    else yield leftOutDataFile(id);
  }
}
