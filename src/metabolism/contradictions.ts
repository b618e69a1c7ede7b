import type { StateValue, Transition } from '../domain/world.js';
import { DAY_MS, utcDate } from '../domain/time.js';
import { plural } from '../domain/humanize.js';

/**
 * Contradiction supersession (KIP sleep spec, phase 9), as pure rules: for an unresolved contradiction (a state
 * that replaced an earlier one it contradicted), decide from the entity's later history whether the newer state
 * has won. History is never rewritten: a win adds a resolution transition; a flip-flop stays open for a person.
 */

export interface ContradictionRules {
  /** Days a newer state must stand unchallenged, while the entity keeps being referenced, to count as settled. */
  standDays: number;
}

export const DEFAULT_CONTRADICTION_RULES: ContradictionRules = { standDays: 30 };

export type ContradictionVerdict =
  /** The newer value was stated again by a later change. */
  | { kind: 'reaffirmed'; attribute: string; at: number }
  /** The attribute later moved on to a third value: the older value is gone for good. */
  | { kind: 'moved-on'; attribute: string; at: number; value: StateValue }
  /** The newer value has stood for standDays while the entity kept coming up. */
  | { kind: 'stood'; attribute: string; days: number; references: number }
  /** The older value came back: genuinely unsettled. */
  | { kind: 'flip-flop'; attribute: string; values: StateValue[] }
  /** Too recent, or not referenced since: the rules cannot tell. */
  | { kind: 'undecided'; attribute: string; why: string };

export type SettledVerdict = Extract<ContradictionVerdict, { kind: 'reaffirmed' | 'moved-on' | 'stood' }>;

export function isSettled(v: ContradictionVerdict): v is SettledVerdict {
  return v.kind === 'reaffirmed' || v.kind === 'moved-on' || v.kind === 'stood';
}

export function sameValue(a: StateValue | undefined, b: StateValue | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (typeof a === 'string' && typeof b === 'string') return a.trim().toLowerCase() === b.trim().toLowerCase();
  return a === b;
}

const STATE_KINDS = new Set<Transition['kind']>(['creation', 'update', 'contradiction']);

function judgeAttribute(input: {
  contradiction: Transition;
  attribute: string;
  later: readonly Transition[];
  current: StateValue | undefined;
  referencesSince: number;
  now: number;
  rules: ContradictionRules;
}): ContradictionVerdict {
  const { contradiction: c, attribute } = input;
  const older = c.fromState?.[attribute];
  const newer = c.toState[attribute];
  const changes = input.later.filter((t) => STATE_KINDS.has(t.kind) && attribute in t.toState);
  const values = changes.map((t) => t.toState[attribute] ?? null);
  if (
    older !== undefined &&
    older !== null &&
    (values.some((v) => sameValue(v, older)) || sameValue(input.current, older))
  ) {
    return { kind: 'flip-flop', attribute, values: [older, newer ?? null, ...values] };
  }
  const other = changes.find((t) => !sameValue(t.toState[attribute], newer));
  if (other !== undefined)
    return { kind: 'moved-on', attribute, at: other.eventTime, value: other.toState[attribute] ?? null };
  const again = changes.find((t) => sameValue(t.toState[attribute], newer));
  if (again !== undefined) return { kind: 'reaffirmed', attribute, at: again.eventTime };
  const days = Math.floor((input.now - c.eventTime) / DAY_MS);
  if (days < input.rules.standDays) {
    return { kind: 'undecided', attribute, why: `only ${days} of ${input.rules.standDays} days since` };
  }
  if (input.referencesSince === 0) return { kind: 'undecided', attribute, why: 'not referenced since' };
  return { kind: 'stood', attribute, days, references: input.referencesSince };
}

/**
 * One verdict per contradiction (over each attribute it changed: a flip-flop on any attribute wins, then an
 * undecided one, else the first settled one). `history` is the entity's transitions in chronological order, the
 * contradiction among them; `referenceTimes` the times the entity was mentioned.
 */
export function judgeContradiction(input: {
  contradiction: Transition;
  history: readonly Transition[];
  current: ReadonlyMap<string, StateValue>;
  referenceTimes: readonly number[];
  now: number;
  rules?: ContradictionRules;
}): ContradictionVerdict {
  const c = input.contradiction;
  const rules = input.rules ?? DEFAULT_CONTRADICTION_RULES;
  const index = input.history.findIndex((t) => t.id === c.id);
  const later = (
    index < 0 ? input.history.filter((t) => t.eventTime > c.eventTime) : input.history.slice(index + 1)
  ).filter((t) => t.eventTime <= input.now);
  const referencesSince = input.referenceTimes.filter((t) => t > c.eventTime && t <= input.now).length;
  const verdicts = Object.keys(c.toState).map((attribute) =>
    judgeAttribute({
      contradiction: c,
      attribute,
      later,
      current: input.current.get(attribute),
      referencesSince,
      now: input.now,
      rules,
    }),
  );
  if (verdicts.length === 0) return { kind: 'undecided', attribute: '', why: 'it names no attribute' };
  return (
    verdicts.find((v) => v.kind === 'flip-flop') ??
    verdicts.find((v) => v.kind === 'undecided') ??
    (verdicts[0] as ContradictionVerdict)
  );
}

function quote(v: StateValue | undefined): string {
  return v === undefined || v === null ? 'nothing' : `"${String(v)}"`;
}

/** The resolution transition's summary: what superseded what, since when, and why the cycle says so. */
export function resolutionSummary(c: Transition, attribute: string, why: string): string {
  return `${quote(c.toState[attribute])} superseded ${quote(c.fromState?.[attribute])} (${attribute}), held since ${utcDate(c.eventTime)}: ${why}`;
}

export function verdictReason(v: SettledVerdict): string {
  switch (v.kind) {
    case 'reaffirmed':
      return `re-affirmed on ${utcDate(v.at)}`;
    case 'moved-on':
      return `the older value never came back (changed to ${quote(v.value)} on ${utcDate(v.at)})`;
    case 'stood':
      return `unchallenged for ${v.days} days, referenced ${plural(v.references, 'time')} since`;
  }
}

/** Event time of a resolution: when the evidence appeared, or (standing or a model's judgement) the cycle's now. */
export function resolutionTime(v: SettledVerdict, now: number): number {
  return v.kind === 'stood' ? now : v.at;
}
