import type { Fact, Period, Relationship, StateValue, Transition } from '../../domain/world.js';
import type { EntityInsert } from '../../ports/world-store.js';

/**
 * What applying an ExtractionResult does to the world, as data. The planner (pure) produces mutations; the executor
 * writes them in one transaction. Keeping them as data makes the rules table-testable without a database.
 */
export type Mutation =
  | { op: 'entity.insert'; entity: EntityInsert }
  | { op: 'entity.touch'; id: string; lastSeen: number; firstSeen?: number; state: Record<string, StateValue> }
  | { op: 'alias.add'; entityId: string; alias: string }
  /** A known entity's canonical name becomes a more complete one (its old name is added as an alias). */
  | { op: 'entity.rename'; id: string; name: string }
  | { op: 'transition.insert'; transition: Transition }
  /** A known entity's bare creation moves to an earlier conversation that mentions it (extracted late). */
  | { op: 'transition.retime'; id: string; eventTime: number; episodeId: string; summary: string }
  | { op: 'fact.insert'; fact: Fact }
  | { op: 'fact.close'; id: string; validTo: number; supersededBy: string | null }
  /** A value told from before its fact's start (an older conversation extracted late): it held since then. */
  | { op: 'fact.backdate'; id: string; validFrom: number }
  | { op: 'relationship.insert'; relationship: Relationship }
  | { op: 'relationship.close'; id: string; validTo: number }
  | { op: 'relationship.backdate'; id: string; validFrom: number }
  /** An edge recorded wrongly goes: a DURING link to a later period, when an older conversation was where it began. */
  | { op: 'relationship.remove'; id: string }
  | { op: 'period.upsert'; period: Period }
  | { op: 'mention.add'; entityId: string; episodeId: string; time: number }
  | {
      op: 'episode.annotate';
      id: string;
      summary?: string | undefined;
      significance?: number | undefined;
      userState?: string | undefined;
    };

export type MutationOp = Mutation['op'];

export function countByOp(mutations: readonly Mutation[]): Partial<Record<MutationOp, number>> {
  const counts: Partial<Record<MutationOp, number>> = {};
  for (const m of mutations) counts[m.op] = (counts[m.op] ?? 0) + 1;
  return counts;
}
