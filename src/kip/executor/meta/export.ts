import type { ExportStatement, JsonObject, JsonValue } from '../../ast.js';
import type { ConceptNode, EndRef, LinkNode } from '../../mapping.js';
import { withoutReserved } from '../../values.js';
import type { ExecContext } from '../context.js';
import { targetsOf } from '../kml/targets.js';

export interface ExportResult {
  capsule: string;
  concepts: number;
  propositions: number;
}

/**
 * EXPORT (spec §4.3): the matched concepts and propositions as one idempotent UPSERT capsule. Concepts come first
 * (handles ?c1…), then propositions in dependency order (?p1…); endpoints outside the export become `{type, name}`
 * references (or nested `(s, "p", o)` tuples for propositions), which must exist where the capsule is imported.
 * Reserved `_` metadata is never exported; attributes include `aliases`.
 */
export async function executeExport(ctx: ExecContext, stmt: ExportStatement): Promise<ExportResult> {
  const { nodes } = await targetsOf(ctx, {
    where: stmt.where,
    variable: stmt.target,
    pos: stmt.pos,
    role: 'EXPORT target',
  });
  const selected = stmt.limit === undefined ? nodes : nodes.slice(0, stmt.limit);
  const concepts = selected.filter((n): n is ConceptNode => n.kind === 'concept');
  const links = order(selected.filter((n): n is LinkNode => n.kind === 'link'));
  const handles = new Map<string, string>();
  concepts.forEach((c, i) => handles.set(`concept:${c.id}`, `?c${i + 1}`));
  links.forEach((l, i) => handles.set(`link:${l.id}`, `?p${i + 1}`));
  const lines: string[] = ['UPSERT {'];
  for (const c of concepts) {
    lines.push(`  CONCEPT ${handles.get(`concept:${c.id}`)} {`, `    {type: ${str(c.type)}, name: ${str(c.name)}}`);
    if (Object.keys(c.attributes).length > 0) lines.push(`    SET ATTRIBUTES ${kipValue(c.attributes)}`);
    lines.push('  }');
    pushMetadata(lines, c.metadata);
  }
  for (const l of links) {
    const s = await endpointText(ctx, l.subject, handles, 0);
    const o = await endpointText(ctx, l.object, handles, 0);
    lines.push(`  PROPOSITION ${handles.get(`link:${l.id}`)} {`, `    (${s}, ${str(l.predicate)}, ${o})`);
    if (Object.keys(l.attributes).length > 0) lines.push(`    SET ATTRIBUTES ${kipValue(l.attributes)}`);
    lines.push('  }');
    pushMetadata(lines, l.metadata);
  }
  lines.push('}');
  return { capsule: `${lines.join('\n')}\n`, concepts: concepts.length, propositions: links.length };
}

function pushMetadata(lines: string[], metadata: JsonObject): void {
  const exported = withoutReserved(metadata);
  if (Object.keys(exported).length > 0) lines.push(`  WITH METADATA ${kipValue(exported)}`);
}

/** Links whose endpoints are exported links come after them. */
function order(links: LinkNode[]): LinkNode[] {
  const byId = new Map(links.map((l) => [l.id, l]));
  const out: LinkNode[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (l: LinkNode) => {
    if (state.get(l.id)) return;
    state.set(l.id, 'visiting');
    for (const ref of [l.subject, l.object]) {
      const dep = ref.kind === 'link' ? byId.get(ref.id) : undefined;
      if (dep) visit(dep);
    }
    state.set(l.id, 'done');
    out.push(l);
  };
  links.forEach(visit);
  return out;
}

async function endpointText(
  ctx: ExecContext,
  ref: EndRef,
  handles: Map<string, string>,
  depth: number,
): Promise<string> {
  const handle = handles.get(`${ref.kind}:${ref.id}`);
  if (handle) return handle;
  const value = await ctx.graph.value(ref);
  if (!value) return ref.kind === 'concept' ? `{id: ${str(ref.id)}}` : `(id: ${str(ref.id)})`;
  if (value.kind === 'concept') return `{type: ${str(value.type)}, name: ${str(value.name)}}`;
  if (depth > 8) return `(id: ${str(value.id)})`;
  const s = await endpointText(ctx, value.subject, handles, depth + 1);
  const o = await endpointText(ctx, value.object, handles, depth + 1);
  return `(${s}, ${str(value.predicate)}, ${o})`;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function str(s: string): string {
  return JSON.stringify(s);
}

/** A JSON value in KIP notation: identifier keys unquoted. */
export function kipValue(v: JsonValue): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(kipValue).join(', ')}]`;
  const entries = Object.entries(v).map(([k, x]) => `${IDENT.test(k) ? k : JSON.stringify(k)}: ${kipValue(x)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}
