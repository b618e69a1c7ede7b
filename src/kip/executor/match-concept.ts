import type { ConceptClause, ConceptPattern } from '../ast.js';
import { nameKey, type ConceptNode, type Value } from '../mapping.js';
import type { ExecContext } from './context.js';
import type { Solution } from './expr.js';

/** Concepts a clause names, through indexed lookups (by id, by name key, or by type). */
export async function conceptCandidates(ctx: ExecContext, clause: ConceptClause): Promise<ConceptNode[]> {
  const { graph, registry } = ctx;
  if (clause.id !== undefined) {
    const c = await graph.concept(clause.id);
    return c ? [c] : [];
  }
  const pie = clause.type !== undefined ? (await registry.conceptType(clause.type)).pie : undefined;
  if (clause.name !== undefined) {
    return (await graph.conceptsNamed(clause.name, pie)).map((e) => graph.conceptOf(e));
  }
  return pie === undefined ? [] : graph.conceptsOfType(pie);
}

/** Whether a bound value satisfies a concept clause (checked without enumerating candidates). */
export async function conceptMatches(ctx: ExecContext, clause: ConceptClause, value: Value): Promise<boolean> {
  if (value === null || typeof value === 'string' || value.kind !== 'concept') return false;
  if (clause.id !== undefined && value.id !== clause.id) return false;
  if (clause.type !== undefined && value.entity.type !== (await ctx.registry.conceptType(clause.type)).pie)
    return false;
  if (clause.name !== undefined && value.name !== clause.name && nameKey(value.name) !== nameKey(clause.name)) {
    return false;
  }
  return true;
}

/** Joins solutions with `?var {…}`: a bound variable is checked, a free one is bound to every candidate. */
export async function matchConceptPattern(
  ctx: ExecContext,
  pattern: ConceptPattern,
  input: readonly Solution[],
): Promise<Solution[]> {
  const v = pattern.variable;
  let candidates: ConceptNode[] | undefined;
  const out: Solution[] = [];
  for (const s of input) {
    const bound = v === undefined ? undefined : s[v];
    if (bound !== undefined && bound !== null) {
      if (await conceptMatches(ctx, pattern.clause, bound)) out.push(s);
      continue;
    }
    candidates ??= await conceptCandidates(ctx, pattern.clause);
    if (v === undefined) {
      if (candidates.length > 0) out.push(s);
      continue;
    }
    for (const c of candidates) out.push({ ...s, [v]: c });
    ctx.guard(out.length);
  }
  return out;
}
