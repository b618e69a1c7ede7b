import type { Entity } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import { normalizeName } from '../resolve/normalize.js';
import { keywordText } from './keywords.js';

/** Candidates read from the name index before checking which are really named. */
const CANDIDATES = 40;

/**
 * The entities a question names: candidates from the full-text index of names and aliases, kept when the whole
 * name (or an alias) occurs as a phrase in the question. Longer names win over names they contain ("Tidepool
 * app" over "Tidepool"); period entities are left to the time parser. Most specific first.
 */
export async function findNamedEntities(input: { store: WorldStore; question: string }): Promise<Entity[]> {
  const text = keywordText(input.question);
  if (text === null) return [];
  // 'fill': a one-word name must stay a candidate even when another entity shares two words with the question.
  const hits = await input.store.search.entities({ text, limit: CANDIDATES, mode: 'fill' });
  const entities = await input.store.entities.getMany(hits.map((h) => h.entityId));
  return pickNamed({ question: input.question, entities });
}

/** Pure part of findNamedEntities: which of `entities` the question names, most specific first. */
export function pickNamed(input: { question: string; entities: readonly Entity[] }): Entity[] {
  // Possessives go before normalizing: the resolver's key for "Maya's" is "mayas", the question means Maya.
  const q = ` ${normalizeName(input.question.replace(/[’']s\b/g, ''))} `;
  const matches: { entity: Entity; start: number; length: number }[] = [];
  for (const entity of input.entities) {
    if (entity.type === 'period') continue;
    let best: { start: number; length: number } | null = null;
    for (const name of [entity.name, ...entity.aliases]) {
      const key = normalizeName(name);
      if (key.length < 2) continue;
      const at = q.indexOf(` ${key} `);
      if (at >= 0 && (!best || key.length > best.length)) best = { start: at, length: key.length };
    }
    if (best) matches.push({ entity, ...best });
  }
  matches.sort((a, b) => b.length - a.length || b.entity.importance - a.entity.importance || a.start - b.start);
  const taken: { start: number; end: number }[] = [];
  const out: Entity[] = [];
  for (const m of matches) {
    const end = m.start + m.length;
    if (taken.some((t) => m.start >= t.start && end <= t.end)) continue;
    taken.push({ start: m.start, end });
    if (!out.some((e) => e.id === m.entity.id)) out.push(m.entity);
  }
  return out;
}
