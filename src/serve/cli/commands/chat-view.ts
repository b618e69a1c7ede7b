import type { QueryContext } from '../../../query/ask.js';
import type { TextIngestResult } from '../../../ingest/ingest-text.js';
import { longDate } from '../../../compile/time-format.js';

/**
 * What `pie chat` prints. Without a model an answer is what the memory holds about the question — the entities the
 * context is built on, with their state and latest changes, and the sources — not the raw prompt. Pure.
 */
export function memoryCards(context: QueryContext, tz: string, max = 5): string {
  const blocks = context.subgraph.entities.slice(0, max);
  if (blocks.length === 0) {
    return context.sources.length > 0
      ? `Nothing in the world model matches directly; the conversations that do:\n${sourcesText(context, tz)}`
      : 'Your memory holds nothing about that yet.';
  }
  const lines: string[] = [];
  for (const b of blocks) {
    const e = b.entity;
    const state = Object.entries(e.state)
      .filter(([k]) => k !== 'category')
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${String(v)}`)
      .join('; ');
    lines.push(`• ${e.name} (${e.type})${state ? ` — ${state}` : ''}`);
    for (const t of b.transitions.filter((x) => x.kind !== 'creation').slice(-3)) {
      lines.push(`    ${longDate(t.eventTime, tz)}: ${t.summary}`);
    }
  }
  if (context.sources.length > 0) lines.push('', sourcesText(context, tz));
  return lines.join('\n');
}

export function sourcesText(context: QueryContext, tz: string, max = 5): string {
  const shown = context.sources.slice(0, max);
  const more = context.sources.length - shown.length;
  return [
    'Sources:',
    ...shown.map((s) => `  [${s.n}] ${s.title} (${longDate(s.time, tz)})`),
    ...(more > 0 ? [`  … and ${more} more`] : []),
  ].join('\n');
}

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
