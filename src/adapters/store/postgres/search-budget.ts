import { COMMON_SHARE, PAIR_WORDS, RANK_BUDGET, SMALL_INDEX } from '../sqlite/search.js';
import { anyOf, pairsOf, type TsTiers } from './fts-query.js';
import type { WordDocs } from './search-stats.js';

/**
 * The SQLite search's budget for common words, on PostgreSQL (ts_rank reads the tsvector of every matching row, so
 * a word in a fifth of a heavy history's turns costs hundreds of milliseconds and says little about which row is
 * best), from the planner's estimates of how many rows hold each word (`WordDocs`, search-stats.ts). A table never
 * analyzed has no estimate and is searched in full.
 */

/** One tier to run: its expression, its estimated matches, and the words it is made of (indexes into words). */
export interface BudgetTier {
  expr: string;
  estimate: number;
  words: number[];
}

/**
 * The tiers (every word; two words; any word) as the SQLite search shapes them in a large index: the two-word tier
 * pairs only the PAIR_WORDS rarest words when the words match more than RANK_BUDGET rows in all, and the any-word
 * tier leaves out words in more than COMMON_SHARE of the rows. In a small or unknown index: the tiers unchanged.
 */
export function budgetTiers(tiers: TsTiers, stats: WordDocs): BudgetTier[] {
  const n = tiers.terms.length;
  const all = [...Array(n).keys()];
  const docs = (i: number): number => stats.docs[i] ?? 0;
  const sum = (ids: number[]): number => ids.reduce((a, i) => a + docs(i), 0);
  const large = stats.size >= SMALL_INDEX;
  const out: BudgetTier[] = [{ expr: tiers.all, estimate: Math.min(...all.map(docs)), words: all }];
  if (tiers.pairs !== null) {
    const kept =
      large && sum(all) > RANK_BUDGET ? [...all].sort((a, b) => docs(a) - docs(b)).slice(0, PAIR_WORDS) : all;
    const expr = kept.length === n ? tiers.pairs : pairsOf(kept.map((i) => tiers.terms[i] as string));
    if (expr !== null) out.push({ expr, estimate: sum(kept), words: kept });
  }
  if (tiers.any !== null) {
    const kept = large ? all.filter((i) => docs(i) <= stats.size * COMMON_SHARE) : all;
    if (kept.length > 0) {
      out.push({ expr: anyOf(kept.map((i) => tiers.terms[i] as string)), estimate: sum(kept), words: kept });
    }
  }
  return out;
}

/**
 * For a tier expected to match more than RANK_BUDGET rows of a large index: the rarest of its words whose matches
 * add up to at most RANK_BUDGET, as one any-word expression (null when even the rarest is more). Rows with one of
 * them are ranked first, whatever their age, so a rare word's old conversation is never lost.
 */
export function informative(tier: BudgetTier, tiers: TsTiers, stats: WordDocs): string | null {
  const byRarity = [...tier.words].sort((a, b) => (stats.docs[a] ?? 0) - (stats.docs[b] ?? 0));
  const kept: number[] = [];
  let total = 0;
  for (const i of byRarity) {
    total += stats.docs[i] ?? 0;
    if (total > RANK_BUDGET) break;
    kept.push(i);
  }
  return kept.length > 0 ? anyOf(kept.map((i) => tiers.terms[i] as string)) : null;
}

/** Whether a tier must be ranked with the budget. */
export function overBudget(tier: BudgetTier, stats: WordDocs): boolean {
  return stats.size >= SMALL_INDEX && tier.estimate > RANK_BUDGET;
}

/** A row walked costs this share of a match collected and sorted (0.5 µs against 2 µs, see `sortMatches`). */
const SORT_RATIO = 0.25;

/**
 * Whether the newest RANK_BUDGET matches of a tier over budget are best found by collecting and sorting every
 * match (through the search index) rather than by walking the table from its newest row and testing each. The
 * walk reads about RANK_BUDGET × size / estimate rows, each a few times cheaper than a match collected through the
 * index (measured on the 200,000-turn benchmark world: about 0.5 µs a row walked against 2 µs a match collected),
 * so sorting wins while estimate² < SORT_RATIO × RANK_BUDGET × size. Left to the planner otherwise: it prices the
 * walk as if every match were spread evenly, and for a word of a few percent of the rows picked a walk of
 * 117,000 rows (80 ms) over sorting 7,000 matches (15 ms).
 */
export function sortMatches(tier: BudgetTier, stats: WordDocs): boolean {
  return tier.estimate * tier.estimate < SORT_RATIO * RANK_BUDGET * stats.size;
}
