import type { Conversation } from '../../domain/conversation.js';
import { PieError } from '../../domain/errors.js';
import { noteToEvents } from '../../import/notes.js';
import type { TotItem } from './items.js';

/** The day every ToT note is dated (the items have no date of their own); "now" is the day after. */
export const TOT_NOTE_DAY = '2024-01-01';
export const TOT_NOW = Date.UTC(2024, 0, 2, 12);

/**
 * A ToT item as the memory a user would have written: its problem statement as a markdown note, imported by the
 * notes importer (`noteToEvents`, the path of `pie ingest notes/`), so the world is built the way a user's is.
 */
export function totConversation(item: TotItem, tz: string): Conversation {
  const text = `---\ntitle: Test of Time ${item.key}\ndate: ${TOT_NOTE_DAY}\n---\n${item.statement}\n`;
  for (const event of noteToEvents({ id: `tot/${item.key}.md`, text, mtimeMs: TOT_NOW, tz })) {
    if (event.kind === 'conversation') return event.conversation;
  }
  throw new PieError('INTERNAL', `The Test of Time item ${item.key} could not be imported as a note.`);
}
