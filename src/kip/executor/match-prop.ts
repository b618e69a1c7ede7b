import type { Relationship } from '../../domain/world.js';
import type { Endpoint, PredicateStep, PropClause } from '../ast.js';
import { KipError } from '../errors.js';
import { where } from '../lexer.js';
import type { ConceptNode, LinkNode } from '../mapping.js';
import type { ExecContext } from './context.js';
import type { Solution } from './expr.js';
import { Graph } from './graph.js';
import { conceptCandidates, conceptMatches } from './match-concept.js';
import { walkPath } from './paths.js';

type Node = ConceptNode | LinkNode;
type Side = 'subject' | 'object';

/** Predicate constraint of one alternative: exact PIE relationship type, or any (variable) with hop range. */
interface Step {
  pie: string | null;
  kip: string | null;
  min: number;
  max: number | null;
}

const NESTED = '#nested';

/**
 * Joins solutions with a proposition pattern `?link (subject, predicate, object)`. Matching is driven from the
 * cheaper endpoint (a bound variable, an id or a name, then a type; a free variable last): its edges come from the
 * entity index in batches, and the other endpoint is only tested. With both endpoints free, the open links are
 * scanned once.
 */
export async function matchPropPattern(
  ctx: ExecContext,
  clause: PropClause,
  linkVar: string | undefined,
  input: readonly Solution[],
): Promise<Solution[]> {
  if (clause.id !== undefined) {
    const link = await ctx.graph.linkById(clause.id);
    if (!link) return [];
    return input.flatMap((s) => bindValue(s, linkVar, link));
  }
  const steps = await resolveSteps(ctx, clause, linkVar);
  const out: Solution[] = [];
  for (const step of steps) {
    const single = step.min === 1 && step.max === 1;
    const plans = await Promise.all(input.map((s) => plan(ctx, clause, s)));
    await ctx.graph.prefetchEdges(plans.flatMap((p) => (p.drive ? p.drive.map((d) => Graph.endpointId(d.value)) : [])));
    if (single) await prefetchOtherEnds(ctx, plans, step);
    for (let i = 0; i < input.length; i++) {
      const s = input[i] as Solution;
      const p = plans[i] as Plan;
      if (!single) {
        out.push(...(await walkPath({ ctx, clause, step, s, drive: p.drive, side: p.side, test: testEndpoint })));
      } else if (p.drive) {
        for (const d of p.drive) out.push(...(await expandFrom(ctx, clause, step, linkVar, d.s, d.value, p.side)));
      } else {
        out.push(...(await scan(ctx, clause, step, linkVar, s)));
      }
      ctx.guard(out.length);
    }
  }
  return out;
}

/** Loads the entities at the far end of every edge the drivers will follow, in a few batched reads. */
async function prefetchOtherEnds(ctx: ExecContext, plans: readonly Plan[], step: Step): Promise<void> {
  const ids: string[] = [];
  for (const p of plans) {
    for (const d of p.drive ?? []) {
      const id = Graph.endpointId(d.value);
      for (const r of await ctx.graph.edges(id)) {
        if (step.pie !== null && r.type !== step.pie) continue;
        if (p.side === 'subject' ? r.sourceId === id : r.targetId === id)
          ids.push(p.side === 'subject' ? r.targetId : r.sourceId);
      }
    }
  }
  await ctx.graph.prefetchEntities(ids);
}

async function resolveSteps(ctx: ExecContext, clause: PropClause, linkVar: string | undefined): Promise<Step[]> {
  const pred = clause.predicate;
  if (!pred || pred.kind === 'var') return [{ pie: null, kip: null, min: 1, max: 1 }];
  const steps: Step[] = [];
  for (const alt of pred.alternatives as PredicateStep[]) {
    const def = await ctx.registry.predicate(alt.name);
    if (linkVar !== undefined && (alt.min !== 1 || alt.max !== 1)) {
      throw new KipError(
        'KIP_1001',
        `?${linkVar} at ${where(clause.pos)} cannot bind a path of ${alt.min}..${alt.max ?? '∞'} hops; drop the link variable or the hop range.`,
      );
    }
    steps.push({ pie: def.pie, kip: def.kip, min: alt.min, max: alt.max });
  }
  return steps;
}

interface Plan {
  side: Side;
  /** Values to start from (with the solution extended by their binding); null = scan. */
  drive: { value: Node; s: Solution }[] | null;
}

/** Chooses the endpoint to start from and enumerates it. */
async function plan(ctx: ExecContext, clause: PropClause, s: Solution): Promise<Plan> {
  const cs = cost(clause.subject, s);
  const co = cost(clause.object, s);
  if (cs === Infinity && co === Infinity) return { side: 'subject', drive: null };
  const side: Side = cs <= co ? 'subject' : 'object';
  const endpoint = side === 'subject' ? clause.subject : clause.object;
  return { side, drive: await enumerate(ctx, endpoint, s) };
}

function cost(e: Endpoint | undefined, s: Solution): number {
  if (!e) return Infinity;
  if (e.kind === 'var') {
    const v = s[e.name];
    return v === undefined || v === null ? Infinity : 1;
  }
  if (e.kind === 'concept') return e.id !== undefined ? 1 : e.name !== undefined ? 2 : 1000;
  return e.id !== undefined ? 1 : 10;
}

/** The values an endpoint can take (bound variable, clause candidates, or links of a nested clause). */
async function enumerate(
  ctx: ExecContext,
  e: Endpoint | undefined,
  s: Solution,
): Promise<{ value: Node; s: Solution }[]> {
  if (!e) return [];
  if (e.kind === 'var') {
    const v = s[e.name];
    return v && typeof v !== 'string' ? [{ value: v, s }] : [];
  }
  if (e.kind === 'concept') return (await conceptCandidates(ctx, e)).map((value) => ({ value, s }));
  const nested = await matchPropPattern(ctx, e, NESTED, [s]);
  return nested.flatMap((n) => {
    const link = n[NESTED];
    if (!link || typeof link === 'string') return [];
    const rest = { ...n };
    delete rest[NESTED];
    return [{ value: link, s: rest }];
  });
}

/** Solutions in which endpoint `e` takes `value` (a bound var must be equal; a free one is bound). */
export async function testEndpoint(
  ctx: ExecContext,
  e: Endpoint | undefined,
  value: Node,
  s: Solution,
): Promise<Solution[]> {
  if (!e) return [s];
  if (e.kind === 'var') {
    const bound = s[e.name];
    if (bound === undefined || bound === null) return [{ ...s, [e.name]: value }];
    return typeof bound !== 'string' && bound.kind === value.kind && bound.id === value.id ? [s] : [];
  }
  if (e.kind === 'concept') return (await conceptMatches(ctx, e, value)) ? [s] : [];
  if (value.kind !== 'link') return [];
  return matchLink(ctx, e, value, s);
}

/** Solutions in which a nested clause matches a given link. */
async function matchLink(ctx: ExecContext, clause: PropClause, link: LinkNode, s: Solution): Promise<Solution[]> {
  if (clause.id !== undefined) return link.id === clause.id ? [s] : [];
  const pred = clause.predicate;
  let base: Solution[] = [s];
  if (pred?.kind === 'path') {
    const names = new Set(pred.alternatives.map((a) => a.name));
    if (!names.has(link.predicate)) return [];
  } else if (pred?.kind === 'var') {
    base = bindValue(s, pred.name, link.predicate);
  }
  const subject = await ctx.graph.value(link.subject);
  const object = await ctx.graph.value(link.object);
  if (!subject || !object) return [];
  const out: Solution[] = [];
  for (const b of base) {
    for (const t of await testEndpoint(ctx, clause.subject, subject, b)) {
      out.push(...(await testEndpoint(ctx, clause.object, object, t)));
    }
  }
  return out;
}

/** One-hop matches starting from a driving value. */
async function expandFrom(
  ctx: ExecContext,
  clause: PropClause,
  step: Step,
  linkVar: string | undefined,
  s: Solution,
  start: Node,
  side: Side,
): Promise<Solution[]> {
  const id = Graph.endpointId(start);
  const rels = (await ctx.graph.edges(id)).filter(
    (r) => (side === 'subject' ? r.sourceId === id : r.targetId === id) && (step.pie === null || r.type === step.pie),
  );
  await ctx.graph.prefetchEntities(rels.map((r) => (side === 'subject' ? r.targetId : r.sourceId)));
  const out: Solution[] = [];
  for (const rel of rels) {
    const link = ctx.graph.linkOf(rel);
    const other = await ctx.graph.value(side === 'subject' ? link.object : link.subject);
    if (!other) continue;
    const otherEnd = side === 'subject' ? clause.object : clause.subject;
    for (const t of await testEndpoint(ctx, otherEnd, other, s)) out.push(...bindLink(clause, linkVar, link, t));
  }
  return out;
}

/** Both endpoints free: every open link of the predicate (one scan per command). */
async function scan(
  ctx: ExecContext,
  clause: PropClause,
  step: Step,
  linkVar: string | undefined,
  s: Solution,
): Promise<Solution[]> {
  const links = (await ctx.graph.allLinks()).filter((l) => step.pie === null || l.rel.type === step.pie);
  await ctx.graph.prefetchEntities(links.flatMap((l) => [l.rel.sourceId, l.rel.targetId]));
  const out: Solution[] = [];
  for (const link of links) {
    const subject = await ctx.graph.value(link.subject);
    const object = await ctx.graph.value(link.object);
    if (!subject || !object) continue;
    for (const t of await testEndpoint(ctx, clause.subject, subject, s)) {
      for (const u of await testEndpoint(ctx, clause.object, object, t))
        out.push(...bindLink(clause, linkVar, link, u));
    }
    ctx.guard(out.length);
  }
  return out;
}

function bindLink(clause: PropClause, linkVar: string | undefined, link: LinkNode, s: Solution): Solution[] {
  const pred = clause.predicate;
  const withPred = pred?.kind === 'var' ? bindValue(s, pred.name, link.predicate) : [s];
  return withPred.flatMap((t) => bindValue(t, linkVar, link));
}

/** Binds `name` to `value` unless it is bound to something else (then no solution). */
export function bindValue(s: Solution, name: string | undefined, value: Node | string): Solution[] {
  if (name === undefined) return [s];
  const bound = s[name];
  if (bound === undefined || bound === null) return [{ ...s, [name]: value }];
  if (typeof bound === 'string' || typeof value === 'string') return bound === value ? [s] : [];
  return bound.kind === value.kind && bound.id === value.id ? [s] : [];
}

export type { Node, Side, Step, Relationship };
