import type { SnapshotEntity, SnapshotRelationship, WorldSnapshot } from '../query/world-at/snapshot.js';
import type { Span } from '../query/world-at/span.js';
import { relationshipProps, stateText } from './timeline.js';
import { edgeStart, when, type TimeContext } from './time-format.js';
import { plural } from '../domain/humanize.js';
import { genericLast } from '../domain/world.js';

/** Relationships listed under one entity in the text (the JSON has them all). */
const EDGES_PER_ENTITY = 5;
/** Edges that only say "first seen during this period": implied by the snapshot itself, left out of the text. */
const IMPLIED_EDGES = new Set(['DURING']);

/**
 * The world at a time as text (get_world_snapshot): when it is read, how much existed, what was active in the span,
 * then the most important entities with their state then and their relationships then.
 */
export function compileSnapshot(input: { snapshot: WorldSnapshot; time: TimeContext }): string {
  const s = input.snapshot;
  const ctx = input.time;
  const lines: string[] = [];
  const what =
    s.type === null
      ? plural(s.total, 'entity', 'entities')
      : `${plural(s.total, 'entity', 'entities')} of type ${s.type}`;
  const types = s.type === null && s.total > 0 ? ` (${typeCounts(s.byType)})` : '';
  const resting = [
    s.byTier.summarized > 0 ? `${s.byTier.summarized} summarized` : '',
    s.byTier.archived > 0 ? `${s.byTier.archived} archived` : '',
  ].filter(Boolean);
  const tiers =
    resting.length > 0 ? ` Of these, ${resting.join(' and ')} (tiers of attention; they still existed).` : '';
  lines.push(
    `World ${momentPhrase(ctx, s.span, s.at)}: ${what}${types}; ${plural(s.transitions, 'transition')} so far.${tiers}`,
  );
  const spanLine = activityLine(ctx, s);
  if (spanLine) lines.push(spanLine);
  if (s.entities.length === 0) {
    lines.push(s.total === 0 ? 'Nothing was known yet at that time.' : 'No entities to show.');
    return lines.join('\n');
  }
  lines.push(
    s.entities.length < s.total
      ? `The ${s.entities.length} most important of ${s.total}:`
      : `${s.entities.length === 1 ? 'The entity' : 'Entities'}, most important first:`,
  );
  const edges = edgesByEntity(s);
  for (const e of s.entities.filter((x) => x.tier !== 'archived')) {
    lines.push(`  • ${entityLine(e, s.span)}`);
    const mine = edges.get(e.id) ?? [];
    for (const r of mine.slice(0, EDGES_PER_ENTITY)) lines.push(`      ${edgeLine(ctx, e.id, r)}`);
    if (mine.length > EDGES_PER_ENTITY) lines.push(`      … and ${mine.length - EDGES_PER_ENTITY} more.`);
  }
  // Archived ones are listed last, collapsed to their names.
  const archived = s.entities.filter((x) => x.tier === 'archived');
  if (archived.length > 0) {
    const names = archived.slice(0, ARCHIVED_NAMES).map((e) => `${e.name} (${e.type})`);
    const more = s.byTier.archived - names.length;
    lines.push(`  Archived (${s.byTier.archived}): ${names.join(', ')}${more > 0 ? `, and ${more} more` : ''}.`);
  }
  return lines.join('\n');
}

/** Archived entities named in the collapsed line of the text. */
const ARCHIVED_NAMES = 12;

function entityLine(e: SnapshotEntity, span: Span | null): string {
  const state = stateText(e.state);
  const details: string[] = [];
  if (e.changes > 0) details.push(`${plural(e.changes, 'change')} so far`);
  if (e.activity && span) {
    const { mentions, changes } = e.activity;
    const parts = [mentions > 0 ? plural(mentions, 'mention') : '', changes > 0 ? plural(changes, 'change') : ''];
    const active = parts.filter(Boolean).join(', ');
    details.push(active ? `${activityPlace(span)}: ${active}` : `quiet ${activityPlace(span)}`);
  }
  const tier = e.tier === 'summarized' ? ' [summarized]' : '';
  return `${e.name} (${e.type})${tier}${state ? `: ${state}` : ''}${details.length > 0 ? ` — ${details.join('; ')}` : ''}`;
}

function edgeLine(ctx: TimeContext, entityId: string, r: SnapshotRelationship): string {
  const props = relationshipProps(r.properties);
  const out = r.source.id === entityId;
  const arrow = out ? `→ ${r.type} ${r.target.name}` : `← ${r.type} ${r.source.name}`;
  return `${arrow}${props ? ` (${props})` : ''}, ${edgeStart(ctx, r.type, when(ctx, r.validFrom))}`;
}

/**
 * Each relationship once, under the first listed entity it touches; a generic RELATED_TO (a dream's discovery, most
 * often) after the relationships that say what the link is, which the text's few lines per entity are for.
 */
function edgesByEntity(s: WorldSnapshot): Map<string, SnapshotRelationship[]> {
  const rank = new Map(s.entities.map((e, i) => [e.id, i]));
  const out = new Map<string, SnapshotRelationship[]>();
  for (const r of s.relationships) {
    if (IMPLIED_EDGES.has(r.type)) continue;
    const ranks = [rank.get(r.source.id), rank.get(r.target.id)].filter((x): x is number => x !== undefined);
    const owner = s.entities[Math.min(...ranks)];
    if (!owner) continue;
    out.set(owner.id, [...(out.get(owner.id) ?? []), r]);
  }
  for (const list of out.values()) list.sort((a, b) => genericLast(a) - genericLast(b));
  return out;
}

function activityLine(ctx: TimeContext, s: WorldSnapshot): string | null {
  const span = s.span;
  if (!span || s.active === null) return null;
  const active = `${plural(s.active, 'entity', 'entities')} active ${activityPlace(span)} (mentioned or changed)`;
  if (span.kind !== 'period') return `${capitalize(active)}.`;
  const own = withoutOwnPeriod(ctx, span);
  const end = span.ongoing ? 'now (ongoing)' : when(own, span.end - 1);
  return `Period: ${span.label}, from ${when(own, span.start)} to ${end}; ${active}.`;
}

function activityPlace(span: Span): string {
  if (span.kind === 'period') return 'in this period';
  if (span.kind === 'date') return 'that day';
  return `in ${span.label}`;
}

/**
 * The instant a span is read at, as a phrase: "at the end of junior year at UMD, 31 May 2025", "during the gap
 * semester (ongoing), as of today", "as of 1 May 2024".
 */
export function momentPhrase(ctx: TimeContext, span: Span | null, at: number): string {
  if (!span || span.kind === 'date' || span.kind === 'now') return `as of ${when(ctx, at)}`;
  return `at ${spanPoint(ctx, span)}`;
}

/** The point of a span the world is read at, as a noun phrase: "the end of junior year at UMD, 31 May 2025". */
export function spanPoint(ctx: TimeContext, span: Span): string {
  const own = withoutOwnPeriod(ctx, span);
  switch (span.kind) {
    case 'date':
      return when(ctx, span.at);
    case 'now':
      return `now, ${when(ctx, span.at)}`;
    case 'period':
    case 'range':
      return span.ongoing || span.at < span.end - 1
        ? `${span.label} so far, ${when(own, span.at)}`
        : `the end of ${span.label}, ${when(own, span.at)}`;
  }
}

/** A span's period is already named: times inside it are not also told as "during <that period>". */
function withoutOwnPeriod(ctx: TimeContext, span: Span): TimeContext {
  if (!span.periodId) return ctx;
  return { ...ctx, periods: ctx.periods.filter((p) => p.entityId !== span.periodId) };
}

function typeCounts(byType: Record<string, number>): string {
  return Object.entries(byType)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
