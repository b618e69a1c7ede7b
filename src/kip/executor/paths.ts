import type { Endpoint, PropClause } from '../ast.js';
import type { LinkNode } from '../mapping.js';
import type { ExecContext } from './context.js';
import type { Solution } from './expr.js';
import { Graph } from './graph.js';
import type { Node, Side, Step } from './match-prop.js';

type Tester = (ctx: ExecContext, e: Endpoint | undefined, value: Node, s: Solution) => Promise<Solution[]>;

/**
 * Hop ranges `"pred"{m,n}`: a breadth-first walk along one predicate from each start (the driving endpoint), over
 * states (node, depth) so that a node reachable at several depths is judged at each; with an open upper bound,
 * depths past `m` are folded into one state so the walk ends. `m == 0` matches the start itself (no edge).
 */
export async function walkPath(input: {
  ctx: ExecContext;
  clause: PropClause;
  step: Step;
  s: Solution;
  drive: { value: Node; s: Solution }[] | null;
  side: Side;
  test: Tester;
}): Promise<Solution[]> {
  const { ctx, clause, step, side } = input;
  const starts = input.drive ?? (await scanStarts(ctx, step, input.s));
  const otherEnd = side === 'subject' ? clause.object : clause.subject;
  const out: Solution[] = [];
  for (const start of starts) {
    for (const end of await reachable(ctx, step, start.value, side)) {
      out.push(...(await input.test(ctx, otherEnd, end, start.s)));
    }
    ctx.guard(out.length);
  }
  return out;
}

/** Starts when both endpoints are free: every subject of a link of the predicate, bound to the subject. */
async function scanStarts(ctx: ExecContext, step: Step, s: Solution): Promise<{ value: Node; s: Solution }[]> {
  const links: LinkNode[] = (await ctx.graph.allLinks()).filter((l) => l.rel.type === step.pie);
  const seen = new Set<string>();
  const out: { value: Node; s: Solution }[] = [];
  for (const l of links) {
    const key = `${l.subject.kind}:${l.subject.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const value = await ctx.graph.value(l.subject);
    if (value) out.push({ value, s });
  }
  return out;
}

async function reachable(ctx: ExecContext, step: Step, start: Node, side: Side): Promise<Node[]> {
  const results = new Map<string, Node>();
  const key = (n: Node) => `${n.kind}:${n.id}`;
  if (step.min === 0) results.set(key(start), start);
  const visited = new Set<string>([`${key(start)}@0`]);
  let frontier: Node[] = [start];
  for (let depth = 1; frontier.length > 0 && (step.max === null || depth <= step.max); depth++) {
    await ctx.graph.prefetchEdges(frontier.map((n) => Graph.endpointId(n)));
    const next: Node[] = [];
    for (const node of frontier) {
      const id = Graph.endpointId(node);
      for (const rel of await ctx.graph.edges(id)) {
        if (rel.type !== step.pie) continue;
        if (side === 'subject' ? rel.sourceId !== id : rel.targetId !== id) continue;
        const link = ctx.graph.linkOf(rel);
        const other = await ctx.graph.value(side === 'subject' ? link.object : link.subject);
        if (!other) continue;
        const state = `${key(other)}@${step.max === null ? Math.min(depth, step.min) : depth}`;
        if (visited.has(state)) continue;
        visited.add(state);
        next.push(other);
        if (depth >= step.min) results.set(key(other), other);
      }
    }
    ctx.guard(visited.size);
    frontier = next;
  }
  return [...results.values()];
}
