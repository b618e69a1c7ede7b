import type { LlmCacheRepo } from '../../../ports/world-store.js';
import type { Sql } from './sql.js';
import { type CacheRow, entryFromRow } from '../sqlite/llm-cache.js';

export function createLlmCacheRepo(sql: Sql): LlmCacheRepo {
  return {
    async get(key) {
      const row = await sql.one<CacheRow>(
        'SELECT key, model, prompt, response, tokens_in, tokens_out, created_at FROM llm_cache WHERE key = @key',
        { key },
      );
      return row ? entryFromRow(row) : null;
    },

    async put(e) {
      await sql.run(
        `INSERT INTO llm_cache (key, model, prompt, response, tokens_in, tokens_out, created_at)
         VALUES (@key, @model, @prompt, @response, @tokensIn, @tokensOut, @createdAt)
         ON CONFLICT (key) DO UPDATE SET model = excluded.model, prompt = excluded.prompt,
           response = excluded.response, tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out,
           created_at = excluded.created_at`,
        { ...e },
      );
    },

    async delete(key) {
      return (await sql.run('DELETE FROM llm_cache WHERE key = @key', { key })) > 0;
    },
  };
}
