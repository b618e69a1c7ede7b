import type { ConceptClause, Endpoint, PropClause } from '../../ast.js';
import { KipError } from '../../errors.js';
import { where } from '../../lexer.js';
import { CONCEPT_TYPE, PROPOSITION_TYPE, type ConceptNode, type LinkNode } from '../../mapping.js';
import type { ExecContext } from '../context.js';
import { Graph } from '../graph.js';
import type { TypeDef } from '../registry.js';

export type Node = ConceptNode | LinkNode;

/** The $self / $system identity concepts and the core domains (spec §6.1, "Protected Entities"). */
const IDENTITY_NAMES = new Set(['$self', '$system']);
const CORE_DOMAINS = new Set(['CoreSchema', 'Unsorted', 'Archived']);

/** A reference in KML that must already exist (spec §3.1 rule 5): handle, {type,name}, {id}, (id: …) or (s, p, o). */
export async function resolveRef(ctx: ExecContext, e: Endpoint, handles: ReadonlyMap<string, Node>): Promise<Node> {
  if (e.kind === 'var') {
    const h = handles.get(e.name);
    if (!h) {
      throw new KipError('KIP_3001', `The handle ?${e.name} at ${where(e.pos)} is not defined before this use.`, {
        hint: 'Define a handle in an earlier CONCEPT or PROPOSITION block of the same UPSERT.',
      });
    }
    return h;
  }
  if (e.kind === 'concept') return resolveConcept(ctx, e);
  return resolveLink(ctx, e, handles);
}

export async function resolveConcept(ctx: ExecContext, clause: ConceptClause): Promise<ConceptNode> {
  if (clause.id !== undefined) {
    const c = await ctx.graph.concept(clause.id);
    if (!c) throw new KipError('KIP_3002', `No concept has the id "${clause.id}" (at ${where(clause.pos)}).`);
    return c;
  }
  if (clause.type === undefined || clause.name === undefined) {
    throw new KipError('KIP_1001', `A reference at ${where(clause.pos)} names a concept by {type, name} or {id}.`);
  }
  const def = await ctx.registry.conceptType(clause.type);
  const found = await ctx.graph.conceptsNamed(clause.name, def.pie);
  const first = found[0];
  if (!first) {
    throw new KipError(
      'KIP_3002',
      `{type: "${clause.type}", name: "${clause.name}"} does not exist (at ${where(clause.pos)}).`,
      {
        hint: 'Create it first (UPSERT CONCEPT), or ground the name with SEARCH CONCEPT.',
      },
    );
  }
  return ctx.graph.conceptOf(first);
}

async function resolveLink(
  ctx: ExecContext,
  clause: PropClause,
  handles: ReadonlyMap<string, Node>,
): Promise<LinkNode> {
  if (clause.id !== undefined) {
    const l = await ctx.graph.linkById(clause.id);
    if (!l) throw new KipError('KIP_3002', `No proposition has the id "${clause.id}" (at ${where(clause.pos)}).`);
    return l;
  }
  const pred = clause.predicate;
  if (!clause.subject || !clause.object || pred?.kind !== 'path' || pred.alternatives.length !== 1) {
    throw new KipError('KIP_1001', `A proposition reference at ${where(clause.pos)} needs a literal predicate.`);
  }
  const name = pred.alternatives[0]?.name ?? '';
  const def = await ctx.registry.predicate(name);
  const subject = await resolveRef(ctx, clause.subject, handles);
  const object = await resolveRef(ctx, clause.object, handles);
  const rel = await ctx.store.relationships.findOpen({
    sourceId: Graph.endpointId(subject),
    targetId: Graph.endpointId(object),
    type: def.pie,
  });
  if (!rel) throw new KipError('KIP_3002', `The proposition (…, "${name}", …) at ${where(clause.pos)} does not exist.`);
  return ctx.graph.linkOf(rel);
}

/** KIP_2002 when a predicate's definition restricts its subject or object types and the endpoint is another type. */
export function checkEndpointTypes(def: TypeDef, subject: Node, object: Node): void {
  const check = (role: 'subject' | 'object', node: Node) => {
    const allowed = def.attributes[`${role}_types`];
    if (!Array.isArray(allowed) || allowed.length === 0 || allowed.includes('*')) return;
    const type = node.kind === 'concept' ? node.type : '$Proposition';
    if (!allowed.includes(type)) {
      throw new KipError(
        'KIP_2002',
        `"${def.kip}" takes ${role}s of type ${allowed.map((t) => JSON.stringify(t)).join(', ')}, not ${type}.`,
        { hint: `See DESCRIBE PROPOSITION TYPE "${def.kip}".` },
      );
    }
  };
  check('subject', subject);
  check('object', object);
}

export function isIdentity(node: ConceptNode): boolean {
  return node.type === 'Person' && IDENTITY_NAMES.has(node.name);
}

/** `core_directives` of $self / $system can be set once, never changed or removed. */
export function guardCoreDirectives(node: ConceptNode, keys: Iterable<string>, values?: Record<string, unknown>): void {
  if (!isIdentity(node) || !Object.prototype.hasOwnProperty.call(node.attributes, 'core_directives')) return;
  for (const k of keys) {
    if (k !== 'core_directives') continue;
    if (values && JSON.stringify(values[k]) === JSON.stringify(node.attributes[k])) continue;
    throw new KipError('KIP_3004', `The core_directives of ${node.name} are immutable.`);
  }
}

/** Protected concepts cannot be deleted or merged (spec §3.4, "Protected Entities"). */
export async function isProtected(ctx: ExecContext, node: ConceptNode): Promise<boolean> {
  if (node.entity.protected || isIdentity(node)) return true;
  if (node.type === 'Domain' && CORE_DOMAINS.has(node.name)) return true;
  if (node.type !== CONCEPT_TYPE && node.type !== PROPOSITION_TYPE) return false;
  return belongsToCoreSchema(ctx, node);
}

async function belongsToCoreSchema(ctx: ExecContext, node: ConceptNode): Promise<boolean> {
  const pie = (await ctx.registry.predicate('belongs_to_domain')).pie;
  for (const rel of await ctx.graph.edges(node.id)) {
    if (rel.type !== pie || rel.sourceId !== node.id) continue;
    const target = await ctx.graph.concept(rel.targetId);
    if (target?.type === 'Domain' && target.name === 'CoreSchema') return true;
  }
  return false;
}

/** The `belongs_to_domain` links of protected definitions to CoreSchema cannot be deleted. */
export async function isProtectedLink(ctx: ExecContext, link: LinkNode): Promise<boolean> {
  if (link.predicate !== 'belongs_to_domain') return false;
  const subject = await ctx.graph.value(link.subject);
  const object = await ctx.graph.value(link.object);
  return (
    subject?.kind === 'concept' &&
    object?.kind === 'concept' &&
    object.type === 'Domain' &&
    object.name === 'CoreSchema' &&
    (await isProtected(ctx, subject))
  );
}
