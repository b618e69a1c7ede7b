import type { Fact, StateValue } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';

/** One value an attribute held, from when until when (null: still current). */
export interface AttributeValue {
  value: StateValue;
  from: number;
  to: number | null;
  episodeId: string | null;
}

/** How one attribute of an entity changed: its values in time order (the latest `perAttribute` of them). */
export interface AttributeLane {
  attribute: string;
  values: AttributeValue[];
  /** Every value it ever held (before the cap). */
  total: number;
}

/**
 * An entity's state history per attribute, from its facts (each fact is one value held from validFrom to validTo):
 * attributes with the most changes first, then by name; each lane's latest `perAttribute` values, oldest first.
 */
export async function attributeHistory(input: {
  store: WorldStore;
  entityId: string;
  perAttribute: number;
  maxAttributes: number;
}): Promise<{ lanes: AttributeLane[]; attributesTotal: number }> {
  const facts = await input.store.facts.history(input.entityId);
  const byAttribute = new Map<string, Fact[]>();
  for (const f of facts) {
    const list = byAttribute.get(f.attribute) ?? [];
    list.push(f);
    byAttribute.set(f.attribute, list);
  }
  const lanes = [...byAttribute].map(([attribute, list]): AttributeLane => {
    const sorted = [...list].sort((a, b) => a.validFrom - b.validFrom || a.recordedAt - b.recordedAt);
    return {
      attribute,
      values: sorted.slice(-input.perAttribute).map((f) => ({
        value: f.value,
        from: f.validFrom,
        to: f.validTo,
        episodeId: f.episodeId,
      })),
      total: sorted.length,
    };
  });
  lanes.sort((a, b) => b.total - a.total || a.attribute.localeCompare(b.attribute));
  return { lanes: lanes.slice(0, input.maxAttributes), attributesTotal: lanes.length };
}
