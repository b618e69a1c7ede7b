/** Finding the notes in a folder: *.md, *.markdown and *.txt, recursively, skipping hidden folders. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { formatFromName } from './detect.js';

const SKIPPED_DIRS = new Set(['node_modules']);

export function isNoteFile(name: string): boolean {
  return formatFromName(name) === 'markdown';
}

/** A file that holds chat data of its own (an export, a chat log, a zip): a folder of notes does not read it. */
export function isDataFile(name: string): boolean {
  return /\.(json|jsonl|ndjson|zip)$/i.test(name);
}

/** A file found in a folder: a note, or a data file the folder import leaves out. */
export interface FolderFile {
  path: string;
  note: boolean;
}

/**
 * The notes and data files under `root`, in a stable (sorted) order; other files (images, PDFs) are not listed.
 * Symbolic links are not followed.
 */
export async function* walkFolder(root: string): AsyncGenerator<FolderFile> {
  const entries = await readdir(root, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* walkFolder(path);
    } else if (entry.isFile()) {
      const note = isNoteFile(entry.name);
      if (note || isDataFile(entry.name)) yield { path, note };
    }
  }
}

/** Note paths under `root`, in a stable (sorted) order. */
export async function* walkNotes(root: string): AsyncGenerator<string> {
  for await (const file of walkFolder(root)) if (file.note) yield file.path;
}

/** Whether a folder holds at least one note. */
export async function hasNotes(root: string): Promise<boolean> {
  for await (const _path of walkNotes(root)) return true;
  return false;
}
