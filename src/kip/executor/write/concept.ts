import { isPieError } from '../../../domain/errors.js';
import type { Entity, EntityState, Fact, StateValue, TransitionKind } from '../../../domain/world.js';
import type { EntityPatch } from '../../../ports/world-store.js';
import { describeChange } from '../../../world/apply/plan-state.js';
import type { JsonObject, JsonValue } from '../../ast.js';
import { KipError } from '../../errors.js';
import {
  conceptAttributes,
  conceptMetadata,
  derivedConceptMetadata,
  encodeValue,
  kipMeta,
  nameKey,
  withKipMeta,
  type KipEntityMeta,
} from '../../mapping.js';
import { iso, jsonEqual, toJsonObject } from '../../values.js';
import type { ExecContext } from '../context.js';
import { provenanceOf } from './provenance.js';

/** A shallow change of attributes and metadata (spec §1.7); `unset…` remove keys. */
export interface Change {
  set?: JsonObject;
  unset?: string[];
  metadata?: JsonObject;
  unsetMetadata?: string[];
}

/**
 * Creates a concept as PIE creates entities: facts for its attributes and a creation transition carrying its state.
 */
export async function createConcept(
  ctx: ExecContext,
  input: { id?: string; pieType: string; name: string; change: Change; protected?: boolean; kip?: KipEntityMeta },
): Promise<Entity> {
  const w = ctx.requireWriter();
  const now = ctx.now;
  const metadata = toJsonObject(input.change.metadata ?? {});
  const prov = await provenanceOf(ctx, metadata);
  const { state, json, aliases } = encodeAttributes(input.change.set ?? {});
  const kip: KipEntityMeta = { ...input.kip, metadata, ...(json.length > 0 ? { json } : {}) };
  const entity = await w.insertEntity({
    id: input.id ?? ctx.options.newId(),
    type: input.pieType,
    name: input.name,
    normalizedName: nameKey(input.name),
    state,
    firstSeen: now,
    lastSeen: now,
    createdFrom: prov.episodeId,
    recordedAt: now,
    ...(input.protected ? { protected: true, importance: 0 } : {}),
    meta: { kip: JSON.parse(JSON.stringify(kip)) as unknown },
  });
  for (const [attribute, value] of Object.entries(state)) {
    await w.insertFact(fact(ctx, entity.id, attribute, value, prov));
  }
  for (const alias of aliases) await addAliasTo(ctx, entity, alias);
  await w.insertTransition({
    id: ctx.options.newId(),
    entityId: entity.id,
    kind: 'creation',
    fromState: null,
    toState: state,
    summary: `Created through KIP as ${input.name}`,
    eventTime: now,
    recordedAt: now,
    confidence: prov.confidence,
    episodeId: prov.episodeId,
    batchId: null,
    resolvedBy: null,
  });
  if (prov.episodeId) await w.addMention({ entityId: entity.id, episodeId: prov.episodeId, time: now });
  ctx.graph.reset();
  const created = (await ctx.store.entities.get(entity.id)) ?? entity;
  ctx.registry.define(created);
  return created;
}

/**
 * Applies a change to an existing concept with PIE's history rules: a changed attribute supersedes its current fact
 * (a removed one closes it) and one update transition lists what changed; metadata lives in the entity's meta.
 * Nothing changes (and the version stays) when every value is already as given.
 */
export async function changeConcept(
  ctx: ExecContext,
  entity: Entity,
  change: Change,
  options: { expectedVersion?: number; restore?: boolean; kind?: TransitionKind; summary?: string } = {},
): Promise<{ entity: Entity; changed: boolean }> {
  const w = ctx.requireWriter();
  const now = ctx.now;
  const kip: KipEntityMeta = { ...kipMeta(entity) };
  const derived = derivedConceptMetadata(entity);
  const restored = options.restore === true && kip.deleted !== undefined;
  if (restored) {
    // A deleted concept comes back empty: its old metadata is history, not part of the new concept.
    delete kip.deleted;
    delete kip.mergedInto;
    kip.metadata = {};
    delete kip.unset;
  }
  const current = conceptAttributes(entity);
  const jsonKeys = new Set(kip.json ?? []);
  const state: EntityState = { ...entity.state };
  const from: EntityState = {};
  const to: EntityState = {};
  const newAliases: string[] = [];
  for (const [k, v] of Object.entries(change.set ?? {})) {
    if (k === 'aliases') {
      newAliases.push(...aliasList(v).filter((a) => !entity.aliases.some((x) => nameKey(x) === nameKey(a))));
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(current, k) && jsonEqual(current[k], v)) continue;
    const enc = encodeValue(v);
    from[k] = state[k] ?? null;
    to[k] = enc.value;
    state[k] = enc.value;
    if (enc.json) jsonKeys.add(k);
    else jsonKeys.delete(k);
  }
  for (const k of change.unset ?? []) {
    if (k === 'aliases' && entity.aliases.length > 0) {
      throw new KipError(
        'KIP_2002',
        `The aliases of "${entity.name}" cannot be removed: PIE keeps aliases for resolution.`,
      );
    }
    if (!Object.prototype.hasOwnProperty.call(state, k)) continue;
    from[k] = state[k] ?? null;
    to[k] = null;
    delete state[k];
    jsonKeys.delete(k);
  }
  const metaChanged = applyMetadata(kip, restored ? derived : conceptMetadata(entity), derived, change);
  const attrs = Object.keys(to);
  if (attrs.length === 0 && newAliases.length === 0 && !metaChanged && !restored) return { entity, changed: false };

  kip.json = [...jsonKeys];
  if (kip.json.length === 0) delete kip.json;
  const prov = await provenanceOf(ctx, conceptMetadata({ ...entity, meta: withKipMeta(entity, kip) }));
  const facts = attrs.length > 0 ? await ctx.store.facts.current(entity.id) : [];
  for (const attribute of attrs) {
    const old = facts.find((f) => f.attribute === attribute);
    const value = to[attribute] ?? null;
    if (!Object.prototype.hasOwnProperty.call(state, attribute)) {
      if (old) await w.closeFact(old, null, Math.max(now, old.validFrom));
      continue;
    }
    // A KIP write is an assertion made now; it never starts before the fact it supersedes.
    const at = Math.max(now, old?.validFrom ?? now);
    const next = { ...fact(ctx, entity.id, attribute, value, prov), validFrom: at };
    await w.insertFact(next);
    if (old) await w.closeFact(old, next.id, at);
  }
  for (const alias of newAliases) await addAliasTo(ctx, entity, alias);
  if (attrs.length > 0 || restored) {
    await w.insertTransition({
      id: ctx.options.newId(),
      entityId: entity.id,
      kind: options.kind ?? 'update',
      fromState: from,
      toState: to,
      summary:
        options.summary ??
        (attrs.map((a) => describeChange(a, from[a] ?? null, to[a] ?? null)).join('; ') || 'Restored through KIP'),
      eventTime: now,
      recordedAt: now,
      confidence: prov.confidence,
      episodeId: prov.episodeId,
      batchId: null,
      resolvedBy: null,
    });
  }
  if (prov.episodeId) await w.addMention({ entityId: entity.id, episodeId: prov.episodeId, time: now });
  const updated = await update(ctx, entity, {
    state,
    meta: withKipMeta(entity, kip),
    ...(restored ? { tier: 'active' as const } : {}),
    ...(options.expectedVersion !== undefined ? { expectedVersion: options.expectedVersion } : {}),
  });
  return { entity: updated, changed: true };
}

/** Shallow metadata merge into `kip.metadata`; derived keys that are removed are remembered in `kip.unset`. */
function applyMetadata(kip: KipEntityMeta, effective: JsonObject, derived: JsonObject, change: Change): boolean {
  const stored: JsonObject = { ...toJsonObject(kip.metadata ?? {}) };
  const unset = new Set(kip.unset ?? []);
  let changed = false;
  for (const [k, v] of Object.entries(change.metadata ?? {})) {
    if (Object.prototype.hasOwnProperty.call(effective, k) && jsonEqual(effective[k], v)) continue;
    stored[k] = v;
    unset.delete(k);
    changed = true;
  }
  for (const k of change.unsetMetadata ?? []) {
    if (!Object.prototype.hasOwnProperty.call(effective, k)) continue;
    delete stored[k];
    if (Object.prototype.hasOwnProperty.call(derived, k)) unset.add(k);
    changed = true;
  }
  kip.metadata = stored;
  if (unset.size > 0) kip.unset = [...unset];
  else delete kip.unset;
  return changed;
}

/** Removes a concept from the graph the PIE way: its facts close, it is archived with a transition; history stays. */
export async function archiveConcept(
  ctx: ExecContext,
  entity: Entity,
  input: { by: 'delete' | 'merge'; mergedInto?: string; summary: string },
): Promise<Entity> {
  const w = ctx.requireWriter();
  for (const f of await ctx.store.facts.current(entity.id)) await w.closeFact(f, null, Math.max(ctx.now, f.validFrom));
  const kip: KipEntityMeta = { ...kipMeta(entity), deleted: { at: iso(ctx.now), by: input.by } };
  if (input.mergedInto) kip.mergedInto = input.mergedInto;
  delete kip.json;
  await w.insertTransition({
    id: ctx.options.newId(),
    entityId: entity.id,
    kind: 'archival',
    fromState: { ...entity.state },
    toState: {},
    summary: input.summary,
    eventTime: ctx.now,
    recordedAt: ctx.now,
    confidence: 1,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  });
  return update(ctx, entity, { state: {}, tier: 'archived', meta: withKipMeta(entity, kip) });
}

/** Writes entity fields and meta in one version step; a version mismatch is KIP_3005. */
export async function update(ctx: ExecContext, entity: Entity, patch: Omit<EntityPatch, 'updatedAt'>): Promise<Entity> {
  try {
    const updated = await ctx.requireWriter().updateEntity(entity, { ...patch, updatedAt: ctx.now });
    ctx.graph.reset();
    ctx.registry.define(updated);
    return updated;
  } catch (error) {
    if (isPieError(error, 'CONFLICT')) {
      throw new KipError('KIP_3005', `"${entity.name}" changed meanwhile (version ${entity.version} expected).`, {
        cause: error,
      });
    }
    throw error;
  }
}

function fact(
  ctx: ExecContext,
  entityId: string,
  attribute: string,
  value: StateValue,
  prov: { episodeId: string | null; confidence: number },
): Fact {
  return {
    id: ctx.options.newId(),
    entityId,
    attribute,
    value,
    validFrom: ctx.now,
    validTo: null,
    supersededBy: null,
    episodeId: prov.episodeId,
    recordedAt: ctx.now,
    confidence: prov.confidence,
  };
}

async function addAliasTo(ctx: ExecContext, entity: Entity, alias: string): Promise<void> {
  if (nameKey(alias) === nameKey(entity.name)) return;
  await ctx.requireWriter().addAlias({ entityId: entity.id, alias, normalized: nameKey(alias) });
}

function encodeAttributes(set: JsonObject): { state: EntityState; json: string[]; aliases: string[] } {
  const state: EntityState = {};
  const json: string[] = [];
  let aliases: string[] = [];
  for (const [k, v] of Object.entries(set)) {
    if (k === 'aliases') {
      aliases = aliasList(v);
      continue;
    }
    const enc = encodeValue(v);
    state[k] = enc.value;
    if (enc.json) json.push(k);
  }
  return { state, json, aliases };
}

function aliasList(value: JsonValue): string[] {
  if (!Array.isArray(value) || value.some((a) => typeof a !== 'string')) {
    throw new KipError('KIP_2003', '"aliases" must be an array of strings.');
  }
  return [...new Set((value as string[]).map((a) => a.trim()).filter((a) => a.length > 0))];
}
