import type { WorldStore } from '../ports/world-store.js';
import type { Embedder } from '../ports/embedder.js';
import { NameIndex } from '../resolve/name-index.js';
import { Resolver, type MatchVerifier } from '../resolve/resolver.js';
import { SELF_ID } from '../world/apply-batch.js';

/**
 * Builds the resolution index from every entity in the world (archived ones included: they can be revived), except
 * those merged into another: a mention of a merged name resolves to the entity that absorbed it, through its alias.
 */
export async function loadNameIndex(store: WorldStore): Promise<NameIndex> {
  const index = new NameIndex();
  const page = 5000;
  for (let offset = 0; ; offset += page) {
    const entities = await store.entities.list({ limit: page, offset, orderBy: 'name', excludeMerged: true });
    for (const e of entities) {
      const fixedName = e.protected || e.id === SELF_ID;
      index.add({ id: e.id, type: e.type, name: e.name, aliases: e.aliases, ...(fixedName ? { fixedName } : {}) });
    }
    if (entities.length < page) break;
  }
  return index;
}

/**
 * The name index and a resolver over it, built from the world as it is now. Rebuilt after a failed apply: the
 * rolled-back batch may already have added names to the in-memory index.
 */
export async function loadResolution(input: {
  store: WorldStore;
  embedder?: Embedder | undefined;
  verifier?: MatchVerifier | undefined;
}): Promise<{ index: NameIndex; resolver: Resolver }> {
  const index = await loadNameIndex(input.store);
  return { index, resolver: new Resolver({ index, embedder: input.embedder, verifier: input.verifier }) };
}
