import type { DeleteStatement } from '../../ast.js';
import { KipError } from '../../errors.js';
import type { ConceptNode, LinkNode } from '../../mapping.js';
import type { ExecContext } from '../context.js';
import { Graph } from '../graph.js';
import { archiveConcept, changeConcept } from '../write/concept.js';
import { changeLink, closeLink } from '../write/link.js';
import { rejectReserved } from '../write/provenance.js';
import { guardCoreDirectives, isProtected, isProtectedLink } from '../write/refs.js';
import { targetsOf } from './targets.js';

export interface DeleteResult {
  deleted: number;
  /** DELETE CONCEPT: links closed with the concepts (DETACH, through higher-order links too). */
  propositions?: number;
}

/**
 * DELETE (spec §3.4), the PIE way: attributes and metadata are removed (their facts close), propositions end (the
 * relationship is closed, with every proposition about it), concepts are archived with all their links — history
 * stays recoverable. Protected structures are KIP_3004.
 */
export async function executeDelete(ctx: ExecContext, stmt: DeleteStatement): Promise<DeleteResult> {
  const { nodes } = await targetsOf(ctx, {
    where: stmt.where,
    variable: stmt.target,
    pos: stmt.pos,
    role: `DELETE ${stmt.what.toUpperCase()}`,
  });
  switch (stmt.what) {
    case 'attributes':
    case 'metadata':
      return { deleted: await deleteKeys(ctx, stmt, nodes) };
    case 'propositions': {
      const links = nodes.filter((n): n is LinkNode => n.kind === 'link');
      for (const l of links) {
        if (await isProtectedLink(ctx, l)) {
          throw new KipError(
            'KIP_3004',
            `The proposition ${l.id} (belongs_to_domain CoreSchema of a protected definition) is protected.`,
          );
        }
      }
      let deleted = 0;
      for (const l of links) {
        const current = await ctx.graph.linkById(l.id);
        if (current) deleted += await closeLink(ctx, current);
      }
      return { deleted };
    }
    case 'concept': {
      const concepts = nodes.filter((n): n is ConceptNode => n.kind === 'concept');
      for (const c of concepts) {
        if (await isProtected(ctx, c))
          throw new KipError('KIP_3004', `${c.type} "${c.name}" is protected and cannot be deleted.`);
      }
      let propositions = 0;
      for (const c of concepts) {
        ctx.graph.reset();
        for (const rel of [...(await ctx.graph.edges(Graph.endpointId(c)))]) {
          const link = await ctx.graph.linkById(ctx.graph.linkOf(rel).id);
          if (link) propositions += await closeLink(ctx, link);
        }
        const entity = await ctx.store.entities.get(c.id);
        if (entity)
          await archiveConcept(ctx, entity, { by: 'delete', summary: `Deleted through KIP (${c.type} "${c.name}")` });
      }
      return { deleted: concepts.length, propositions };
    }
  }
}

async function deleteKeys(ctx: ExecContext, stmt: DeleteStatement, nodes: (ConceptNode | LinkNode)[]): Promise<number> {
  const meta = stmt.what === 'metadata';
  if (meta) rejectReserved(stmt.keys, 'DELETE METADATA');
  const change = meta ? { unsetMetadata: stmt.keys } : { unset: stmt.keys };
  let deleted = 0;
  for (const node of nodes) {
    if (node.kind === 'concept') {
      if (!meta) guardCoreDirectives(node, stmt.keys);
      const current = await ctx.graph.concept(node.id);
      if (current && (await changeConcept(ctx, current.entity, change)).changed) deleted++;
    } else {
      const current = await ctx.graph.linkById(node.id);
      if (current && (await changeLink(ctx, current, change)).changed) deleted++;
    }
  }
  return deleted;
}
