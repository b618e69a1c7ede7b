/** What `pie chat` prints for a stored statement and for /help; the answer cards without a model are src/query/memory-cards.ts. */
import type { TextIngestResult } from '../../../ingest/ingest-text.js';

export { memoryCards, sourcesText } from '../../../query/memory-cards.js';

/** What `pie chat` prints for a stored statement. */
export function storedText(r: TextIngestResult): string {
  if (r.outcome === 'unchanged') return 'Already remembered (the same text was stored before).';
  if (r.outcome === 'failed')
    return `Stored, but extraction failed (${r.failure ?? 'unknown reason'}); pie ingest retries it.`;
  const entities = r.entities.map((e) => `${e.name}${e.isNew ? ' (new)' : ''}`);
  const changes = r.changes.map((c) => `${c.entity.name}: ${c.summary}`);
  return [
    `Remembered (${r.episodeId}).`,
    entities.length > 0 ? `  About: ${entities.join(', ')}.` : '  No entity recognised in it.',
    ...changes.map((c) => `  Change: ${c}`),
  ].join('\n');
}

export const CHAT_HELP = `Type a question to ask your memory, or tell it something to remember; the route taken is shown.
  /other              take the other route for the last message (ask it, or store it)
  /ask <text>         ask, whatever it looks like      /remember <text>   store, whatever it looks like
  /why                the sources of the last answer   /context           the full compiled context of it
  /timeline <name>    an entity's history               /diff <a> <b>      what changed between two periods or dates
  /sleep [scope]      preview a sleep (daydream|quick|full); /sleep apply [scope] runs it (undoable)
  /consolidate        a light sleep now (importance)    /undo              undo the last sleep
  /backup <file>      write a backup                    /help, /quit       this help; leave (or Ctrl-D)`;
