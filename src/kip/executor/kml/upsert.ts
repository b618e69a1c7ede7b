import type { UpsertConcept, UpsertProposition, UpsertStatement } from '../../ast.js';
import { KipError } from '../../errors.js';
import { where } from '../../lexer.js';
import {
  CONCEPT_TYPE,
  PREDICATE_NAME,
  PROPOSITION_TYPE,
  TYPE_NAME,
  defaultPieRelType,
  defaultPieType,
  isVisibleEntity,
  kipMeta,
  type ConceptNode,
  type LinkNode,
} from '../../mapping.js';
import type { ExecContext } from '../context.js';
import { changeConcept, createConcept } from '../write/concept.js';
import { changeLink, checkVersion, upsertLink } from '../write/link.js';
import { mergeMetadata, rejectReserved } from '../write/provenance.js';
import { checkEndpointTypes, guardCoreDirectives, resolveRef, type Node } from '../write/refs.js';

export type WriteStatus = 'created' | 'updated' | 'unchanged';

export interface UpsertResult {
  concepts: { id: string; type: string; name: string; status: WriteStatus; handle?: string }[];
  propositions: {
    id: string;
    subject: string;
    predicate: string;
    object: string;
    status: WriteStatus;
    handle?: string;
  }[];
}

/**
 * UPSERT (spec §3.1): blocks run top to bottom, handles must be defined before use, metadata layers merge
 * (item over block over global), targets must exist, EXPECT VERSION guards a block. The caller's transaction makes
 * the statement atomic: any error undoes every block.
 */
export async function executeUpsert(ctx: ExecContext, stmt: UpsertStatement): Promise<UpsertResult> {
  const handles = new Map<string, Node>();
  const result: UpsertResult = { concepts: [], propositions: [] };
  rejectReserved(Object.keys(stmt.metadata ?? {}), 'WITH METADATA');
  for (const item of stmt.items) {
    if (item.kind === 'concept') await upsertConcept(ctx, stmt, item, handles, result);
    else await upsertProposition(ctx, stmt, item, handles, result);
  }
  return result;
}

async function upsertConcept(
  ctx: ExecContext,
  stmt: UpsertStatement,
  item: UpsertConcept,
  handles: Map<string, Node>,
  result: UpsertResult,
): Promise<void> {
  const metadata = mergeMetadata(stmt.metadata, item.metadata);
  rejectReserved(Object.keys(item.metadata ?? {}), 'WITH METADATA');
  const change = { set: item.attributes ?? {}, metadata };
  const { identity } = item;
  let node: ConceptNode;
  let status: WriteStatus;
  if (identity.id !== undefined) {
    const existing = await ctx.graph.concept(identity.id);
    if (!existing)
      throw new KipError('KIP_3002', `No concept has the id "${identity.id}" (at ${where(identity.pos)}).`);
    checkVersion(existing, item.expectVersion);
    guardCoreDirectives(existing, Object.keys(change.set), change.set);
    const r = await changeConcept(ctx, existing.entity, change, versionOption(item.expectVersion));
    node = ctx.graph.conceptOf(r.entity);
    status = r.changed ? 'updated' : 'unchanged';
  } else {
    const type = identity.type ?? '';
    const name = identity.name ?? '';
    const def = await ctx.registry.conceptType(type);
    checkDefinitionName(type, name, identity.pos);
    const found = await ctx.graph.conceptsNamed(name, def.pie, { includeDeleted: true });
    let visible = found.find(isVisibleEntity);
    if (!visible) {
      // A name merged away now lives on as an alias of the concept it was merged into.
      const into = found.map((e) => kipMeta(e).mergedInto).find((id) => id !== undefined);
      if (into) visible = (await ctx.graph.concept(into))?.entity;
    }
    const existing = visible ?? found[0];
    checkVersion(visible ? ctx.graph.conceptOf(visible) : null, item.expectVersion);
    if (existing) {
      if (visible) guardCoreDirectives(ctx.graph.conceptOf(visible), Object.keys(change.set), change.set);
      const r = await changeConcept(ctx, existing, change, { ...versionOption(item.expectVersion), restore: !visible });
      node = ctx.graph.conceptOf(r.entity);
      status = !visible ? 'created' : r.changed ? 'updated' : 'unchanged';
    } else {
      const kip =
        type === CONCEPT_TYPE
          ? { pieType: defaultPieType(name) }
          : type === PROPOSITION_TYPE
            ? { pieType: defaultPieRelType(name) }
            : {};
      const entity = await createConcept(ctx, { pieType: def.pie, name, change, kip });
      node = ctx.graph.conceptOf(entity);
      status = 'created';
    }
  }
  if (item.handle) handles.set(item.handle, node);
  result.concepts.push({
    id: node.id,
    type: node.type,
    name: node.name,
    status,
    ...(item.handle ? { handle: item.handle } : {}),
  });
  for (const sp of item.propositions) {
    rejectReserved(Object.keys(sp.metadata ?? {}), 'WITH METADATA');
    const def = await ctx.registry.predicate(sp.predicate);
    const target = await resolveRef(ctx, sp.target, handles);
    const subject = (await ctx.graph.concept(node.id)) ?? node;
    checkEndpointTypes(def, subject, target);
    const r = await upsertLink(ctx, {
      subject,
      pieType: def.pie,
      object: target,
      change: { set: {}, metadata: mergeMetadata(stmt.metadata, item.metadata, sp.metadata) },
    });
    result.propositions.push(linkEntry(r.link, r.status));
  }
}

async function upsertProposition(
  ctx: ExecContext,
  stmt: UpsertStatement,
  item: UpsertProposition,
  handles: Map<string, Node>,
  result: UpsertResult,
): Promise<void> {
  rejectReserved(Object.keys(item.metadata ?? {}), 'WITH METADATA');
  const change = { set: item.attributes ?? {}, metadata: mergeMetadata(stmt.metadata, item.metadata) };
  const { identity } = item;
  let link: LinkNode;
  let status: WriteStatus;
  if (identity.id !== undefined) {
    const existing = await ctx.graph.linkById(identity.id);
    if (!existing)
      throw new KipError('KIP_3002', `No proposition has the id "${identity.id}" (at ${where(identity.pos)}).`);
    checkVersion(existing, item.expectVersion);
    const r = await changeLink(ctx, existing, change);
    link = r.link;
    status = r.changed ? 'updated' : 'unchanged';
  } else {
    const pred = identity.predicate;
    if (!identity.subject || !identity.object || pred?.kind !== 'path') {
      throw new KipError(
        'KIP_1001',
        `The PROPOSITION block at ${where(identity.pos)} needs (subject, "predicate", object).`,
      );
    }
    const def = await ctx.registry.predicate(pred.alternatives[0]?.name ?? '');
    const subject = await resolveRef(ctx, identity.subject, handles);
    const object = await resolveRef(ctx, identity.object, handles);
    checkEndpointTypes(def, subject, object);
    const r = await upsertLink(ctx, {
      subject,
      pieType: def.pie,
      object,
      change,
      ...(item.expectVersion !== undefined ? { expectVersion: item.expectVersion } : {}),
    });
    link = r.link;
    status = r.status;
  }
  if (item.handle) handles.set(item.handle, link);
  result.propositions.push({ ...linkEntry(link, status), ...(item.handle ? { handle: item.handle } : {}) });
}

function linkEntry(link: LinkNode, status: WriteStatus): UpsertResult['propositions'][number] {
  return { id: link.id, subject: link.subject.id, predicate: link.predicate, object: link.object.id, status };
}

function versionOption(v: number | undefined): { expectedVersion?: number } {
  return v === undefined || v === 0 ? {} : { expectedVersion: v };
}

/** New types are UpperCamelCase and new predicates snake_case (spec §1.4); wrong case is KIP_2001. */
function checkDefinitionName(type: string, name: string, pos: UpsertConcept['pos']): void {
  if (type === CONCEPT_TYPE && !TYPE_NAME.test(name)) {
    throw new KipError(
      'KIP_2001',
      `'${name}' (at ${where(pos)}) is not a valid concept type name: use UpperCamelCase.`,
    );
  }
  if (type === PROPOSITION_TYPE && !PREDICATE_NAME.test(name)) {
    throw new KipError('KIP_2001', `'${name}' (at ${where(pos)}) is not a valid predicate name: use snake_case.`);
  }
}
