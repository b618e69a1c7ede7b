import type { ExtractionResult } from '../extract/result.js';
import type { NameIndex } from '../resolve/name-index.js';
import { normalizeName } from '../resolve/normalize.js';
import type { Resolution, ResolutionLayer, Resolver } from '../resolve/resolver.js';
import { SELF_NAMES } from './apply/context.js';
import type { NameRef } from './apply/working-set.js';

export interface NameResolutionReport {
  refs: Map<string, NameRef>;
  layers: Partial<Record<ResolutionLayer, number>>;
  /** Mentions that were close to an existing entity but not merged (work for the sleep cycle). */
  ambiguous: {
    name: string;
    candidates: string[];
    /** The new entity the mention became, and the ids of the close ones. */
    entityId: string;
    candidateIds: string[];
    verifierError?: string;
  }[];
}

interface Mention {
  name: string;
  type: string | undefined;
  /** Type for a new entity when the mention itself has none. */
  fallbackType: string;
  aliases: string[];
}

/** Relationship types that tell what kind of thing sits at each end. */
const ENDPOINT_TYPES: Record<string, [string | undefined, string | undefined]> = {
  WORKS_ON: ['person', 'project'],
  COLLABORATES_WITH: ['person', 'person'],
  FAMILY_OF: ['person', 'person'],
  MENTORS: ['person', 'person'],
  USES: [undefined, 'tool'],
  BUILT_WITH: ['project', 'tool'],
  MEMBER_OF: ['person', 'organization'],
  WORKS_AT: ['person', 'organization'],
  STUDIES_AT: ['person', 'organization'],
  LIVES_IN: ['person', 'place'],
  MOVED_TO: ['person', 'place'],
};

/** Every name the result mentions, in the order resolution should see them (declared entities first). */
export function mentionsOf(result: ExtractionResult): Mention[] {
  const m: Mention[] = [];
  const add = (
    name: string,
    type: string | undefined,
    fallbackType = type ?? 'concept',
    aliases: string[] = [],
  ): void => {
    m.push({ name, type, fallbackType, aliases });
  };
  for (const e of result.entities) add(e.name, e.type, e.type, e.aliases);
  for (const b of result.beliefs) add(b.statement, 'belief');
  for (const b of result.beliefs) if (b.replaces) add(b.replaces, 'belief');
  for (const d of result.decisions) add(d.summary, 'decision');
  if (result.periodContext) add(result.periodContext, 'period');
  for (const l of result.locations) add(l, 'place');
  for (const c of result.stateChanges) add(c.entityName, undefined);
  for (const r of result.relationships) {
    const [s, t] = ENDPOINT_TYPES[r.type] ?? [undefined, undefined];
    add(r.source, undefined, s ?? 'concept');
    add(r.target, undefined, t ?? 'concept');
  }
  for (const d of result.decisions) for (const name of d.relatedEntities) add(name, undefined);
  for (const a of result.actions) {
    add(a.actor, undefined, 'person');
    add(a.object, undefined);
  }
  return m;
}

/**
 * Resolves every name in a result to an entity: an existing one (through the resolution layers, trying the
 * declared aliases too) or a new one with a fresh id, added to the index at once so later mentions in the same
 * batch find it. A mention resolved by anything but its exact canonical name is recorded as an alias, so the next
 * mention resolves at the first layer.
 */
export async function resolveNames(input: {
  result: ExtractionResult;
  resolver: Resolver;
  index: NameIndex;
  newId: () => string;
}): Promise<NameResolutionReport> {
  const { index } = input;
  const refs = new Map<string, NameRef>();
  const layers: Partial<Record<ResolutionLayer, number>> = {};
  const ambiguous: NameResolutionReport['ambiguous'] = [];

  for (const mention of mentionsOf(input.result)) {
    const key = normalizeName(mention.name);
    if (key.length === 0 || SELF_NAMES.has(key)) continue;
    const known = refs.get(key);
    if (known) {
      for (const alias of mention.aliases) addAlias(known, alias, index);
      continue;
    }
    let resolution: Resolution = await input.resolver.resolve({ name: mention.name, type: mention.type });
    for (const alias of mention.aliases) {
      if (resolution.entityId !== null) break;
      const byAlias = await input.resolver.resolve({ name: alias, type: mention.type });
      if (byAlias.entityId !== null && byAlias.layer !== 'fuzzy') resolution = byAlias;
    }
    layers[resolution.layer] = (layers[resolution.layer] ?? 0) + 1;
    let ref: NameRef;
    const matched = resolution.entityId === null ? undefined : index.entities.get(resolution.entityId);
    if (matched && resolution.canonicalName !== undefined && resolution.canonicalName !== matched.name) {
      // A more complete name of a known entity ("Maya Chen" for "Maya"): it becomes the name, the old one an alias.
      const previous = matched.name;
      index.rename(matched.id, resolution.canonicalName);
      const earlier = [...refs.values()].filter((r) => r.id === matched.id);
      const isNew = earlier.some((r) => r.isNew);
      ref = { id: matched.id, type: matched.type, name: matched.name, isNew, aliases: [], renamedFrom: previous };
      // Mentions of the old name earlier in this result point at the entity under its new name.
      for (const other of earlier) Object.assign(other, { name: matched.name, renamedFrom: previous });
    } else if (matched) {
      ref = { id: matched.id, type: matched.type, name: matched.name, isNew: false, aliases: [] };
      addAlias(ref, mention.name, index);
    } else {
      ref = {
        id: input.newId(),
        type: mention.type ?? mention.fallbackType,
        name: mention.name.trim(),
        isNew: true,
        aliases: [],
      };
      if (resolution.ambiguous.length > 0) {
        ambiguous.push({
          name: mention.name,
          candidates: resolution.ambiguous.map((c) => c.name),
          entityId: ref.id,
          candidateIds: resolution.ambiguous.map((c) => c.id),
          ...(resolution.verifierError ? { verifierError: resolution.verifierError } : {}),
        });
      }
      index.add({ id: ref.id, type: ref.type, name: ref.name, aliases: [] });
    }
    for (const alias of mention.aliases) addAlias(ref, alias, index);
    refs.set(key, ref);
  }
  return { refs, layers, ambiguous };
}

function addAlias(ref: NameRef, alias: string, index: NameIndex): void {
  const key = normalizeName(alias);
  if (key.length === 0 || key === normalizeName(ref.name)) return;
  const entity = index.entities.get(ref.id);
  if (entity?.aliases.some((a) => normalizeName(a) === key)) return;
  if (ref.aliases.some((a) => normalizeName(a) === key)) return;
  ref.aliases.push(alias.trim());
  index.addAlias(ref.id, alias.trim());
}
