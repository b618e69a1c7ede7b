import type { WorldStore } from '../../ports/world-store.js';
import { normalizeName } from '../../resolve/normalize.js';
import type { Mutation } from './mutations.js';

/** Writes planned mutations through the store port, in order. Call inside a transaction. */
export async function executeMutations(input: {
  tx: WorldStore;
  mutations: readonly Mutation[];
  recordedAt: number;
}): Promise<void> {
  const { tx, recordedAt } = input;
  for (const m of input.mutations) {
    switch (m.op) {
      case 'entity.insert':
        await tx.entities.insert({ ...m.entity, normalizedName: normalizeName(m.entity.name) });
        break;
      case 'entity.touch':
        await tx.entities.update(m.id, {
          lastSeen: m.lastSeen,
          firstSeen: m.firstSeen,
          state: m.state,
          updatedAt: recordedAt,
        });
        break;
      case 'entity.rename':
        await tx.entities.update(m.id, { name: m.name, updatedAt: recordedAt });
        break;
      case 'alias.add':
        await tx.entities.addAlias({
          entityId: m.entityId,
          alias: m.alias,
          normalized: normalizeName(m.alias),
          recordedAt,
        });
        break;
      case 'transition.insert':
        await tx.transitions.insert(m.transition);
        break;
      case 'transition.retime':
        await tx.transitions.retime({ id: m.id, eventTime: m.eventTime, episodeId: m.episodeId, summary: m.summary });
        break;
      case 'fact.insert':
        await tx.facts.insert(m.fact);
        break;
      case 'fact.close':
        await tx.facts.close({ id: m.id, validTo: m.validTo, supersededBy: m.supersededBy });
        break;
      case 'fact.backdate':
        await tx.facts.backdate({ id: m.id, validFrom: m.validFrom });
        break;
      case 'relationship.insert':
        await tx.relationships.insert(m.relationship);
        break;
      case 'relationship.close':
        await tx.relationships.close({ id: m.id, validTo: m.validTo });
        break;
      case 'relationship.backdate':
        await tx.relationships.backdate({ id: m.id, validFrom: m.validFrom });
        break;
      case 'relationship.remove':
        await tx.relationships.remove(m.id);
        break;
      case 'period.upsert':
        await tx.periods.upsert(m.period);
        break;
      case 'mention.add':
        await tx.mentions.add({ entityId: m.entityId, episodeId: m.episodeId, time: m.time });
        break;
      case 'episode.annotate':
        await tx.episodes.annotate({
          id: m.id,
          summary: m.summary,
          significance: m.significance,
          userState: m.userState,
        });
        break;
    }
  }
}
