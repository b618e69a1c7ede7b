import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countWords, createSearchStats } from './search-stats.js';
import { sessionSql, type Sql } from './sql.js';

describe('countWords', () => {
  const stats = {
    size: 1000,
    shares: new Map([
      ['garden', 0.5],
      ['note', 0.1],
    ]),
  };
  it.each([
    { lexes: [['garden'], ['note']], docs: [500, 100], size: 1000 },
    { lexes: [['garden', 'note']], docs: [100], size: 1000 }, // a word of two lexemes: its rarer half
    { lexes: [['rare'], ['garden']], docs: [0, 500], size: 1000 }, // not among the common lexemes
    { lexes: [[], ['garden']], docs: [0, 500], size: 1000 }, // a stop word
    { lexes: [[], []], docs: [0, 0], size: 0 }, // only stop words: nothing to budget
  ])('$lexes → $docs', ({ lexes, docs, size }) => {
    expect(countWords(stats, lexes)).toEqual({ size, docs });
  });
});

describe('the search statistics kept for reuse (PGlite)', () => {
  let db: PGlite;
  let sql: Sql;
  let queries = 0;

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(`CREATE SCHEMA s; SET search_path = s;
      CREATE TABLE docs (search_tsv tsvector);
      INSERT INTO docs SELECT to_tsvector('english', 'gardens ' || g) FROM generate_series(1, 200) g;`);
    sql = sessionSql(
      {
        query: async (text, values) => {
          queries += 1;
          const r = await db.query(text, values as unknown[]);
          return { rows: r.rows as Record<string, unknown>[], count: r.affectedRows ?? r.rows.length };
        },
        exec: async (text) => {
          await db.exec(text);
        },
      },
      0,
    );
  });
  afterAll(async () => {
    await db.close();
  });

  it("reuses a table's statistics until they are older than maxAgeMs or forgotten, and each word's lexemes", async () => {
    let now = 0;
    const stats = createSearchStats({ maxAgeMs: 1000, now: () => now });
    // Never analyzed: no size, no estimate.
    expect(await stats.wordDocs(sql, 'docs', ['garden', 'gardens'])).toEqual({ size: 0, docs: [0, 0] });
    await db.exec('ANALYZE s.docs');
    const before = queries;
    now = 999;
    expect(await stats.wordDocs(sql, 'docs', ['gardens', 'garden'])).toEqual({ size: 0, docs: [0, 0] });
    expect(queries).toBe(before); // nothing read: the table's statistics and both words' lexemes are kept
    now = 1000;
    expect(await stats.wordDocs(sql, 'docs', ['garden'])).toEqual({ size: 200, docs: [200] });
    expect(queries).toBe(before + 1); // the table's statistics only
    await db.exec(
      "INSERT INTO s.docs SELECT to_tsvector('english', 'walls') FROM generate_series(1, 200); ANALYZE s.docs",
    );
    stats.forget();
    expect(await stats.wordDocs(sql, 'docs', ['garden'])).toEqual({ size: 400, docs: [200] });
  });

  it('reads the lexemes of several new words in one query, shared by searches that ask at once', async () => {
    const stats = createSearchStats();
    const before = queries;
    const [a, b] = await Promise.all([
      stats.wordDocs(sql, 'docs', ['gardens', 'walls']),
      stats.wordDocs(sql, 'docs', ['walls', 'gardens']),
    ]);
    expect(a.docs).toEqual([...b.docs].reverse());
    expect(queries).toBe(before + 2); // the table statistics once and the lexemes once, for both
  });
});
