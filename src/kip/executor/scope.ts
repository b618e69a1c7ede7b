import type { Endpoint, Expr, PropClause, WhereItem } from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';

/** Variables a group makes visible to its surroundings: its patterns, OPTIONAL and UNION blocks (NOT is private). */
export function patternVars(items: readonly WhereItem[]): Set<string> {
  const out = new Set<string>();
  for (const item of items) {
    if (item.kind === 'conceptPattern') {
      if (item.variable) out.add(item.variable);
    } else if (item.kind === 'propPattern') {
      if (item.variable) out.add(item.variable);
      clauseVars(item.clause, out);
    } else if (item.kind === 'optional' || item.kind === 'union') {
      for (const v of patternVars(item.items)) out.add(v);
    }
  }
  return out;
}

export function clauseVars(clause: PropClause, out: Set<string>): void {
  endpointVars(clause.subject, out);
  if (clause.predicate?.kind === 'var') out.add(clause.predicate.name);
  endpointVars(clause.object, out);
}

function endpointVars(e: Endpoint | undefined, out: Set<string>): void {
  if (!e) return;
  if (e.kind === 'var') out.add(e.name);
  else if (e.kind === 'prop') clauseVars(e, out);
}

/** Variables an expression reads, with the position of their first use. */
export function exprVars(expr: Expr, out = new Map<string, Expr['pos']>()): Map<string, Expr['pos']> {
  switch (expr.kind) {
    case 'var':
      if (!out.has(expr.name)) out.set(expr.name, expr.pos);
      break;
    case 'aggregate':
      exprVars(expr.arg, out);
      break;
    case 'list':
      for (const i of expr.items) exprVars(i, out);
      break;
    case 'unary':
      exprVars(expr.arg, out);
      break;
    case 'binary':
      exprVars(expr.left, out);
      exprVars(expr.right, out);
      break;
    case 'call':
      for (const a of expr.args) exprVars(a, out);
      break;
    case 'literal':
      break;
  }
  return out;
}

/** KIP_3001 for any variable read but never bound where it is visible (spec §2.2.7). */
export function requireDefined(expr: Expr, visible: ReadonlySet<string>, context: string): void {
  for (const [name, pos] of exprVars(expr)) {
    if (!visible.has(name)) {
      throw new KipError(
        'KIP_3001',
        `?${name} at ${where(pos)} (in ${context}) is not bound by any pattern in scope.`,
        {
          hint: 'Bind the variable in WHERE first; NOT keeps its variables private and UNION does not see outer ones.',
        },
      );
    }
  }
}

/** Checks every FILTER of a WHERE block against the scoping rules; returns the variables visible outside. */
export function checkScope(items: readonly WhereItem[], outer: ReadonlySet<string>): Set<string> {
  const visible = new Set([...outer, ...patternVars(items)]);
  for (const item of items) {
    if (item.kind === 'filter') requireDefined(item.expr, visible, 'FILTER');
    else if (item.kind === 'optional' || item.kind === 'not') checkScope(item.items, visible);
    else if (item.kind === 'union') checkScope(item.items, new Set());
  }
  return visible;
}

/** KIP_3001 unless `name` is bound by the WHERE block. */
export function requireVar(name: string, visible: ReadonlySet<string>, pos: Expr['pos'], role: string): void {
  if (!visible.has(name)) {
    throw new KipError('KIP_3001', `?${name} (${role}, at ${where(pos)}) is not bound in WHERE.`);
  }
}
