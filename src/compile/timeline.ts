import { humanizeDuration, monthsBetween } from '../domain/humanize.js';
import {
  EVENT_ATTRIBUTE,
  isEventChange,
  isPlanChange,
  isWorldChange,
  PLAN_ATTRIBUTE,
  startWord,
  type EntityState,
  type Transition,
} from '../domain/world.js';
import type { EntityTimeline, TimelineRelationship } from '../world/timeline.js';
import { longDate, when, type TimeContext } from './time-format.js';

/**
 * An entity's history as a temporal narrative (pie-paper §4.1): age and first period, staleness, change count and
 * velocity, each transition with its time and summary, contradictions flagged, relationships with valid times, and
 * the source conversations.
 */
export function compileTimeline(input: { timeline: EntityTimeline; time: Omit<TimeContext, 'periods'> }): string {
  const { timeline } = input;
  const ctx: TimeContext = { ...input.time, periods: timeline.periods };
  const e = timeline.entity;
  const lines: string[] = [];
  lines.push(`${e.name} (${e.type})${e.aliases.length > 0 ? `, also called ${e.aliases.join(', ')}` : ''}`);
  lines.push(`First appeared ${when(ctx, e.firstSeen)}; last referenced ${when(ctx, e.lastSeen)}.`);
  const changes = timeline.transitions.filter((t) => isWorldChange(t.kind));
  const months = Math.max(monthsBetween(e.firstSeen, e.lastSeen), 1);
  lines.push(
    `Changed state ${changes.length} ${changes.length === 1 ? 'time' : 'times'} (~${(changes.length / months).toFixed(1)} per month)` +
      ` over ${humanizeDuration(e.lastSeen - e.firstSeen)}.`,
  );
  const state = stateText(e.state);
  if (state) lines.push(`Current state: ${state}.`);
  if (e.tier !== 'active') lines.push(`Tier: ${e.tier}.`);
  if (timeline.transitions.length > 0) {
    lines.push('History:');
    for (const t of timeline.transitions) lines.push(...transitionLines(ctx, t));
  }
  if (timeline.relationships.length > 0) {
    lines.push('Relationships:');
    for (const r of timeline.relationships) lines.push(`  • ${relationshipText(ctx, e.name, r)}`);
  }
  if (timeline.sources.length > 0) {
    lines.push(`Sources: ${timeline.sources.map((s) => `“${s.title}” (${longDate(s.time, ctx.tz)})`).join('; ')}.`);
  }
  return lines.join('\n');
}

function transitionLines(ctx: TimeContext, t: Transition): string[] {
  const change = changeNote(t);
  const lines = [`  • ${when(ctx, t.eventTime)}: ${t.summary}${change}`];
  if (t.kind === 'contradiction') {
    lines.push(`    ⚠ This contradicted the previous state${t.resolvedBy ? ' (since resolved)' : ' (unresolved)'}.`);
  }
  if (t.kind === 'resolution') lines.push('    ✓ Resolved an earlier contradiction.');
  return lines;
}

/** Text compared as said: lower case, without a final point or space. */
function plain(v: unknown): string {
  return String(v)
    .toLowerCase()
    .replace(/[\s.!?]+$/, '')
    .trim();
}

/**
 * What a transition changed, in brackets after its summary (" [status: active → paused]"); nothing for a creation, or
 * for an event the summary already tells ("Went camping (last week [...])" recording latest_event: went camping): its
 * "previous → new event" says again what the line and the one before it said; nor for a summary that is the change
 * itself ("relation: sister → best friend"). Pure.
 */
export function changeNote(t: Pick<Transition, 'kind' | 'fromState' | 'toState' | 'summary'>): string {
  if (!t.fromState || t.kind === 'creation') return '';
  if (isEventChange(t) && plain(t.summary).startsWith(plain(t.toState[EVENT_ATTRIBUTE]))) return '';
  if (isPlanChange(t) && plain(t.summary).startsWith(`plan: ${plain(t.toState[PLAN_ATTRIBUTE]).replace(/ \(.*$/, '')}`))
    return '';
  return bracketAfter(t.summary, changeText(t.fromState, t.toState));
}

/**
 * " [change]" after a summary; nothing when there is no change or the summary is the change itself ("relation:
 * sister → best friend" needs no bracket saying it again; case and a final point aside). Pure.
 */
export function bracketAfter(summary: string, change: string): string {
  return change === '' || plain(summary) === plain(change) ? '' : ` [${change}]`;
}

export function changeText(from: EntityState, to: EntityState): string {
  return Object.keys(to)
    .map((k) => `${k}: ${from[k] === undefined || from[k] === null ? '∅' : String(from[k])} → ${String(to[k])}`)
    .join('; ');
}

export function stateText(state: EntityState): string {
  return Object.entries(state)
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join('; ');
}

/**
 * Longer values are bookkeeping (a dream's list of evidence conversations, kept for --json), not something a person
 * or a model reads; the web UI leaves them out by the same rule.
 */
const MAX_PROPERTY_CHARS = 60;

/** A relationship's properties as text ("role: co-founder"), without bookkeeping values. Pure. */
export function relationshipProps(properties: EntityState): string {
  return stateText(
    Object.fromEntries(Object.entries(properties).filter(([, v]) => String(v).length <= MAX_PROPERTY_CHARS)),
  );
}

function relationshipText(ctx: TimeContext, name: string, r: TimelineRelationship): string {
  const rel = r.relationship;
  const props = relationshipProps(rel.properties);
  const [source, target] = r.direction === 'out' ? [name, r.other.name] : [r.other.name, name];
  const span =
    rel.validTo === null
      ? `${startWord(rel.type)} ${longDate(rel.validFrom, ctx.tz)}`
      : rel.validTo === rel.validFrom
        ? `ended ${longDate(rel.validTo, ctx.tz)}`
        : `${longDate(rel.validFrom, ctx.tz)} to ${longDate(rel.validTo, ctx.tz)}`;
  return `${source} ${rel.type} ${target}${props ? ` (${props})` : ''}, ${span}`;
}
