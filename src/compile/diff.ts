import type { StateValue } from '../domain/world.js';
import type {
  ActivityChange,
  AttributeChange,
  ContradictionChange,
  CreatedEntity,
  RelationshipChange,
  WorldDiff,
} from '../query/world-at/diff-compute.js';
import type { Bounded } from '../query/world-at/refs.js';
import type { Span } from '../query/world-at/span.js';
import { changeBracket, named } from './contradictions.js';
import { plural } from '../domain/humanize.js';
import { spanPoint } from './snapshot.js';
import { relationshipProps, stateText } from './timeline.js';
import { edgeStart, when, type TimeContext } from './time-format.js';

/**
 * What changed between two periods or dates as text (diff_periods): one section per kind of change, most important
 * first, each cut to the diff's limit with "… and N more".
 */
export function compileDiff(input: { diff: WorldDiff; time: TimeContext }): string {
  const d = input.diff;
  const ctx = input.time;
  const lines = [`Changes from ${spanPoint(ctx, d.a)}, to ${spanPoint(ctx, d.b)}:`];
  if (d.swapped) lines.push('(The later one was given first; they are compared in time order.)');
  const grown = d.entities.after - d.entities.before;
  lines.push(
    `Entities: ${d.entities.before} → ${d.entities.after}${grown === 0 ? '' : ` (${grown > 0 ? '+' : ''}${grown})`}.`,
  );
  const a = shortName(d.a);
  const b = shortName(d.b);
  section(lines, 'New', d.created, (e: CreatedEntity) => {
    const state = stateText(e.state);
    return `${named(e)} (${e.type}), first seen ${when(ctx, e.firstSeen)}${state ? `: ${state}` : ''}`;
  });
  section(
    lines,
    'State changed',
    d.attributesChanged,
    (c: AttributeChange) => `${named(c.entity)} — ${c.attribute}: ${valueText(c.from)} → ${valueText(c.to)}`,
  );
  section(
    lines,
    'Relationships begun',
    d.relationshipsBegun,
    (r) => `${edgeText(r)}, ${edgeStart(ctx, r.type, when(ctx, r.time))}`,
  );
  section(lines, 'Relationships ended', d.relationshipsEnded, (r) => `${edgeText(r)}, ended ${when(ctx, r.time)}`);
  section(lines, 'Beliefs reversed', d.beliefsReversed, (c: ContradictionChange) => {
    return `${named(c.entity)}: ${valueText(c.from?.stance ?? null)} → ${valueText(c.to.stance ?? null)}, ${when(ctx, c.time)} — ${c.summary}`;
  });
  section(lines, 'Contradictions raised', d.contradictions, (c: ContradictionChange) => {
    const resolved = c.resolved ? ' (since resolved)' : '';
    return `${named(c.entity)} (${c.entity.type}), ${when(ctx, c.time)}: ${c.summary}${changeBracket(c.summary, c.from, c.to)}${resolved}`;
  });
  section(lines, 'Gone quiet', d.goneQuiet, (x: ActivityChange) => {
    return `${named(x.entity)} (${x.entity.type}): ${plural(x.mentionsA, 'mention')} ${a}, none ${b}; last ${when(ctx, x.time)}`;
  });
  section(lines, 'Active again', d.newlyActive, (x: ActivityChange) => {
    return `${named(x.entity)} (${x.entity.type}): ${plural(x.mentionsB, 'mention')} ${b}, none ${a}; first ${when(ctx, x.time)}`;
  });
  if (totalChanges(d) === 0) lines.push('Nothing changed between them.');
  return lines.join('\n');
}

/** How many changes the diff holds across all its lists. */
export function totalChanges(d: WorldDiff): number {
  return [
    d.created,
    d.attributesChanged,
    d.relationshipsBegun,
    d.relationshipsEnded,
    d.beliefsReversed,
    d.contradictions,
    d.goneQuiet,
    d.newlyActive,
  ].reduce((sum, list) => sum + list.total, 0);
}

function section<T>(lines: string[], title: string, list: Bounded<T>, line: (item: T) => string): void {
  if (list.total === 0) return;
  lines.push(`${title} (${list.total}):`);
  for (const item of list.items) lines.push(`  • ${line(item)}`);
  if (list.total > list.items.length) lines.push(`  … and ${list.total - list.items.length} more.`);
}

function edgeText(r: RelationshipChange): string {
  const props = relationshipProps(r.properties);
  return `${named(r.source)} ${r.type} ${named(r.target)}${props ? ` (${props})` : ''}`;
}

/** Where a span's activity was counted, as a short prepositional phrase. */
function shortName(span: Span): string {
  if (span.kind === 'now') return 'since then';
  if (span.kind === 'date') return `on ${span.label}`;
  return `during ${span.label}`;
}

function valueText(v: StateValue | undefined): string {
  return v === undefined || v === null || v === '' ? '∅' : String(v);
}
