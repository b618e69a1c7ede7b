import { createHash } from 'node:crypto';
import type { Procedure, Transition } from '../domain/world.js';

/**
 * The deterministic procedure miner (pie-paper §4.4 without a model): every entity lifecycle becomes a sequence of
 * step labels derived from its transitions, and contiguous step patterns shared by several lifecycles of one
 * entity type become procedures, with the lifecycles and episodes as evidence.
 */

export interface Lifecycle {
  entityId: string;
  entityType: string;
  /** Chronological. */
  transitions: readonly Pick<Transition, 'kind' | 'fromState' | 'toState' | 'eventTime' | 'episodeId'>[];
}

export interface MinerOptions {
  /** Lifecycles that must show a pattern. Default 2. */
  minSupport?: number;
  /** Default 2. */
  minLength?: number;
  /** Default 4. */
  maxLength?: number;
  /** Share of a type's eligible lifecycles that must show a pattern (on top of minSupport). Default 0.05. */
  minShare?: number;
  /** Keep at most this many procedures per entity type, the most observed. Default 20. */
  maxPerType?: number;
}

function clipValue(value: unknown): string {
  const text = String(value).toLowerCase().replace(/\s+/g, ' ').trim();
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** Attributes whose values name a stage of a lifecycle; their values make steps ("stage=prototype"). */
export const LIFECYCLE_KEYS = ['stage', 'status', 'stance', 'phase', 'state'] as const;

/**
 * The step a transition stands for: "stage=prototype" when a lifecycle attribute changed; "focus changed" when only
 * another attribute did (its values are too specific to recur); nothing for a creation without a lifecycle value
 * (or for a summary); else the kind of change.
 */
export function stepLabel(t: Lifecycle['transitions'][number]): string | null {
  switch (t.kind) {
    case 'summary':
    case 'archival':
      // Records of maintenance, not of the user's behaviour.
      return null;
    case 'contradiction':
      return 'reversal';
    case 'resolution':
      return 'resolved';
    case 'creation':
    case 'update': {
      // The changed keys are those of `to` whose value differs from `from`'s: the first lifecycle key among them,
      // else the first in sort order, found without building and sorting a list (this runs once per transition).
      const { fromState: from, toState: to } = t;
      for (const key of LIFECYCLE_KEYS) {
        if (Object.hasOwn(to, key) && (from === null || from[key] !== to[key])) return stageLabel(key, to[key]);
      }
      if (t.kind === 'creation') return null;
      let first: string | undefined;
      for (const key in to) {
        if (!Object.hasOwn(to, key) || (from !== null && from[key] === to[key])) continue;
        if (first === undefined || key < first) first = key;
      }
      return first === undefined ? 'update' : changedLabel(first);
    }
  }
}

/**
 * Labels made before, by attribute and value: a memory's transitions repeat a few thousand labels hundreds of
 * thousands of times, and making each again (lowercasing, collapsing spaces, joining) was much of the miner's time.
 * Values are told apart as Map keys are (1 and "1" are two keys; both make the same label). Emptied when it holds
 * LABELS_KEPT labels, so a long-running process keeps it small.
 */
const stageLabels = new Map<string, Map<unknown, string>>();
const changedLabels = new Map<string, string>();
const LABELS_KEPT = 20_000;
let labelsKept = 0;

/** Counts a label about to be kept, emptying both maps first when they hold LABELS_KEPT. */
function keepOneMore(): void {
  if (labelsKept >= LABELS_KEPT) {
    stageLabels.clear();
    changedLabels.clear();
    labelsKept = 0;
  }
  labelsKept++;
}

function stageLabel(key: string, value: unknown): string {
  const known = stageLabels.get(key)?.get(value);
  if (known !== undefined) return known;
  keepOneMore();
  const label = `${key}=${clipValue(value)}`;
  let byValue = stageLabels.get(key);
  if (byValue === undefined) stageLabels.set(key, (byValue = new Map()));
  byValue.set(value, label);
  return label;
}

function changedLabel(key: string): string {
  const known = changedLabels.get(key);
  if (known !== undefined) return known;
  keepOneMore();
  const label = `${key} changed`;
  changedLabels.set(key, label);
  return label;
}

interface Step {
  label: string;
  time: number;
  episodeId: string | null;
}

/**
 * A lifecycle's steps in order, each with the place of its transition: transitions without a label are skipped and
 * consecutive repeats collapsed. The one rule both lifecycleSteps and the miner follow.
 */
function forEachStep(lifecycle: Lifecycle, visit: (label: string, place: number) => void): void {
  let last: string | null = null;
  for (const [place, t] of lifecycle.transitions.entries()) {
    const label = stepLabel(t);
    if (label === null || label === last) continue;
    last = label;
    visit(label, place);
  }
}

/** Labels in order, consecutive repeats collapsed. */
export function lifecycleSteps(lifecycle: Lifecycle): Step[] {
  const steps: Step[] = [];
  forEachStep(lifecycle, (label, place) => {
    const t = lifecycle.transitions[place];
    steps.push({ label, time: t?.eventTime ?? 0, episodeId: t?.episodeId ?? null });
  });
  return steps;
}

/** Ids of procedures this miner makes; others (a model's, a person's) are never retired by it. */
export const MINED_ID_PREFIX = 'proc-';

export function procedureId(domain: string, pattern: readonly string[]): string {
  const hash = createHash('sha256')
    .update(`${domain}\u0000${pattern.join('\u0000')}`)
    .digest('hex');
  return `${MINED_ID_PREFIX}${hash.slice(0, 16)}`;
}

function isSubsequence(short: readonly string[], long: readonly string[]): boolean {
  for (let i = 0; i + short.length <= long.length; i += 1) {
    if (short.every((s, k) => long[i + k] === s)) return true;
  }
  return false;
}

export function mineProcedures(lifecycles: readonly Lifecycle[], options: MinerOptions = {}): Procedure[] {
  const minSupport = options.minSupport ?? 2;
  const minLength = options.minLength ?? 2;
  const maxLength = options.maxLength ?? 4;
  const minShare = options.minShare ?? 0.05;
  const maxPerType = options.maxPerType ?? 20;
  const byType = new Map<string, Lifecycle[]>();
  for (const l of lifecycles) {
    // Appended in place: copying the list for each lifecycle was quadratic in a type's size.
    const group = byType.get(l.entityType);
    if (group) group.push(l);
    else byType.set(l.entityType, [l]);
  }

  const found: Procedure[] = [];
  for (const [type, group] of [...byType.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    // Each pattern's lifecycles are kept as places (lifecycle, first step), its occurrences made only for the few
    // patterns kept: building one per window of every lifecycle was most of the miner's time on a large memory.
    // Each label of the type as a number from 1, so a pattern of up to maxLength labels is one number (its labels
    // as digits in base labels+1, never 0, so patterns of different lengths never share one) instead of a joined
    // string: the hundreds of thousands of windows of a large memory are counted without building a string each.
    // A lifecycle's steps (forEachStep) are kept as their label numbers and the places of their
    // transitions, not as objects.
    const codes = new Map<string, number>();
    const labelOf: string[] = [];
    const coded: number[][] = [];
    const placesOf: number[][] = [];
    for (const lifecycle of group) {
      const labels: number[] = [];
      const places: number[] = [];
      forEachStep(lifecycle, (label, place) => {
        let code = codes.get(label);
        if (code === undefined) {
          code = codes.size + 1;
          codes.set(label, code);
          labelOf[code] = label;
        }
        labels.push(code);
        places.push(place);
      });
      coded.push(labels);
      placesOf.push(places);
    }
    const base = codes.size + 1;
    const numeric = base ** maxLength <= Number.MAX_SAFE_INTEGER;
    const patterns = new Map<number | string, { pattern: string[]; places: number[] }>();
    const seen = new Set<number | string>();
    let eligible = 0;
    for (const [at, labels] of coded.entries()) {
      if (labels.length >= minLength) eligible += 1;
      seen.clear();
      for (let len = minLength; len <= maxLength; len += 1) {
        for (let i = 0; i + len <= labels.length; i += 1) {
          let key: number | string = labels[i] as number;
          for (let k = 1; k < len; k += 1) {
            key = numeric ? (key as number) * base + (labels[i + k] as number) : `${key},${labels[i + k] as number}`;
          }
          if (seen.has(key)) continue;
          seen.add(key);
          const entry = patterns.get(key);
          if (entry) entry.places.push(at, i);
          else {
            const pattern = labels.slice(i, i + len).map((code) => labelOf[code] as string);
            patterns.set(key, { pattern, places: [at, i] });
          }
        }
      }
    }
    // What a kept pattern's occurrences show, read straight from the places (no object per occurrence: the kept
    // patterns of a large memory occur hundreds of thousands of times): how many, the first and last time, and the
    // evidence (the lifecycles' entities, then their steps' episodes, in the order seen, each once).
    const observe = (p: { pattern: string[]; places: number[] }) => {
      const entities = new Set<string>();
      const episodes = new Set<string>();
      let first = Infinity;
      let last = -Infinity;
      for (let k = 0; k < p.places.length; k += 2) {
        const at = p.places[k] as number;
        const from = p.places[k + 1] as number;
        const transitions = group[at]?.transitions ?? [];
        const places = placesOf[at] ?? [];
        entities.add(group[at]?.entityId ?? '');
        for (let i = from; i < from + p.pattern.length; i++) {
          const t = transitions[places[i] as number];
          if (t === undefined) continue;
          if (i === from) first = Math.min(first, t.eventTime);
          if (i === from + p.pattern.length - 1) last = Math.max(last, t.eventTime);
          if (t.episodeId !== null) episodes.add(t.episodeId);
        }
      }
      // The entities first, then the episodes not already there (as one Set of both in that order would have them).
      for (const e of episodes) entities.add(e);
      return { observed: p.places.length / 2, first, last, evidence: [...entities] };
    };
    const support = (p: { places: number[] }): number => p.places.length / 2;
    const needed = Math.max(minSupport, Math.ceil(minShare * eligible));
    const frequent = [...patterns.values()].filter((p) => support(p) >= needed);
    // A pattern inside a longer one seen in as many lifecycles says nothing more: keep the longer.
    const maximal = frequent.filter(
      (p) =>
        !frequent.some(
          (q) =>
            q.pattern.length > p.pattern.length && support(q) === support(p) && isSubsequence(p.pattern, q.pattern),
        ),
    );
    const kept = maximal
      .sort(
        (a, b) =>
          support(b) - support(a) ||
          b.pattern.length - a.pattern.length ||
          a.pattern.join('\u0000').localeCompare(b.pattern.join('\u0000')),
      )
      .slice(0, maxPerType);
    for (const pick of kept) {
      const { observed, first, last, evidence } = observe(pick);
      const domain = `${type} lifecycle`;
      found.push({
        id: procedureId(domain, pick.pattern),
        description: `${domain}: ${pick.pattern.join(' → ')} (seen in ${observed} of ${eligible} ${type} histories)`,
        pattern: pick.pattern,
        evidence,
        timesObserved: observed,
        firstObserved: first,
        lastObserved: last,
        domain,
        confidence: round(Math.min(0.95, (observed / Math.max(eligible, 1)) * (1 - 1 / (observed + 1)))),
      });
    }
  }
  return found.sort(
    (a, b) => b.timesObserved - a.timesObserved || b.lastObserved - a.lastObserved || a.id.localeCompare(b.id),
  );
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
