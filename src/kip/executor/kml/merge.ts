import type { JsonObject, MergeStatement } from '../../ast.js';
import { KipError } from '../../errors.js';
import { kipMeta, withKipMeta, type ConceptNode, type LinkNode } from '../../mapping.js';
import { jsonEqual, withoutReserved } from '../../values.js';
import type { ExecContext } from '../context.js';
import { Graph } from '../graph.js';
import { archiveConcept, changeConcept, update } from '../write/concept.js';
import { changeLink, closeLink } from '../write/link.js';
import { isProtected } from '../write/refs.js';
import { targetsOf, type Node } from './targets.js';

export interface MergeResult {
  merged: {
    source: { id: string; type: string; name: string };
    target: { id: string; type: string; name: string };
    propositions_repointed: number;
    propositions_merged: number;
    attributes_filled: string[];
  };
}

/**
 * MERGE CONCEPT ?source INTO ?target (spec §3.3): both must match exactly one concept of the same type. The
 * source's links move to the target keeping their ids (a link the target already has keeps the target's version,
 * gaining the keys it lacked); the target gains missing attributes, the source's name as an alias and a
 * `_merged_from` entry; the source is archived with its history (never erased) and its mentions move over.
 */
export async function executeMerge(ctx: ExecContext, stmt: MergeStatement): Promise<MergeResult> {
  const source = await single(ctx, stmt, stmt.source);
  const target = await single(ctx, stmt, stmt.target);
  if (source.type !== target.type) {
    throw new KipError('KIP_2002', `Cannot merge a ${source.type} into a ${target.type}: MERGE keeps one type.`);
  }
  if (source.id === target.id)
    throw new KipError('KIP_2002', `?${stmt.source} and ?${stmt.target} are the same concept.`);
  for (const c of [source, target]) {
    if (await isProtected(ctx, c))
      throw new KipError('KIP_3004', `${c.type} "${c.name}" is protected and cannot be merged.`);
  }
  const moved = await repoint(ctx, Graph.endpointId(source), Graph.endpointId(target));

  const filled: JsonObject = {};
  for (const [k, v] of Object.entries(source.attributes)) {
    if (k !== 'aliases' && !Object.prototype.hasOwnProperty.call(target.attributes, k)) filled[k] = v;
  }
  const aliases = [...((target.attributes['aliases'] as string[] | undefined) ?? [])];
  for (const a of [source.name, ...((source.attributes['aliases'] as string[] | undefined) ?? [])]) {
    if (!aliases.includes(a) && a !== target.name) aliases.push(a);
  }
  const metadata: JsonObject = {};
  for (const [k, v] of Object.entries(withoutReserved(source.metadata))) {
    if (!Object.prototype.hasOwnProperty.call(target.metadata, k)) metadata[k] = v;
  }
  const current = (await ctx.graph.concept(target.id)) ?? target;
  let entity = (
    await changeConcept(
      ctx,
      current.entity,
      { set: { ...filled, aliases }, metadata },
      {
        summary: `Merged "${source.name}" into "${target.name}"${Object.keys(filled).length > 0 ? ` (filled ${Object.keys(filled).join(', ')})` : ''}`,
      },
    )
  ).entity;
  const trail = [
    ...(kipMeta(entity).mergedFrom ?? []),
    `${source.type}:${source.name}`,
    ...(kipMeta(source.entity).mergedFrom ?? []),
  ];
  entity = await update(ctx, entity, {
    meta: withKipMeta(entity, { ...kipMeta(entity), mergedFrom: [...new Set(trail)] }),
    firstSeen: Math.min(entity.firstSeen, source.entity.firstSeen),
    lastSeen: Math.max(entity.lastSeen, source.entity.lastSeen),
  });
  for (const m of await ctx.store.mentions.forEntity(source.id)) {
    await ctx.requireWriter().addMention({ entityId: target.id, episodeId: m.episodeId, time: m.time });
  }
  const fresh = (await ctx.store.entities.get(source.id)) ?? source.entity;
  await archiveConcept(ctx, fresh, { by: 'merge', mergedInto: target.id, summary: `Merged into "${target.name}"` });
  return {
    merged: {
      source: { id: source.id, type: source.type, name: source.name },
      target: { id: target.id, type: target.type, name: target.name },
      propositions_repointed: moved.repointed,
      propositions_merged: moved.merged,
      attributes_filled: Object.keys(filled),
    },
  };
}

async function single(ctx: ExecContext, stmt: MergeStatement, variable: string): Promise<ConceptNode> {
  const { nodes } = await targetsOf(ctx, { where: stmt.where, variable, pos: stmt.pos, role: 'MERGE' });
  const concepts = nodes.filter((n): n is ConceptNode => n.kind === 'concept');
  if (concepts.length === 0) {
    throw new KipError('KIP_3002', `?${variable} matches no concept (if it was merged before, the merge is done).`, {
      hint: 'MERGE is complete once its source is gone; verify with FIND.',
    });
  }
  if (concepts.length > 1) {
    throw new KipError('KIP_3003', `?${variable} matches ${concepts.length} concepts; MERGE needs exactly one.`, {
      hint: 'Identify the concept by {type, name} or {id}.',
    });
  }
  return concepts[0] as ConceptNode;
}

/**
 * Moves every open link touching `fromId` (an entity or a link proxy) to `toId`. A link that collides with one the
 * target already has (same subject, predicate, object) is folded into it: the target's link keeps its values, gains
 * the missing keys, and takes over the references to the dropped link.
 */
export async function repoint(
  ctx: ExecContext,
  fromId: string,
  toId: string,
): Promise<{ repointed: number; merged: number }> {
  let repointed = 0;
  let merged = 0;
  ctx.graph.reset();
  for (const rel of [...(await ctx.graph.edges(fromId))]) {
    const link = ctx.graph.linkOf(rel);
    const sourceId = rel.sourceId === fromId ? toId : rel.sourceId;
    const targetId = rel.targetId === fromId ? toId : rel.targetId;
    const clash = await ctx.store.relationships.findOpen({ sourceId, targetId, type: rel.type });
    if (clash && clash.id !== rel.id) {
      const kept = ctx.graph.linkOf(clash);
      await changeLink(ctx, kept, missingKeys(kept, link));
      const refs = await repoint(ctx, Graph.endpointId(link), Graph.endpointId(kept));
      repointed += refs.repointed;
      merged += refs.merged + 1;
      await closeLink(ctx, (await ctx.graph.linkById(link.id)) ?? link);
    } else {
      await changeLink(ctx, link, {}, { sourceId, targetId });
      repointed++;
    }
  }
  return { repointed, merged };
}

function missingKeys(kept: LinkNode, dropped: LinkNode): { set: JsonObject; metadata: JsonObject } {
  const set: JsonObject = {};
  const metadata: JsonObject = {};
  for (const [k, v] of Object.entries(dropped.attributes)) if (!(k in kept.attributes)) set[k] = v;
  for (const [k, v] of Object.entries(withoutReserved(dropped.metadata))) {
    if (!(k in kept.metadata) || (kept.metadata[k] === null && !jsonEqual(v, null))) metadata[k] = v;
  }
  return { set, metadata };
}

export type { Node };
