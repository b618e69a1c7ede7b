import { TIERS, type Tier } from '../../domain/world.js';
import type { TierMove } from '../../ports/world-store.js';

/** A tier move as the history needs it: what it moved to and from, and when it took effect. */
export type Move = Pick<TierMove, 'from' | 'to' | 'at'>;

/**
 * When the records outside the journal say the entity's current tier began (the path for tiers set without a
 * journaled run: an older store, a test that sets the tier directly, a journal row a forget removed).
 */
export interface RecordedTier {
  /** Its latest archival transition (event time). */
  archivedSince: number | undefined;
  /** Its latest summary transition: recorded by the sleep that wrote it, never before the last change it sums up. */
  summarizedSince: number | undefined;
  /** The last time its row changed. */
  updatedAt: number;
}

function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

/** Pure: the moves of each entity, in the order given (the store's: recording order). Unknown tiers are left out. */
export function movesByEntity(moves: readonly TierMove[]): Map<string, Move[]> {
  const out = new Map<string, Move[]>();
  for (const m of moves) {
    if (!isTier(m.from) || !isTier(m.to)) continue;
    const list = out.get(m.entityId);
    if (list) list.push(m);
    else out.set(m.entityId, [m]);
  }
  return out;
}

/** Pure: whether the journaled moves end at the entity's current tier (if not, `recorded` says when it began). */
export function explainsCurrent(input: { current: Tier; moves: readonly Move[] | undefined }): boolean {
  const last = input.moves?.at(-1);
  return last === undefined ? input.current === 'active' : last.to === input.current;
}

/**
 * Pure: the tier an entity had at `at`. Every entity begins active; each journaled move (a sleep's tier phase, a
 * merge, an audit fix, a KIP write) changes it from the time it took effect, so a sleep changes no tier before its
 * own clock, and undoing it (its moves no longer listed) gives back exactly the tiers before. The latest move ends
 * at the entity's current tier, so a snapshot of now agrees with the entity itself (`pie stats`, `pie entity`);
 * where it does not (a tier set outside a journaled run), the current tier holds from when `recorded` says it began
 * (and, without any journaled move, an archived entity was summarized before from its summary on, as it was).
 */
export function tierAt(input: {
  current: Tier;
  moves: readonly Move[] | undefined;
  recorded: RecordedTier;
  at: number;
}): Tier {
  const { current, at, recorded } = input;
  const moves = input.moves ?? [];
  const steps: { at: number; to: Tier }[] = [];
  let reached = -Infinity;
  for (const m of moves) {
    reached = Math.max(reached, m.at);
    steps.push({ at: reached, to: m.to as Tier });
  }
  const first = moves[0];
  let tier: Tier = first === undefined ? 'active' : (first.from as Tier);
  if (!explainsCurrent({ current, moves })) {
    const since = Math.max(reached, recordedSince(current, recorded));
    const summarized = recorded.summarizedSince;
    if (first === undefined && current === 'archived' && summarized !== undefined && summarized < since) {
      steps.push({ at: summarized, to: 'summarized' });
    }
    steps.push({ at: since, to: current });
  }
  // Steps are in time order: the journal's times never go back, and the records' come after them.
  for (const step of steps) {
    if (step.at > at) break;
    tier = step.to;
  }
  return tier;
}

/** Pure: since when the records say the entity has had its current tier. */
function recordedSince(current: Tier, recorded: RecordedTier): number {
  if (current === 'archived') return recorded.archivedSince ?? recorded.updatedAt;
  if (current === 'summarized') return recorded.summarizedSince ?? recorded.updatedAt;
  return recorded.updatedAt;
}
