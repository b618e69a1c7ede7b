import { PieError } from '../domain/errors.js';
import type { Entity } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import { loadNameIndex } from '../ingest/name-index-loader.js';
import { normalizeName } from '../resolve/normalize.js';
import { jaroWinkler } from '../resolve/similarity.js';

/**
 * Finds an entity by its id, else by name or alias (normalized). When several share the name, the most important
 * (then the most recently seen) wins; the others are reached by their ids (links in the web UI carry them). Unknown
 * names fail with NOT_FOUND and the closest known names as suggestions.
 */
export async function findEntity(input: { store: WorldStore; name: string; type?: string }): Promise<Entity> {
  const key = normalizeName(input.name);
  if (key.length === 0) throw new PieError('INVALID_ARGUMENT', 'Give the name (or an alias) of an entity.');
  const asked = input.name.trim();
  const byId = /\s/.test(asked) ? null : await input.store.entities.get(asked);
  if (byId && (!input.type || byId.type === input.type)) return byId;
  const found = (await input.store.entities.findByKey(key)).filter((e) => !input.type || e.type === input.type);
  const best = found.sort(mostImportantFirst)[0];
  if (best) return best;
  const suggestions = await suggestNames({ store: input.store, name: input.name, limit: 3 });
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  throw new PieError('NOT_FOUND', `No entity is called "${input.name}".${hint} (pie entities lists them.)`, {
    details: { suggestions },
  });
}

/** The other entities with `entity`'s name (as name or alias), most important first: each is reached by its id. */
export async function othersNamed(input: { store: WorldStore; entity: Entity }): Promise<Entity[]> {
  const key = normalizeName(input.entity.name);
  const found = key.length === 0 ? [] : await input.store.entities.findByKey(key);
  return found.filter((e) => e.id !== input.entity.id).sort(mostImportantFirst);
}

/** Of several entities with one name: the most important first, then the most recently seen. */
function mostImportantFirst(a: Entity, b: Entity): number {
  return b.importance - a.importance || b.lastSeen - a.lastSeen;
}

/** The known names and aliases closest to `name`. */
export async function suggestNames(input: { store: WorldStore; name: string; limit: number }): Promise<string[]> {
  const key = normalizeName(input.name);
  const index = await loadNameIndex(input.store);
  const scored: { name: string; score: number }[] = [];
  for (const e of index.entities.values()) {
    for (const n of [e.name, ...e.aliases]) {
      const nk = normalizeName(n);
      const score = Math.max(jaroWinkler(key, nk), nk.includes(key) || key.includes(nk) ? 0.85 : 0);
      if (score >= 0.75) scored.push({ name: n, score });
    }
  }
  return [...new Set(scored.sort((a, b) => b.score - a.score).map((s) => s.name))].slice(0, input.limit);
}
