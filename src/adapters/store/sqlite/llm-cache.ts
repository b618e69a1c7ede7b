import type { LlmCacheEntry, LlmCacheRepo } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import type { Statements } from './sql.js';

export interface CacheRow {
  key: string;
  model: string;
  prompt: string;
  response: string;
  tokens_in: number;
  tokens_out: number;
  created_at: number;
}

export function entryFromRow(row: CacheRow): LlmCacheEntry {
  return {
    key: row.key,
    model: row.model,
    prompt: row.prompt,
    response: row.response,
    tokensIn: row.tokens_in,
    tokensOut: row.tokens_out,
    createdAt: row.created_at,
  };
}

export function createLlmCacheRepo(s: Statements): SyncOf<LlmCacheRepo> {
  return {
    get(key) {
      const row = s
        .get('SELECT key, model, prompt, response, tokens_in, tokens_out, created_at FROM llm_cache WHERE key = ?')
        .get(key) as CacheRow | undefined;
      return row ? entryFromRow(row) : null;
    },

    /** Insert or replace by key. */
    put(e) {
      s.get(
        `INSERT OR REPLACE INTO llm_cache (key, model, prompt, response, tokens_in, tokens_out, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(e.key, e.model, e.prompt, e.response, e.tokensIn, e.tokensOut, e.createdAt);
    },

    delete(key) {
      return s.get('DELETE FROM llm_cache WHERE key = ?').run(key).changes > 0;
    },
  };
}
