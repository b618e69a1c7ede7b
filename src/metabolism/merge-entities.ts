import { PieError } from '../domain/errors.js';
import type { Entity, EntityState, Relationship, StateValue } from '../domain/world.js';
import type { MaintainedTable, RawRow } from '../ports/maintenance-store.js';
import { aliasRowId, mentionRowId } from '../ports/maintenance-store.js';
import type { WorldStore } from '../ports/world-store.js';
import type { RunJournal } from './journal.js';
import { plural } from '../domain/humanize.js';

/** What one merge moved (also what a dry run reports it would move). */
export interface MergeCounts {
  transitions: number;
  facts: number;
  /** Current facts of the duplicate closed because the canonical entity has its own value for the attribute. */
  factsSuperseded: number;
  relationships: number;
  /** Relationships folded into an identical one the canonical entity already had (closed, not deleted). */
  relationshipsFolded: number;
  mentions: number;
  aliases: number;
  /** Attributes the canonical entity gained from the duplicate's current state. */
  filled: string[];
}

export interface MergeInput {
  store: WorldStore;
  journal: RunJournal;
  canonical: Entity;
  duplicate: Entity;
  now: number;
  newId: () => string;
  /** Why they were merged (goes into the meta and the merge transition). */
  reason: string;
}

/** Reads a raw row, hands it to `edit`, writes the result, all journaled (edit returns null to delete). */
async function put(
  input: Pick<MergeInput, 'store' | 'journal'>,
  table: MaintainedTable,
  id: string,
  edit: (row: RawRow | null) => RawRow | null,
): Promise<void> {
  await input.journal.change(table, id, async () => {
    const row = await input.store.upkeep.getRow({ table, id });
    await input.store.upkeep.putRow({ table, id, row: edit(row) });
  });
}

function exists(row: RawRow | null, what: string): RawRow {
  if (row === null) throw new PieError('DB_CORRUPT', `${what} disappeared during a merge.`);
  return row;
}

const LIVELINESS: Record<Entity['tier'], number> = { active: 0, summarized: 1, archived: 2 };

/** The tier of the merged entity: the livelier of the two (an archived record absorbing an active one wakes up). */
export function mergedTier(a: Entity['tier'], b: Entity['tier']): Entity['tier'] {
  return LIVELINESS[a] <= LIVELINESS[b] ? a : b;
}

function missingProperties(kept: Relationship, dropped: Relationship): Record<string, StateValue> | null {
  const extra = Object.entries(dropped.properties).filter(([k]) => !(k in kept.properties));
  return extra.length === 0 ? null : { ...kept.properties, ...Object.fromEntries(extra) };
}

/**
 * Merges `duplicate` into `canonical` inside the cycle's transaction, every row through the journal, keeping both
 * histories (the same outcome as KIP's MERGE, at the level of PIE's tables):
 * - the duplicate's transitions and facts move to the canonical entity with their ids; a current fact for an
 *   attribute the canonical entity already has a current fact for is closed, superseded by the canonical's (the
 *   canonical value wins, as in MERGE); its other current facts fill the canonical state;
 * - its relationships move (ids kept); one that would repeat an open edge of the canonical entity is folded into it
 *   (the kept edge gains the property keys it lacked; the moved one is closed), and an edge between the two closes;
 * - its mentions and aliases move; its name becomes an alias of the canonical entity;
 * - the canonical entity's first/last seen widen, access counts add up, importance and tier are the higher and
 *   livelier of the two, and one transition records the merge; the duplicate stays in the database, archived, with `merged_into` set.
 */
export async function mergeEntities(input: MergeInput): Promise<MergeCounts> {
  const { store, canonical, duplicate, now } = input;
  const counts: MergeCounts = {
    transitions: 0,
    facts: 0,
    factsSuperseded: 0,
    relationships: 0,
    relationshipsFolded: 0,
    mentions: 0,
    aliases: 0,
    filled: [],
  };
  const to = canonical.id;

  for (const t of await store.transitions.forEntity(duplicate.id)) {
    await put(input, 'transitions', t.id, (row) => ({ ...exists(row, `Transition ${t.id}`), entity_id: to }));
    counts.transitions++;
  }

  const current = new Map((await store.facts.current(to)).map((f) => [f.attribute, f]));
  const filled: EntityState = {};
  for (const f of await store.facts.history(duplicate.id)) {
    const kept = f.validTo === null ? current.get(f.attribute) : undefined;
    await put(input, 'facts', f.id, (row) => ({
      ...exists(row, `Fact ${f.id}`),
      entity_id: to,
      ...(kept ? { valid_to: Math.max(f.validFrom, kept.validFrom), superseded_by: kept.id } : {}),
    }));
    counts.facts++;
    if (kept) counts.factsSuperseded++;
    else if (f.validTo === null && !(f.attribute in canonical.state)) filled[f.attribute] = f.value;
  }

  for (const rel of await store.relationships.forEntity(duplicate.id, { includeEnded: true })) {
    const sourceId = rel.sourceId === duplicate.id ? to : rel.sourceId;
    const targetId = rel.targetId === duplicate.id ? to : rel.targetId;
    if (sourceId === targetId) {
      // An edge between the two (or a self-loop) says nothing once they are one: it ends, where it was.
      if (rel.validTo === null) {
        await put(input, 'relationships', rel.id, (row) => ({
          ...exists(row, `Relationship ${rel.id}`),
          valid_to: Math.max(now, rel.validFrom),
        }));
        counts.relationshipsFolded++;
      }
      continue;
    }
    const clash =
      rel.validTo === null ? await store.relationships.findOpen({ sourceId, targetId, type: rel.type }) : null;
    const fold = clash !== null && clash.id !== rel.id;
    if (fold) {
      const properties = missingProperties(clash, rel);
      if (properties !== null) {
        await put(input, 'relationships', clash.id, (row) => ({
          ...exists(row, `Relationship ${clash.id}`),
          properties: JSON.stringify(properties),
        }));
      }
      counts.relationshipsFolded++;
    }
    await put(input, 'relationships', rel.id, (row) => ({
      ...exists(row, `Relationship ${rel.id}`),
      source_id: sourceId,
      target_id: targetId,
      ...(fold ? { valid_to: Math.max(now, rel.validFrom) } : {}),
    }));
    counts.relationships++;
  }

  for (const { id, row } of await store.upkeep.entityRows({ table: 'entity_mentions', entityId: duplicate.id })) {
    const episodeId = String(row.episode_id);
    await put(input, 'entity_mentions', id, () => null);
    await put(input, 'entity_mentions', mentionRowId(to, episodeId), (mine) => ({
      time: mine === null ? Number(row.time) : Math.min(Number(mine.time), Number(row.time)),
    }));
    counts.mentions++;
  }

  const canonicalRow = exists(await store.upkeep.getRow({ table: 'entities', id: to }), `Entity ${to}`);
  const duplicateRow = exists(
    await store.upkeep.getRow({ table: 'entities', id: duplicate.id }),
    `Entity ${duplicate.id}`,
  );
  const taken = new Set([
    String(canonicalRow.name_norm),
    ...(await store.upkeep.entityRows({ table: 'entity_aliases', entityId: to })).map((a) => String(a.row.normalized)),
  ]);
  const moveAlias = async (alias: string, normalized: string, recordedAt: number): Promise<void> => {
    if (taken.has(normalized)) return;
    taken.add(normalized);
    await put(input, 'entity_aliases', aliasRowId(to, normalized), () => ({ alias, recorded_at: recordedAt }));
    counts.aliases++;
  };
  for (const { id, row } of await store.upkeep.entityRows({ table: 'entity_aliases', entityId: duplicate.id })) {
    await put(input, 'entity_aliases', id, () => null);
    await moveAlias(String(row.alias), String(row.normalized), Number(row.recorded_at));
  }
  await moveAlias(duplicate.name, String(duplicateRow.name_norm), now);

  counts.filled = Object.keys(filled);
  const moved = [
    plural(counts.transitions, 'transition'),
    plural(counts.facts, 'fact'),
    plural(counts.relationships, 'relationship'),
    plural(counts.mentions, 'mention'),
  ].join(', ');
  const fill = counts.filled.length > 0 ? `; filled ${counts.filled.join(', ')}` : '';
  const summary = `Merged "${duplicate.name}" into "${canonical.name}" (${moved}${fill})`;
  const transition = {
    id: input.newId(),
    entityId: to,
    kind: 'update' as const,
    // No from-state when nothing was filled: the record then shows no state change.
    fromState: counts.filled.length > 0 ? Object.fromEntries(counts.filled.map((k) => [k, null])) : null,
    toState: filled,
    summary,
    eventTime: now,
    recordedAt: now,
    confidence: 1,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  };
  await input.journal.change('transitions', transition.id, () => store.transitions.insert(transition));

  const mergedFrom = Array.isArray(canonical.meta.mergedFrom) ? (canonical.meta.mergedFrom as unknown[]) : [];
  await input.journal.change('entities', to, async () => {
    await store.entities.update(to, {
      state: { ...canonical.state, ...filled },
      firstSeen: Math.min(canonical.firstSeen, duplicate.firstSeen),
      lastSeen: Math.max(canonical.lastSeen, duplicate.lastSeen),
      importance: Math.max(canonical.importance, duplicate.importance),
      tier: mergedTier(canonical.tier, duplicate.tier),
      accessCount: canonical.accessCount + duplicate.accessCount,
      meta: {
        ...canonical.meta,
        mergedFrom: [...mergedFrom, { id: duplicate.id, name: duplicate.name, at: now, reason: input.reason }],
      },
      updatedAt: now,
    });
  });
  await put(input, 'entities', duplicate.id, (row) => {
    const r = exists(row, `Entity ${duplicate.id}`);
    return { ...r, merged_into: to, tier: 'archived', updated_at: now, version: Number(r.version) + 1 };
  });
  return counts;
}

/** What merging `duplicate` would move, read without writing (dry runs). */
export async function plannedMergeCounts(input: {
  store: WorldStore;
  duplicate: Entity;
}): Promise<Pick<MergeCounts, 'transitions' | 'facts' | 'relationships' | 'mentions'>> {
  const { store, duplicate } = input;
  return {
    transitions: (await store.transitions.forEntity(duplicate.id)).length,
    facts: (await store.facts.history(duplicate.id)).length,
    relationships: (await store.relationships.forEntity(duplicate.id, { includeEnded: true })).length,
    mentions: (await store.mentions.forEntity(duplicate.id)).length,
  };
}
