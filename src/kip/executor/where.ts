import type { BlockItem, ConceptClause, Endpoint, FilterItem, PropClause, WhereItem } from '../ast.js';
import { jsonKey } from '../values.js';
import type { ExecContext } from './context.js';
import { evaluate, truthy, type Solution } from './expr.js';
import { matchConceptPattern } from './match-concept.js';
import { matchPropPattern } from './match-prop.js';
import { exprVars, patternVars } from './scope.js';

const ROW = '#row';

/**
 * Evaluates a WHERE group against input solutions (spec §2.2). Patterns join in order. A FILTER runs as soon as the
 * required patterns before it bind all its variables, otherwise at the end of its segment; NOT blocks run at the end
 * of their segment. A UNION block ends the segment before it: its own rows (evaluated without outer bindings) are
 * added to the segment's rows, de-duplicated; what follows joins with both.
 */
export async function evalWhere(ctx: ExecContext, items: readonly WhereItem[], input: Solution[]): Promise<Solution[]> {
  await validate(ctx, items);
  let current = input;
  const bound = new Set<string>(input.flatMap((s) => Object.keys(s)));
  let filters: FilterItem[] = [];
  let nots: BlockItem[] = [];

  const applyReady = () => {
    const ready = filters.filter((f) => [...exprVars(f.expr).keys()].every((v) => bound.has(v)));
    if (ready.length === 0) return;
    filters = filters.filter((f) => !ready.includes(f));
    current = current.filter((s) => ready.every((f) => truthy(evaluate(f.expr, s))));
  };
  const flush = async () => {
    for (const n of nots) current = await exclude(ctx, n.items, current);
    nots = [];
    current = current.filter((s) => filters.every((f) => truthy(evaluate(f.expr, s))));
    filters = [];
  };

  let matched = false;
  for (const item of items) {
    switch (item.kind) {
      case 'conceptPattern':
        current = await matchConceptPattern(ctx, item, current);
        if (item.variable) bound.add(item.variable);
        applyReady();
        break;
      case 'propPattern':
        current = await matchPropPattern(ctx, item.clause, item.variable, current);
        for (const v of patternVars([item])) bound.add(v);
        applyReady();
        break;
      case 'filter':
        filters.push(item);
        applyReady();
        break;
      case 'not':
        nots.push(item);
        break;
      case 'optional':
        current = await leftJoin(ctx, item.items, current);
        break;
      case 'union': {
        await flush();
        // The branch sees no outer bindings; its rows then join the rows the group started from (at the top level
        // that is the one empty row, so they are simply added; inside OPTIONAL or NOT they keep the outer row).
        const right = joinRows(input, await evalWhere(ctx, item.items, [{}]));
        // A UNION with nothing before it in its group is just its branch.
        current = dedupe(matched ? [...current, ...right] : right);
        break;
      }
    }
    if (item.kind !== 'filter' && item.kind !== 'not') matched = true;
    ctx.guard(current.length);
  }
  await flush();
  return current;
}

/** Every compatible pairing of a row of `left` with a row of `right` (shared variables bound to the same value). */
function joinRows(left: readonly Solution[], right: readonly Solution[]): Solution[] {
  const out: Solution[] = [];
  for (const l of left) {
    for (const r of right) {
      let ok = true;
      for (const [k, v] of Object.entries(r)) {
        const b = l[k];
        if (b === undefined || b === null || v === null || v === undefined) continue;
        if (typeof b === 'string' || typeof v === 'string' ? b !== v : b.kind !== v.kind || b.id !== v.id) ok = false;
      }
      if (ok) out.push({ ...r, ...Object.fromEntries(Object.entries(l).filter(([, v]) => v !== null)) });
    }
  }
  return out;
}

/** OPTIONAL: each solution extended by the block's matches, or kept with the block's variables null. */
async function leftJoin(ctx: ExecContext, items: readonly WhereItem[], input: Solution[]): Promise<Solution[]> {
  const tagged = input.map((s, i) => ({ ...s, [ROW]: String(i) }));
  const inner = await evalWhere(ctx, items, tagged);
  const byRow = new Map<string, Solution[]>();
  for (const s of inner) {
    const row = s[ROW] as string;
    const { [ROW]: _, ...rest } = s;
    byRow.set(row, [...(byRow.get(row) ?? []), rest]);
  }
  const vars = patternVars(items);
  const out: Solution[] = [];
  input.forEach((s, i) => {
    const matches = byRow.get(String(i));
    if (matches) out.push(...matches);
    else {
      const miss: Solution = { ...s };
      for (const v of vars) if (!(v in miss)) miss[v] = null;
      out.push(miss);
    }
  });
  return out;
}

/** NOT: drops the solutions for which the block matches; its variables stay private. */
async function exclude(ctx: ExecContext, items: readonly WhereItem[], input: Solution[]): Promise<Solution[]> {
  const tagged = input.map((s, i) => ({ ...s, [ROW]: String(i) }));
  const matched = new Set((await evalWhere(ctx, items, tagged)).map((s) => s[ROW]));
  return input.filter((_, i) => !matched.has(String(i)));
}

export function dedupe(solutions: Solution[]): Solution[] {
  const seen = new Set<string>();
  return solutions.filter((s) => {
    const key = Object.keys(s)
      .filter((k) => !k.startsWith('#'))
      .sort()
      .map((k) => {
        const v = s[k];
        return `${k}=${v === null || v === undefined || typeof v === 'string' ? jsonKey(v ?? null) : `${v.kind}:${v.id}`}`;
      })
      .join('|');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Checks every type and predicate of a block against the schema before matching (KIP_2001 even on empty input). */
async function validate(ctx: ExecContext, items: readonly WhereItem[]): Promise<void> {
  for (const item of items) {
    if (item.kind === 'conceptPattern') await validateConcept(ctx, item.clause);
    else if (item.kind === 'propPattern') await validateProp(ctx, item.clause);
  }
}

async function validateConcept(ctx: ExecContext, clause: ConceptClause): Promise<void> {
  if (clause.type !== undefined) await ctx.registry.conceptType(clause.type);
}

async function validateProp(ctx: ExecContext, clause: PropClause): Promise<void> {
  if (clause.predicate?.kind === 'path') {
    for (const alt of clause.predicate.alternatives) await ctx.registry.predicate(alt.name);
  }
  for (const e of [clause.subject, clause.object] as (Endpoint | undefined)[]) {
    if (e?.kind === 'concept') await validateConcept(ctx, e);
    else if (e?.kind === 'prop') await validateProp(ctx, e);
  }
}
