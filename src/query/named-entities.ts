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
  const q = questionKey(input.question);
  const matches: { entity: Entity; start: number; length: number }[] = [];
  for (const entity of input.entities) {
    if (entity.type === 'period') continue;
    const best = longestName(q, entity);
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

/** How a question names an entity: the name or alias it holds, and whether that is the whole question. */
export interface NameMatch {
  /** The entity's name or alias as the entity spells it. */
  name: string;
  /** The whole question is that name (after normalizing: case, punctuation, a possessive). */
  exact: boolean;
}

/** Pure: the longest name or alias of `entity` the question holds as a whole phrase, or null when it holds none. */
export function nameInQuestion(input: {
  question: string;
  entity: Pick<Entity, 'name' | 'aliases'>;
}): NameMatch | null {
  const q = questionKey(input.question);
  const best = longestName(q, input.entity);
  return best ? { name: best.name, exact: best.length === q.length - 2 } : null;
}

/** The question as names are compared with it: normalized, padded with a space on each side. */
function questionKey(question: string): string {
  // Possessives go before normalizing: the resolver's key for "Maya's" is "mayas", the question means Maya.
  return ` ${normalizeName(question.replace(/[’']s\b/g, ''))} `;
}

function longestName(
  q: string,
  entity: Pick<Entity, 'name' | 'aliases'>,
): { name: string; start: number; length: number } | null {
  let best: { name: string; start: number; length: number } | null = null;
  for (const name of [entity.name, ...entity.aliases]) {
    const key = normalizeName(name);
    if (key.length < 2) continue;
    const at = q.indexOf(` ${key} `);
    if (at >= 0 && (!best || key.length > best.length)) best = { name, start: at, length: key.length };
  }
  return best;
}
