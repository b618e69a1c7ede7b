import type { Entity, EntityState, Relationship, StateValue } from '../domain/world.js';
import { normalizeName } from '../resolve/normalize.js';
import type { JsonObject, JsonValue } from './ast.js';
import { iso, isPlainObject, toJsonObject } from './values.js';

/**
 * How KIP's graph maps onto PIE's world model (docs/kip.md):
 * - a concept is an entity: KIP type `ClinicalTrial` ↔ PIE type `clinical_trial` (meta types such as `$ConceptType`
 *   keep their name), attributes are the entity's current state (arrays and objects JSON-encoded in the state,
 *   listed in `meta.kip.json`) plus `aliases`, metadata lives in `meta.kip.metadata`;
 * - a proposition is an open relationship: predicate `works_on` ↔ relationship type `WORKS_ON`, primitive attributes
 *   are the relationship's properties, and the KIP bookkeeping (stable id, version, metadata) is one JSON property
 *   `_kip`; a closed relationship is history, not part of the graph;
 * - a proposition used as an endpoint (higher-order) is reified as a proxy entity `kip-link:<id>`.
 */

export const CONCEPT_TYPE = '$ConceptType';
export const PROPOSITION_TYPE = '$PropositionType';
/** PIE entity type of link proxies (never a KIP concept). */
export const LINK_PROXY_TYPE = '$Proposition';
export const PROXY_PREFIX = 'kip-link:';
/** The relationship property holding KIP bookkeeping. */
export const LINK_BLOB = '_kip';

/** What KIP keeps in `entity.meta.kip`. */
export interface KipEntityMeta {
  metadata?: JsonObject;
  /** Derived metadata keys (source, created_at) removed by DELETE METADATA. */
  unset?: string[];
  /** State keys whose value is a JSON-encoded array or object. */
  json?: string[];
  /** Set when DELETE CONCEPT or MERGE removed the concept (the entity stays as archived history). */
  deleted?: { at: string; by: 'delete' | 'merge' };
  mergedInto?: string;
  mergedFrom?: string[];
  /** On type definitions: the PIE entity type or relationship type the KIP name stands for. */
  pieType?: string;
  /** On link proxies: where the reified proposition lives. */
  link?: { id: string; sourceId: string; targetId: string; type: string };
  bootstrap?: number;
}

/** The `_kip` property of a relationship, JSON-encoded. */
export interface KipLinkBlob {
  /** Stable proposition id (kept across versions). */
  id: string;
  /** _version */
  v: number;
  /** _updated_at */
  u: string;
  /** metadata */
  m?: JsonObject;
  /** attribute keys whose value is JSON-encoded */
  j?: string[];
  /** derived metadata keys removed */
  x?: string[];
}

export type EndRef = { kind: 'concept'; id: string } | { kind: 'link'; id: string };

export interface ConceptNode {
  kind: 'concept';
  id: string;
  type: string;
  name: string;
  attributes: JsonObject;
  metadata: JsonObject;
  entity: Entity;
}

export interface LinkNode {
  kind: 'link';
  id: string;
  subject: EndRef;
  predicate: string;
  object: EndRef;
  attributes: JsonObject;
  metadata: JsonObject;
  rel: Relationship;
  blob: KipLinkBlob | null;
}

/** A bound value: a concept, a proposition, a predicate name, or null (unbound). */
export type Value = ConceptNode | LinkNode | string | null;

// ---------------------------------------------------------------- names

/** `clinical_trial` / `clinical trial` → `ClinicalTrial`; `$ConceptType` stays. */
export function defaultKipType(pieType: string): string {
  if (pieType.startsWith('$')) return pieType;
  const words = pieType.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') || pieType;
}

/** `ClinicalTrial` → `clinical_trial`; `$ConceptType` stays. */
export function defaultPieType(kipType: string): string {
  if (kipType.startsWith('$')) return kipType;
  return kipType.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export const defaultKipPredicate = (pieType: string): string => pieType.toLowerCase();
export const defaultPieRelType = (predicate: string): string => predicate.toUpperCase();

export const TYPE_NAME = /^\$?[A-Z][A-Za-z0-9]*$/;
export const PREDICATE_NAME = /^[a-z_][a-z0-9_]*$/;

/** The lookup key of a concept name: PIE's normalization, except `$`-names (kept apart from ordinary words). */
export function nameKey(name: string): string {
  if (name.startsWith('$')) return name.toLowerCase();
  const key = normalizeName(name);
  return key.length > 0 ? key : name.trim().toLowerCase();
}

// ---------------------------------------------------------------- entities

export function kipMeta(entity: Pick<Entity, 'meta'>): KipEntityMeta {
  const m = entity.meta['kip'];
  return isPlainObject(m) ? (m as unknown as KipEntityMeta) : {};
}

export function withKipMeta(entity: Pick<Entity, 'meta'>, kip: KipEntityMeta): Record<string, unknown> {
  return { ...entity.meta, kip: JSON.parse(JSON.stringify(kip)) as unknown };
}

/** Deleted (or merged away) concepts and link proxies are not part of the KIP graph. */
export function isVisibleEntity(entity: Entity): boolean {
  return entity.type !== LINK_PROXY_TYPE && kipMeta(entity).deleted === undefined;
}

export function decodeState(state: EntityState, jsonKeys: readonly string[] | undefined): JsonObject {
  const json = new Set(jsonKeys ?? []);
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(state)) out[k] = json.has(k) && typeof v === 'string' ? parseJson(v) : v;
  return out;
}

/** A KIP value as a state value: primitives as they are, arrays and objects JSON-encoded. */
export function encodeValue(value: JsonValue): { value: StateValue; json: boolean } {
  if (value !== null && typeof value === 'object') return { value: JSON.stringify(value), json: true };
  return { value, json: false };
}

function parseJson(text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    // Not JSON after all (edited outside KIP): the text is the value.
    return text;
  }
}

/** Attributes of a concept: the decoded current state, plus `aliases` when the entity has any. */
export function conceptAttributes(entity: Entity): JsonObject {
  const attributes = decodeState(entity.state, kipMeta(entity).json);
  if (entity.aliases.length > 0) attributes['aliases'] = [...entity.aliases];
  return attributes;
}

/** Metadata a concept shows without KIP having written it (provenance PIE already records). */
export function derivedConceptMetadata(entity: Entity): JsonObject {
  const out: JsonObject = { created_at: iso(entity.recordedAt) };
  if (entity.createdFrom) out['source'] = entity.createdFrom;
  return out;
}

/** Stored (non-reserved) metadata as KIP sees it: derived defaults overridden by what KIP wrote. */
export function conceptMetadata(entity: Entity): JsonObject {
  const kip = kipMeta(entity);
  const derived = derivedConceptMetadata(entity);
  for (const k of kip.unset ?? []) delete derived[k];
  return { ...derived, ...toJsonObject(kip.metadata ?? {}) };
}

export function reservedConceptMetadata(entity: Entity): JsonObject {
  const kip = kipMeta(entity);
  return {
    _version: entity.version,
    _updated_at: iso(entity.updatedAt),
    ...(kip.mergedFrom && kip.mergedFrom.length > 0 ? { _merged_from: [...kip.mergedFrom] } : {}),
    _importance: entity.importance,
    _tier: entity.tier,
    _first_seen: iso(entity.firstSeen),
    _last_seen: iso(entity.lastSeen),
  };
}

/** A concept view of an entity; attributes and metadata are computed on first access (most matches never read them). */
export function conceptNode(entity: Entity, kipType: string): ConceptNode {
  let attributes: JsonObject | undefined;
  let metadata: JsonObject | undefined;
  return {
    kind: 'concept',
    id: entity.id,
    type: kipType,
    name: entity.name,
    entity,
    get attributes() {
      return (attributes ??= conceptAttributes(entity));
    },
    get metadata() {
      return (metadata ??= { ...conceptMetadata(entity), ...reservedConceptMetadata(entity) });
    },
  };
}

// ---------------------------------------------------------------- relationships

export function linkBlob(rel: Relationship): KipLinkBlob | null {
  const raw = rel.properties[LINK_BLOB];
  if (typeof raw !== 'string') return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (isPlainObject(parsed) && typeof parsed['id'] === 'string') return parsed as unknown as KipLinkBlob;
  } catch {
    // A foreign value under our key: treat the link as one KIP never wrote.
  }
  return null;
}

export function linkId(rel: Relationship): string {
  return linkBlob(rel)?.id ?? rel.id;
}

export function endRef(entityId: string): EndRef {
  return entityId.startsWith(PROXY_PREFIX)
    ? { kind: 'link', id: entityId.slice(PROXY_PREFIX.length) }
    : { kind: 'concept', id: entityId };
}

export function endEntityId(ref: EndRef): string {
  return ref.kind === 'link' ? PROXY_PREFIX + ref.id : ref.id;
}

export function linkAttributes(rel: Relationship, blob: KipLinkBlob | null): JsonObject {
  const props: EntityState = { ...rel.properties };
  delete props[LINK_BLOB];
  return decodeState(props, blob?.j);
}

export function derivedLinkMetadata(rel: Relationship): JsonObject {
  const out: JsonObject = { confidence: rel.confidence, created_at: iso(rel.recordedAt) };
  if (rel.episodeId) out['source'] = rel.episodeId;
  return out;
}

export function linkMetadata(rel: Relationship, blob: KipLinkBlob | null): JsonObject {
  const derived = derivedLinkMetadata(rel);
  for (const k of blob?.x ?? []) delete derived[k];
  return { ...derived, ...toJsonObject(blob?.m ?? {}) };
}

/** A proposition view of a relationship; attributes and metadata are computed on first access. */
export function linkNode(rel: Relationship, predicate: string): LinkNode {
  const blob = linkBlob(rel);
  let attributes: JsonObject | undefined;
  let metadata: JsonObject | undefined;
  return {
    kind: 'link',
    id: blob?.id ?? rel.id,
    subject: endRef(rel.sourceId),
    predicate,
    object: endRef(rel.targetId),
    rel,
    blob,
    get attributes() {
      return (attributes ??= linkAttributes(rel, blob));
    },
    get metadata() {
      return (metadata ??= {
        ...linkMetadata(rel, blob),
        _version: blob?.v ?? 1,
        _updated_at: blob?.u ?? iso(rel.recordedAt),
        _valid_from: iso(rel.validFrom),
      });
    },
  };
}

// ---------------------------------------------------------------- output

/** The JSON form of a bound value in results. */
export function valueJson(value: Value): JsonValue {
  if (value === null || typeof value === 'string') return value;
  if (value.kind === 'concept') {
    return { id: value.id, type: value.type, name: value.name, attributes: value.attributes, metadata: value.metadata };
  }
  return {
    id: value.id,
    subject: value.subject.id,
    predicate: value.predicate,
    object: value.object.id,
    attributes: value.attributes,
    metadata: value.metadata,
  };
}
