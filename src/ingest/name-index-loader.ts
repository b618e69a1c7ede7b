import type { WorldStore } from '../ports/world-store.js';
import { NameIndex } from '../resolve/name-index.js';

/** Builds the resolution index from every entity in the world (archived ones included: they can be revived). */
export async function loadNameIndex(store: WorldStore): Promise<NameIndex> {
  const index = new NameIndex();
  const page = 5000;
  for (let offset = 0; ; offset += page) {
    const entities = await store.entities.list({ limit: page, offset, orderBy: 'name' });
    for (const e of entities) index.add({ id: e.id, type: e.type, name: e.name, aliases: e.aliases });
    if (entities.length < page) break;
  }
  return index;
}
