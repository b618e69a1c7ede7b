import type { Tier } from '../domain/world.js';
import { DAY_MS } from '../domain/time.js';

/** The paper's tier thresholds (pie-paper §4.3), configurable. */
export interface TierThresholds {
  /** Importance above this keeps an entity active whatever its age. */
  activeImportance: number;
  /** Importance below this (and stale enough) archives. */
  archiveImportance: number;
  /** Days without reference before an entity may be summarized. */
  summarizeAfterDays: number;
  /** Days without reference before an entity may be archived. */
  archiveAfterDays: number;
}

export const PAPER_TIERS: TierThresholds = {
  activeImportance: 0.3,
  archiveImportance: 0.1,
  summarizeAfterDays: 90,
  archiveAfterDays: 180,
};

/** Types that anchor time or were put there on purpose; they never leave the active tier. */
export const NEVER_DEMOTED_TYPES: readonly string[] = ['period'];

export interface TierInput {
  importance: number;
  recencyDays: number;
  type: string;
  protected: boolean;
}

/**
 * Active: I > 0.3 or referenced within 90 days. Archived: I < 0.1 and not referenced for over 180 days.
 * Everything else (stale for over 90 days, not important enough to stay active) is summarized — this also covers
 * I < 0.1 between 90 and 180 days, which the paper's table leaves open. Protected entities and periods stay active.
 */
export function tierFor(input: TierInput, t: TierThresholds = PAPER_TIERS): Tier {
  if (input.protected || NEVER_DEMOTED_TYPES.includes(input.type)) return 'active';
  if (input.importance > t.activeImportance || input.recencyDays < t.summarizeAfterDays) return 'active';
  if (input.importance < t.archiveImportance && input.recencyDays > t.archiveAfterDays) return 'archived';
  return 'summarized';
}

export { DAY_MS };

export function recencyDays(lastSeen: number, now: number): number {
  return Math.max(0, (now - lastSeen) / DAY_MS);
}

/**
 * The "now" that recency, tiers and decay are measured against: the memory's own latest activity (its latest
 * conversation), never later than the reference now. A history imported a year after its last conversation, or a
 * user who comes back after a year without new conversations, finds the world as it was left; as new conversations
 * arrive, this clock moves with them, and an entity's last mention is then measured against them. Pure.
 */
export function activityNow(input: { now: number; latestEpisodeAt: number | null }): number {
  return input.latestEpisodeAt === null ? input.now : Math.min(input.now, input.latestEpisodeAt);
}
