import { longDate } from '../compile/time-format.js';
import type { QueryContext } from './ask.js';

/**
 * An answer without a model (`pie chat`, the web UI's chat): what the memory holds about the question — the entities
 * the context is built on, with their state and latest changes, and the sources — not the raw prompt. Pure.
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
      .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v === null || v === '' ? '∅' : String(v)}`)
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
