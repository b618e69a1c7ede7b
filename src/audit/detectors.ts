import { isDeepStrictEqual } from 'node:util';
import type { Entity, Fact, Transition } from '../domain/world.js';
import { fullerPersonName, type DuplicateCandidate } from '../metabolism/duplicates.js';

/**
 * The memory audit's detectors other than junk names (junk.ts). Pure functions over what the audit loaded; each
 * returns findings with what is wrong and what to do about it.
 */
export const FINDING_KINDS = [
  'junk',
  'duplicate',
  'no-provenance',
  'unchanged-transition',
  'conflicting-facts',
  'stale-commitment',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export type FindingAction =
  | { kind: 'archive' }
  | { kind: 'retype'; type: string }
  | { kind: 'merge'; into: { id: string; name: string } }
  | { kind: 'review'; what: string };

export interface Finding {
  kind: FindingKind;
  entity: Pick<Entity, 'id' | 'name' | 'type'>;
  why: string;
  action: FindingAction;
  /** Safe to apply without a person (pie audit --fix): archive and retype of junk, merges of exact duplicates. */
  safe: boolean;
  /** Where it came from: a conversation and the turn that names it, when known. */
  source: { episodeId: string; title: string; excerpt: string | null } | null;
  /** The transition or facts concerned, when the finding is about them. */
  detail?: string;
  /** The other entity of a likely duplicate (the one to merge into). */
  other?: Finding['entity'];
}

const ref = (e: Entity): Finding['entity'] => ({ id: e.id, name: e.name, type: e.type });

/** Exact and alias duplicates merge safely (the resolver would have matched them); the others are for review. */
export function duplicateFindings(input: {
  candidates: readonly DuplicateCandidate[];
  byId: ReadonlyMap<string, Entity>;
}): Finding[] {
  const out: Finding[] = [];
  for (const c of input.candidates) {
    const a = input.byId.get(c.a);
    const b = input.byId.get(c.b);
    if (!a || !b) continue;
    // A person's first name alone goes into the full name; otherwise the less important one into the more
    // important one (the merge keeps both histories, and the name of the one kept).
    const fuller = fullerPersonName(a, b);
    const [keep, drop] =
      fuller !== undefined ? (fuller === a ? [a, b] : [b, a]) : a.importance >= b.importance ? [a, b] : [b, a];
    const safe = c.reason === 'exact' || c.reason === 'alias';
    out.push({
      kind: 'duplicate',
      entity: ref(drop),
      why: `"${drop.name}" and "${keep.name}" look like one ${keep.type} (${c.reason}${safe ? '' : `, ${c.score.toFixed(2)}`})`,
      action: safe
        ? { kind: 'merge', into: { id: keep.id, name: keep.name } }
        : { kind: 'review', what: `merge into "${keep.name}"?` },
      safe,
      source: null,
      other: ref(keep),
    });
  }
  return out;
}

/** Entities nothing points back to: no conversation names them and no change of theirs came from one. */
export function provenanceFindings(input: {
  entities: readonly Entity[];
  mentioned: ReadonlySet<string>;
  withSourcedChange: ReadonlySet<string>;
}): Finding[] {
  return input.entities
    .filter(
      (e) =>
        e.type !== 'period' &&
        e.createdFrom === null &&
        !input.mentioned.has(e.id) &&
        !input.withSourcedChange.has(e.id),
    )
    .map((e) => ({
      kind: 'no-provenance',
      entity: ref(e),
      why: `no conversation names "${e.name}" and none of its changes came from one`,
      action: { kind: 'review', what: 'keep it only if you know where it comes from' },
      safe: false,
      source: null,
    }));
}

/** Update or contradiction transitions whose state before and after are the same: a change that changed nothing. */
export function unchangedTransitionFindings(input: {
  transitions: readonly Transition[];
  byId: ReadonlyMap<string, Entity>;
}): Finding[] {
  const out: Finding[] = [];
  for (const t of input.transitions) {
    if (t.kind !== 'update' && t.kind !== 'contradiction') continue;
    if (t.fromState === null || !isDeepStrictEqual(t.fromState, t.toState)) continue;
    const e = input.byId.get(t.entityId);
    if (!e) continue;
    out.push({
      kind: 'unchanged-transition',
      entity: ref(e),
      why: `a ${t.kind} of "${e.name}" changed nothing (${JSON.stringify(t.toState)})`,
      action: { kind: 'review', what: 'the extraction repeated a known state' },
      safe: false,
      source: null,
      detail: `${t.id}: ${t.summary}`,
    });
  }
  return out;
}

/** Two current facts of one entity and attribute with different values, and no contradiction recorded between them. */
export function conflictingFactFindings(input: {
  entity: Entity;
  current: readonly Fact[];
  contradictions: readonly Transition[];
}): Finding[] {
  const byAttribute = new Map<string, Fact[]>();
  for (const f of input.current) byAttribute.set(f.attribute, [...(byAttribute.get(f.attribute) ?? []), f]);
  const out: Finding[] = [];
  for (const [attribute, facts] of byAttribute) {
    const values = [...new Set(facts.map((f) => JSON.stringify(f.value)))];
    if (values.length < 2) continue;
    const flagged = input.contradictions.some((t) => attribute in t.toState);
    if (flagged) continue;
    out.push({
      kind: 'conflicting-facts',
      entity: ref(input.entity),
      why: `"${input.entity.name}" holds ${values.length} current values of ${attribute} (${values.join(' / ')}) and no contradiction says which`,
      action: { kind: 'review', what: 'say which value is current (a later conversation, or pie kip UPDATE)' },
      safe: false,
      source: null,
    });
  }
  return out;
}

const DAY = 86_400_000;

/** Commitments still open more than `graceDays` after their due date. */
export function staleCommitmentFindings(input: {
  entities: readonly Entity[];
  now: number;
  graceDays?: number;
}): Finding[] {
  const grace = (input.graceDays ?? 30) * DAY;
  const out: Finding[] = [];
  for (const e of input.entities) {
    if (e.type !== 'commitment' || e.state.status !== 'open' || typeof e.state.due !== 'string') continue;
    const due = Date.parse(e.state.due);
    if (!Number.isFinite(due) || input.now - due <= grace) continue;
    out.push({
      kind: 'stale-commitment',
      entity: ref(e),
      why: `"${e.name}" was due ${e.state.due} and is still open ${Math.floor((input.now - due) / DAY)} days later`,
      action: { kind: 'review', what: 'mark it kept or dropped (the next full sleep expires long-abandoned ones)' },
      safe: false,
      source: null,
    });
  }
  return out;
}
