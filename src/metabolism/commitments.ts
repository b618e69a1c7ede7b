import type { EntityState, StateValue, Transition } from '../domain/world.js';
import { DAY_MS } from '../domain/time.js';

/**
 * Prospective memory sweep (KIP sleep spec, phase 5C), as pure rules. The offline extractor records a commitment
 * as an entity of type 'commitment' with state { due: 'YYYY-MM-DD', status: 'open', to?: person }; an LLM
 * extraction may say 'pending'. Only open commitments with a due date are swept.
 */

export interface CommitmentRules {
  /** Days past due, with no activity since the due date, after which an open commitment is expired. */
  expireAfterDays: number;
}

export const DEFAULT_COMMITMENT_RULES: CommitmentRules = { expireAfterDays: 30 };

export const OPEN_STATUSES = new Set(['open', 'pending', 'todo', 'planned', 'in progress']);

const DONE = /\b(?:done|completed?|finished|fulfill?ed|delivered|sent|shipped|submitted|handed in|kept)\b/i;
const NOT_DONE = /\b(?:not|n't|never|yet|almost|nearly|still|partly|partially|hasn't|haven't)\b/i;

export type CommitmentVerdict =
  | { kind: 'not-open' }
  | { kind: 'undated' }
  | { kind: 'pending'; due: number }
  | { kind: 'overdue'; due: number; daysPast: number }
  | { kind: 'expired'; due: number; daysPast: number }
  | { kind: 'fulfilled'; evidence: Transition };

/** The due date of a commitment's state (end of that day, UTC), or null. */
export function dueOf(state: EntityState): number | null {
  for (const key of ['due', 'due_at', 'dueAt', 'deadline', 'due_date']) {
    const v = state[key];
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    const t = typeof v === 'number' ? v : Date.parse(v);
    if (!Number.isFinite(t)) continue;
    // A bare date is due by the end of that day.
    return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v.trim()) ? t + DAY_MS : t;
  }
  return null;
}

export function isOpen(status: StateValue | undefined): boolean {
  return typeof status === 'string' && OPEN_STATUSES.has(status.trim().toLowerCase());
}

/** A later change that says the commitment was kept ("sent the report", progress: delivered), not a hedge. */
export function showsCompletion(t: Transition): boolean {
  const values = Object.values(t.toState)
    .filter((v): v is string => typeof v === 'string')
    .join(' ');
  const text = `${t.summary} ${values}`;
  return DONE.test(text) && !NOT_DONE.test(text);
}

/**
 * What the sweep does with one commitment: fulfilled when a change after its creation shows it was kept; otherwise
 * pending until due, then overdue (surfaced, never silently expired), and expired only when it is
 * `expireAfterDays` past due with no activity (mention or change) after the due date.
 */
export function judgeCommitment(input: {
  state: EntityState;
  /** The commitment's transitions, chronological (the sweep's own records excluded). */
  transitions: readonly Transition[];
  /** Latest time anything referred to it (mentions, transitions, last seen). */
  lastActivity: number;
  now: number;
  rules?: CommitmentRules;
}): CommitmentVerdict {
  const rules = input.rules ?? DEFAULT_COMMITMENT_RULES;
  if (!isOpen(input.state.status)) return { kind: 'not-open' };
  const evidence = input.transitions.find((t) => t.kind !== 'creation' && showsCompletion(t));
  if (evidence !== undefined) return { kind: 'fulfilled', evidence };
  const due = dueOf(input.state);
  if (due === null) return { kind: 'undated' };
  if (due > input.now) return { kind: 'pending', due };
  const daysPast = Math.floor((input.now - due) / DAY_MS);
  if (daysPast >= rules.expireAfterDays && input.lastActivity <= due) return { kind: 'expired', due, daysPast };
  return { kind: 'overdue', due, daysPast };
}
