import type { EntityState } from '../domain/world.js';
import type { Contradiction, EdgeContradiction, StateContradiction } from '../query/world-at/contradictions.js';
import type { EntityRef } from '../query/world-at/refs.js';
import { plural } from '../domain/humanize.js';
import { bracketAfter } from './timeline.js';
import { when, type TimeContext } from './time-format.js';

/**
 * Contradictions as text (get_contradictions): each with the entity, when, what flipped (from → to), the summary and
 * the conversation it came from; resolved ones (with `all`) say how they were resolved.
 */
export function compileContradictions(input: {
  contradictions: readonly Contradiction[];
  /** The entity the list was narrowed to, if any. */
  entity?: string | null;
  all?: boolean;
  time: TimeContext;
}): string {
  const ctx = input.time;
  const list = input.contradictions;
  const about = input.entity ? ` about ${input.entity}` : '';
  if (list.length === 0) {
    return input.all ? `No contradictions${about}.` : `No unresolved contradictions${about}.`;
  }
  const resolved = list.filter((c) => c.resolved).length;
  const head = input.all
    ? `${plural(list.length, 'contradiction')}${about} (${resolved} resolved, ${list.length - resolved} open):`
    : `${plural(list.length, 'unresolved contradiction')}${about}:`;
  const lines = [head];
  for (const c of list) lines.push(...(c.kind === 'state' ? stateLines(ctx, c) : edgeLines(ctx, c)));
  return lines.join('\n');
}

function stateLines(ctx: TimeContext, c: StateContradiction): string[] {
  const by = c.contradictedBy ? `; contradicted by ${named(c.contradictedBy)}` : '';
  const lines = [
    `  • ${named(c.entity)} (${c.entity.type}), ${when(ctx, c.time)}: ${c.summary}${changeBracket(c.summary, c.from, c.to)}${by}`,
  ];
  if (c.source) lines.push(`      Source: “${c.source.title}”, ${when(ctx, c.source.time)}.`);
  if (c.resolved) {
    lines.push(
      c.resolution ? `      ✓ Resolved ${when(ctx, c.resolution.time)}: ${c.resolution.summary}` : '      ✓ Resolved.',
    );
  }
  return lines;
}

function edgeLines(ctx: TimeContext, c: EdgeContradiction): string[] {
  const state =
    c.ended === null ? `open since ${when(ctx, c.time)}` : `from ${when(ctx, c.time)}, closed ${when(ctx, c.ended)}`;
  const lines = [`  • ${named(c.source)} contradicts ${named(c.target)}, ${state}`];
  if (c.episode) lines.push(`      Source: “${c.episode.title}”, ${when(ctx, c.episode.time)}.`);
  if (c.resolved) lines.push('      ✓ Resolved.');
  return lines;
}

/** Beliefs are statements: quoted; other entities by name. */
export function named(e: EntityRef): string {
  return e.type === 'belief' ? `“${e.name}”` : e.name;
}

/** "focus: mentoring → research curriculum" for each attribute the change sets. */
export function changeText(from: EntityState | null, to: EntityState): string {
  return Object.keys(to)
    .map((k) => `${k}: ${valueText(from?.[k])} → ${valueText(to[k])}`)
    .join('; ');
}

/** " [relation: sister → friend]" after a summary, or nothing when the change is empty or the summary says it. */
export function changeBracket(summary: string, from: EntityState | null, to: EntityState): string {
  return bracketAfter(summary, changeText(from, to));
}

function valueText(v: EntityState[string] | undefined): string {
  return v === undefined || v === null || v === '' ? '∅' : String(v);
}
