import type { WhereItem } from '../../ast.js';
import type { ConceptNode, LinkNode, Value } from '../../mapping.js';
import type { ExecContext } from '../context.js';
import type { Solution } from '../expr.js';
import { checkScope, requireVar } from '../scope.js';
import { evalWhere } from '../where.js';

export type Node = ConceptNode | LinkNode;

/** The distinct concepts/propositions a variable takes over the solutions of a WHERE block. */
export async function targetsOf(
  ctx: ExecContext,
  input: { where: readonly WhereItem[]; variable: string; pos: WhereItem['pos']; role: string },
): Promise<{ nodes: Node[]; solutions: Solution[] }> {
  const visible = checkScope(input.where, new Set());
  requireVar(input.variable, visible, input.pos, input.role);
  const solutions = await evalWhere(ctx, input.where, [{}]);
  return { nodes: distinct(solutions.map((s) => s[input.variable])), solutions };
}

export function distinct(values: (Value | undefined)[]): Node[] {
  const seen = new Set<string>();
  const out: Node[] = [];
  for (const v of values) {
    if (v === undefined || v === null || typeof v === 'string') continue;
    const key = `${v.kind}:${v.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
}
