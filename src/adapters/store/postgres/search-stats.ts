import type { Sql } from './sql.js';

/**
 * How many rows hold each word, estimated from the planner's statistics of a table's search column
 * (`pg_stats.most_common_elems`): a word not among the most common elements is rare (see search-budget.ts).
 */
export interface WordDocs {
  /** Rows in the table (the planner's estimate); 0 when unknown, or when no word has a lexeme. */
  size: number;
  /** Estimated rows holding each word, in the order of the words asked for. */
  docs: number[];
}

/** The planner's statistics of one table's search column: its size and each common lexeme's share of rows. */
interface TableStats {
  size: number;
  shares: Map<string, number>;
}

/**
 * The search budget's word counts, with what they are made of kept for reuse: each table's statistics for
 * `maxAgeMs` (they change only when the server analyzes the table, which autovacuum does on its own schedule after
 * enough writes; `forget()` drops them at once, after `compact` has vacuumed), and each word's lexemes for the
 * life of the store (a pure function of the word and the 'english' configuration). So a search reads them at most
 * once a table per `maxAgeMs`, instead of one query every search.
 */
export interface SearchStats {
  wordDocs(sql: Sql, table: string, words: readonly string[]): Promise<WordDocs>;
  /** Forgets every table's statistics (they are read again on the next search). */
  forget(): void;
}

/** How long a table's statistics are reused: a search sees the result of an ANALYZE this long after it at most. */
export const STATS_MAX_AGE_MS = 10_000;
/** Words whose lexemes are kept; past this the memo starts again. */
const MAX_WORDS = 10_000;

export function createSearchStats(options: { maxAgeMs?: number; now?: () => number } = {}): SearchStats {
  const maxAge = options.maxAgeMs ?? STATS_MAX_AGE_MS;
  const now = options.now ?? (() => performance.now());
  const tables = new Map<string, { at: number; stats: Promise<TableStats> }>();
  const lexemes = new Map<string, Promise<readonly string[]>>();

  const tableStats = (sql: Sql, table: string): Promise<TableStats> => {
    const cached = tables.get(table);
    if (cached && now() - cached.at < maxAge) return cached.stats;
    const stats = readTableStats(sql, table);
    const entry = { at: now(), stats };
    tables.set(table, entry);
    stats.catch(() => {
      if (tables.get(table) === entry) tables.delete(table);
    });
    return stats;
  };

  const lexemesOf = async (sql: Sql, words: readonly string[]): Promise<(readonly string[])[]> => {
    const missing = [...new Set(words.filter((w) => !lexemes.has(w)))];
    if (missing.length > 0) {
      if (lexemes.size + missing.length > MAX_WORDS) lexemes.clear();
      const read = readLexemes(sql, missing);
      for (const word of missing) {
        const one = read.then((all) => all.get(word) ?? []);
        lexemes.set(word, one);
        one.catch(() => {
          if (lexemes.get(word) === one) lexemes.delete(word);
        });
      }
    }
    return Promise.all(words.map((w) => lexemes.get(w) as Promise<readonly string[]>));
  };

  return {
    async wordDocs(sql, table, words) {
      const [stats, lexes] = await Promise.all([tableStats(sql, table), lexemesOf(sql, words)]);
      return countWords(stats, lexes);
    },
    forget: () => tables.clear(),
  };
}

/**
 * Each word's estimated rows: the smallest share among its lexemes (a word the stemmer splits in two is in at most
 * the rows of its rarer half) times the table's size; a lexeme not among the common ones counts 0. A word with no
 * lexeme (a stop word) counts 0, and when no word has one the size is 0 too (nothing to budget).
 */
export function countWords(stats: TableStats, lexes: readonly (readonly string[])[]): WordDocs {
  const any = lexes.some((l) => l.length > 0);
  const size = any ? stats.size : 0;
  const docs = lexes.map((l) =>
    l.length === 0 ? 0 : Math.round(Math.min(...l.map((x) => stats.shares.get(x) ?? 0)) * size),
  );
  return { size, docs };
}

async function readTableStats(sql: Sql, table: string): Promise<TableStats> {
  const row = await sql.one<{ size: number | null; elems: string[] | null; freqs: number[] | null }>(
    `SELECT (SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = to_regclass(@table)) AS size,
       s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs
     FROM (SELECT 1) one LEFT JOIN pg_stats s
       ON s.schemaname = current_schema() AND s.tablename = @table AND s.attname = 'search_tsv'`,
    { table },
  );
  const shares = new Map<string, number>();
  const elems = row?.elems ?? [];
  elems.forEach((lexeme, i) => shares.set(lexeme, Number(row?.freqs?.[i] ?? 0)));
  return { size: Number(row?.size ?? 0), shares };
}

async function readLexemes(sql: Sql, words: readonly string[]): Promise<Map<string, string[]>> {
  const rows = await sql.all<{ word: string; lexemes: string[] }>(
    `SELECT w.word, tsvector_to_array(to_tsvector('english', w.word)) AS lexemes
     FROM unnest(@words::text[]) AS w(word)`,
    { words: [...words] },
  );
  return new Map(rows.map((r) => [r.word, r.lexemes]));
}
