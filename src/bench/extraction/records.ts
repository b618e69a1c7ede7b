import type { Entity, StateValue } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { WorldRecord } from './match.js';

const FAR = Date.UTC(3000, 0, 1);

const values = (state: Record<string, StateValue>): string =>
  Object.entries(state)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(' ');

const namesOf = (e: Entity | undefined): string[] => (e ? [e.name, ...e.aliases].map((n) => n.toLowerCase()) : []);

/** Everything a world holds that can carry a fact: entities, transitions, relationships, pyramid observations. */
export async function worldRecords(store: WorldStore): Promise<{ records: WorldRecord[]; entities: Entity[] }> {
  const entities = await store.entities.list({ excludeMerged: true });
  const byId = new Map(entities.map((e) => [e.id, e]));
  const records: WorldRecord[] = [];
  for (const e of entities) {
    records.push({
      kind: 'entity',
      episodeId: e.createdFrom,
      time: null,
      about: namesOf(e),
      text: `${e.name} ${e.type} ${values(e.state)}`,
    });
  }
  for (const t of await store.transitions.list()) {
    const e = byId.get(t.entityId);
    records.push({
      kind: 'transition',
      episodeId: t.episodeId,
      time: t.eventTime,
      about: namesOf(e),
      // A conversation's title in a summary ("First mentioned in “Jon & Gina — session 1”") names where, not what.
      text: `${e?.name ?? ''} ${t.summary.replace(/“[^”]*”/g, '')} ${values(t.toState)}`,
    });
  }
  for (const r of await store.relationships.changedBetween({ since: 0, until: FAR })) {
    const a = byId.get(r.sourceId);
    const b = byId.get(r.targetId);
    records.push({
      kind: 'relationship',
      episodeId: r.episodeId,
      time: r.validFrom,
      about: [...namesOf(a), ...namesOf(b)],
      text: `${a?.name ?? ''} ${r.type.toLowerCase().replace(/_/g, ' ')} ${b?.name ?? ''} ${values(r.properties)}`,
    });
  }
  for (const o of await store.pyramid.observations()) {
    records.push({
      kind: 'observation',
      episodeId: o.episodeId,
      time: o.eventTime,
      about: namesOf(o.entityId ? byId.get(o.entityId) : undefined),
      text: o.text,
    });
  }
  return { records, entities };
}
