import type { Relationship, StateValue } from '../../../domain/world.js';
import type { JsonObject } from '../../ast.js';
import { KipError } from '../../errors.js';
import {
  LINK_BLOB,
  LINK_PROXY_TYPE,
  PROXY_PREFIX,
  derivedLinkMetadata,
  encodeValue,
  kipMeta,
  linkMetadata,
  withKipMeta,
  type ConceptNode,
  type KipLinkBlob,
  type LinkNode,
} from '../../mapping.js';
import { iso, jsonEqual } from '../../values.js';
import type { ExecContext } from '../context.js';
import { Graph } from '../graph.js';
import type { Change } from './concept.js';
import { provenanceOf } from './provenance.js';

type Node = ConceptNode | LinkNode;

/**
 * Creates or updates the proposition (subject, predicate, object). A link is a versioned relationship: a change
 * closes the current version and opens the next one with the same proposition id (PIE's rule for edges whose
 * properties change); an unchanged upsert writes nothing.
 */
export async function upsertLink(
  ctx: ExecContext,
  input: { subject: Node; pieType: string; object: Node; change: Change; expectVersion?: number },
): Promise<{ link: LinkNode; status: 'created' | 'updated' | 'unchanged' }> {
  const sourceId = await endpoint(ctx, input.subject);
  const targetId = await endpoint(ctx, input.object);
  const open = await ctx.store.relationships.findOpen({ sourceId, targetId, type: input.pieType });
  const existing = open ? ctx.graph.linkOf(open) : null;
  checkVersion(existing, input.expectVersion);
  if (existing) {
    const r = await changeLink(ctx, existing, input.change);
    return { link: r.link, status: r.changed ? 'updated' : 'unchanged' };
  }
  const metadata = { ...(input.change.metadata ?? {}) };
  const prov = await provenanceOf(ctx, metadata);
  const id = ctx.options.newId();
  const rel = build(ctx, {
    id,
    stableId: id,
    version: 1,
    type: input.pieType,
    sourceId,
    targetId,
    attributes: input.change.set ?? {},
    metadata,
    unset: [],
    confidence: prov.confidence,
    episodeId: prov.episodeId,
  });
  await ctx.requireWriter().insertRelationship(rel);
  ctx.graph.reset();
  return { link: ctx.graph.linkOf(rel), status: 'created' };
}

export function checkVersion(
  existing: { metadata: JsonObject; id: string } | null,
  expected: number | undefined,
): void {
  if (expected === undefined) return;
  const actual = existing ? Number(existing.metadata['_version'] ?? 1) : 0;
  if (actual !== expected) {
    throw new KipError(
      'KIP_3005',
      `EXPECT VERSION ${expected} does not hold: ${existing ? `${existing.id} is at version ${actual}` : 'it does not exist'}.`,
    );
  }
}

/** Applies a shallow change to a link as a new version; endpoints may move (MERGE). */
export async function changeLink(
  ctx: ExecContext,
  link: LinkNode,
  change: Change,
  move?: { sourceId: string; targetId: string },
): Promise<{ link: LinkNode; changed: boolean }> {
  const attributes: JsonObject = { ...link.attributes };
  let changed = move !== undefined && (move.sourceId !== link.rel.sourceId || move.targetId !== link.rel.targetId);
  for (const [k, v] of Object.entries(change.set ?? {})) {
    if (Object.prototype.hasOwnProperty.call(attributes, k) && jsonEqual(attributes[k], v)) continue;
    attributes[k] = v;
    changed = true;
  }
  for (const k of change.unset ?? []) {
    if (!Object.prototype.hasOwnProperty.call(attributes, k)) continue;
    delete attributes[k];
    changed = true;
  }
  const effective = linkMetadata(link.rel, link.blob);
  const metadata: JsonObject = { ...effective };
  const unset = new Set(link.blob?.x ?? []);
  for (const [k, v] of Object.entries(change.metadata ?? {})) {
    if (Object.prototype.hasOwnProperty.call(effective, k) && jsonEqual(effective[k], v)) continue;
    metadata[k] = v;
    unset.delete(k);
    changed = true;
  }
  for (const k of change.unsetMetadata ?? []) {
    if (!Object.prototype.hasOwnProperty.call(metadata, k)) continue;
    delete metadata[k];
    unset.add(k);
    changed = true;
  }
  if (!changed) return { link, changed: false };
  const prov = await provenanceOf(ctx, metadata, { episodeId: link.rel.episodeId, confidence: link.rel.confidence });
  const rel = build(ctx, {
    id: ctx.options.newId(),
    stableId: link.id,
    version: Number(link.metadata['_version'] ?? 1) + 1,
    type: link.rel.type,
    sourceId: move?.sourceId ?? link.rel.sourceId,
    targetId: move?.targetId ?? link.rel.targetId,
    attributes,
    metadata,
    unset: [...unset].filter((k) => Object.prototype.hasOwnProperty.call(derivedLinkMetadata(link.rel), k)),
    confidence: prov.confidence,
    episodeId: prov.episodeId,
  });
  const w = ctx.requireWriter();
  await w.closeRelationship(link.rel);
  await w.insertRelationship(rel);
  if (move) await moveProxy(ctx, link.id, rel);
  ctx.graph.reset();
  return { link: ctx.graph.linkOf(rel), changed: true };
}

/** Closes a link (the relationship ends now) and, through its proxy, every link that refers to it. */
export async function closeLink(ctx: ExecContext, link: LinkNode): Promise<number> {
  const w = ctx.requireWriter();
  await w.closeRelationship(link.rel);
  let closed = 1;
  const proxy = await ctx.store.entities.get(PROXY_PREFIX + link.id);
  if (proxy) {
    ctx.graph.reset();
    for (const rel of await ctx.graph.edges(proxy.id)) closed += await closeLink(ctx, ctx.graph.linkOf(rel));
    const kip = { ...kipMeta(proxy), deleted: { at: iso(ctx.now), by: 'delete' as const } };
    await w.updateEntity(proxy, { tier: 'archived', meta: withKipMeta(proxy, kip), updatedAt: ctx.now });
  }
  ctx.graph.reset();
  return closed;
}

/** The entity id a node occupies as an endpoint; a link gets (or revives) its proxy entity. */
export async function endpoint(ctx: ExecContext, node: Node): Promise<string> {
  if (node.kind === 'concept') return node.id;
  const id = Graph.endpointId(node);
  const where = { id: node.id, sourceId: node.rel.sourceId, targetId: node.rel.targetId, type: node.rel.type };
  const w = ctx.requireWriter();
  const proxy = await ctx.store.entities.get(id);
  if (proxy) {
    const kip = kipMeta(proxy);
    if (kip.deleted || !jsonEqual(kip.link ?? null, where)) {
      const next = { ...kip, link: where };
      delete next.deleted;
      await w.updateEntity(proxy, { tier: 'active', meta: withKipMeta(proxy, next), updatedAt: ctx.now });
    }
    return id;
  }
  await w.insertEntity({
    id,
    type: LINK_PROXY_TYPE,
    name: await proxyName(ctx, node),
    normalizedName: id,
    state: {},
    firstSeen: ctx.now,
    lastSeen: ctx.now,
    createdFrom: null,
    recordedAt: ctx.now,
    importance: 0,
    meta: { kip: { link: where } },
  });
  ctx.graph.reset();
  return id;
}

async function moveProxy(ctx: ExecContext, stableId: string, rel: Relationship): Promise<void> {
  const proxy = await ctx.store.entities.get(PROXY_PREFIX + stableId);
  if (!proxy) return;
  const kip = {
    ...kipMeta(proxy),
    link: { id: stableId, sourceId: rel.sourceId, targetId: rel.targetId, type: rel.type },
  };
  await ctx.requireWriter().updateEntity(proxy, { meta: withKipMeta(proxy, kip), updatedAt: ctx.now });
}

/** "(Aspirin treats Headache)": how a reified proposition reads in PIE's own views. */
async function proxyName(ctx: ExecContext, link: LinkNode): Promise<string> {
  const name = async (ref: LinkNode['subject']): Promise<string> => {
    const v = await ctx.graph.value(ref);
    return v?.kind === 'concept' ? v.name : `(${ref.id})`;
  };
  return `(${await name(link.subject)} ${link.predicate} ${await name(link.object)})`;
}

function build(
  ctx: ExecContext,
  input: {
    id: string;
    stableId: string;
    version: number;
    type: string;
    sourceId: string;
    targetId: string;
    attributes: JsonObject;
    metadata: JsonObject;
    unset: string[];
    confidence: number;
    episodeId: string | null;
  },
): Relationship {
  const properties: Record<string, StateValue> = {};
  const json: string[] = [];
  for (const [k, v] of Object.entries(input.attributes)) {
    if (k === LINK_BLOB) throw new KipError('KIP_2002', `"${LINK_BLOB}" is reserved for the engine.`);
    const enc = encodeValue(v);
    properties[k] = enc.value;
    if (enc.json) json.push(k);
  }
  const blob: KipLinkBlob = { id: input.stableId, v: input.version, u: iso(ctx.now) };
  if (Object.keys(input.metadata).length > 0) blob.m = input.metadata;
  if (json.length > 0) blob.j = json;
  if (input.unset.length > 0) blob.x = input.unset;
  properties[LINK_BLOB] = JSON.stringify(blob);
  return {
    id: input.id,
    type: input.type,
    sourceId: input.sourceId,
    targetId: input.targetId,
    properties,
    validFrom: ctx.now,
    validTo: null,
    confidence: input.confidence,
    episodeId: input.episodeId,
    recordedAt: ctx.now,
    discoveredBy: null,
  };
}
