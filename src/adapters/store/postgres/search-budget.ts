import { COMMON_SHARE, PAIR_WORDS, RANK_BUDGET, SMALL_INDEX } from '../sqlite/search.js';
import { anyOf, pairsOf, type TsTiers } from './fts-query.js';
import type { Sql } from './sql.js';

/**
 * The SQLite search's budget for common words, on PostgreSQL (ts_rank reads the tsvector of every matching row, so
 * a word in a fifth of a heavy history's turns costs hundreds of milliseconds and says little about which row is
 * best). How many rows hold each word is estimated from the planner's statistics of the search column
 * (`pg_stats.most_common_elems`, kept by ANALYZE/autovacuum): a word not among the most common elements is rare.
 * A table never analyzed has no estimate and is searched in full.
 */
export interface WordDocs {
  /** Rows in the table (the planner's estimate); 0 when unknown. */
  size: number;
  /** Estimated rows holding each word, in the order of `TsTiers.words`. */
  docs: number[];
}

export async function wordDocs(sql: Sql, table: string, words: readonly string[]): Promise<WordDocs> {
  const rows = await sql.all<{ i: number; freq: number; size: number }>(
    `WITH mce AS (
       SELECT unnest(most_common_elems::text::text[]) AS lexeme, unnest(most_common_elem_freqs) AS freq
       FROM pg_stats WHERE schemaname = current_schema() AND tablename = @table AND attname = 'search_tsv'),
     lex AS (
       SELECT w.i, l.lexeme FROM unnest(@words::text[]) WITH ORDINALITY AS w(word, i),
         LATERAL unnest(tsvector_to_array(to_tsvector('english', w.word))) AS l(lexeme))
     SELECT lex.i, min(coalesce(mce.freq, 0)) AS freq,
       (SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = to_regclass(@table)) AS size
     FROM lex LEFT JOIN mce USING (lexeme) GROUP BY lex.i`,
    { table, words: [...words] },
  );
  const size = Number(rows[0]?.size ?? 0);
  const docs = words.map(() => 0);
  for (const r of rows) docs[Number(r.i) - 1] = Math.round(Number(r.freq) * size);
  return { size, docs };
}

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
