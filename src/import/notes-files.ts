/** Finding the notes in a folder: *.md, *.markdown and *.txt, recursively, skipping hidden folders. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { formatFromName } from './detect.js';

const SKIPPED_DIRS = new Set(['node_modules']);

export function isNoteFile(name: string): boolean {
  return formatFromName(name) === 'markdown';
}

/** Note paths under `root`, in a stable (sorted) order. Symbolic links are not followed. */
export async function* walkNotes(root: string): AsyncGenerator<string> {
  const entries = await readdir(root, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(root, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* walkNotes(path);
    } else if (entry.isFile() && isNoteFile(entry.name)) {
      yield path;
    }
  }
}

/** Whether a folder holds at least one note. */
export async function hasNotes(root: string): Promise<boolean> {
  for await (const _path of walkNotes(root)) return true;
  return false;
}
