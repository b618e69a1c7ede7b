import type { Expr, JsonObject, UpdateStatement } from '../../ast.js';
import { KipError } from '../../errors.js';
import { where } from '../../lexer.js';
import type { ExecContext } from '../context.js';
import { evaluate, scalar, type Solution } from '../expr.js';
import { exprVars } from '../scope.js';
import { changeConcept } from '../write/concept.js';
import { changeLink } from '../write/link.js';
import { rejectReserved } from '../write/provenance.js';
import { guardCoreDirectives } from '../write/refs.js';
import { targetsOf } from './targets.js';

/**
 * UPDATE (spec §3.2): every element the WHERE block binds to the target gets the SET values, computed from its own
 * state; a function that yields null or a non-number (COALESCE: null) skips that key for that element. Never
 * creates; atomic through the caller's transaction. Returns how many elements changed.
 */
export async function executeUpdate(ctx: ExecContext, stmt: UpdateStatement): Promise<{ updated: number }> {
  rejectReserved(Object.keys(stmt.metadata ?? {}), 'SET METADATA');
  for (const e of [...Object.values(stmt.attributes ?? {}), ...Object.values(stmt.metadata ?? {})]) {
    for (const [name, pos] of exprVars(e)) {
      if (name !== stmt.target) {
        throw new KipError(
          'KIP_3001',
          `?${name} at ${where(pos)}: UPDATE values are computed from ?${stmt.target}'s own state only.`,
        );
      }
    }
  }
  const { nodes } = await targetsOf(ctx, {
    where: stmt.where,
    variable: stmt.target,
    pos: stmt.pos,
    role: 'UPDATE target',
  });
  const selected = stmt.limit === undefined ? nodes : nodes.slice(0, stmt.limit);
  let updated = 0;
  for (const node of selected) {
    const s: Solution = { [stmt.target]: node };
    const set = values(stmt.attributes, s);
    const metadata = values(stmt.metadata, s);
    if (node.kind === 'concept') {
      guardCoreDirectives(node, Object.keys(set), set);
      const current = await ctx.graph.concept(node.id);
      if (!current) continue;
      if ((await changeConcept(ctx, current.entity, { set, metadata })).changed) updated++;
    } else {
      const current = await ctx.graph.linkById(node.id);
      if (!current) continue;
      if ((await changeLink(ctx, current, { set, metadata })).changed) updated++;
    }
    ctx.guard(0);
  }
  return { updated };
}

function values(entries: Record<string, Expr> | undefined, s: Solution): JsonObject {
  const out: JsonObject = {};
  for (const [k, e] of Object.entries(entries ?? {})) {
    const v = scalar(evaluate(e, s));
    if (e.kind === 'literal') out[k] = v;
    else if (e.kind === 'call' && e.name !== 'COALESCE' ? typeof v === 'number' : v !== null) out[k] = v;
  }
  return out;
}
