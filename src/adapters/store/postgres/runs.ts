import type { IngestRunRepo } from '../../../ports/world-store.js';
import { batchFromRow, runFromRow, SELECT_RUN, type BatchRow, type RunRow } from '../sqlite/runs.js';
import { limitParam, notFound, toJson, type Sql } from './sql.js';

export function createIngestRunRepo(sql: Sql): IngestRunRepo {
  return {
    async start(run) {
      await sql.run(
        `INSERT INTO ingest_runs (id, started_at, finished_at, status, source, options, counters)
         VALUES (@id, @startedAt, NULL, @status, @source, @options, @counters)`,
        {
          id: run.id,
          startedAt: run.startedAt,
          status: run.status,
          source: run.source,
          options: toJson(run.options),
          counters: toJson(run.counters ?? {}),
        },
      );
    },

    async finish({ id, status, finishedAt, counters }) {
      const n = await sql.run(
        'UPDATE ingest_runs SET status = @status, finished_at = @finishedAt, counters = @counters WHERE id = @id',
        { id, status, finishedAt, counters: toJson(counters) },
      );
      if (n === 0) throw notFound('ingest run', id);
    },

    async get(id) {
      const row = await sql.one<RunRow>(`${SELECT_RUN} WHERE id = @id`, { id });
      return row ? runFromRow(row) : null;
    },

    async list(limit) {
      // SQLite breaks ties by rowid (insertion order); the run table has no such column here, so by id.
      const rows = await sql.all<RunRow>(`${SELECT_RUN} ORDER BY started_at DESC, id DESC LIMIT @limit`, {
        limit: limitParam(limit),
      });
      return rows.map(runFromRow);
    },

    async saveBatch(b) {
      await sql.run(
        `INSERT INTO ingest_batches (run_id, key, status, episode_ids, tokens_in, tokens_out, cost_usd, error,
           started_at, finished_at)
         VALUES (@runId, @key, @status, @episodeIds, @tokensIn, @tokensOut, @costUsd, @error, @startedAt, @finishedAt)
         ON CONFLICT (run_id, key) DO UPDATE SET status = excluded.status, episode_ids = excluded.episode_ids,
           tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out, cost_usd = excluded.cost_usd,
           error = excluded.error, started_at = excluded.started_at, finished_at = excluded.finished_at`,
        {
          runId: b.runId,
          key: b.key,
          status: b.status,
          episodeIds: toJson(b.episodeIds),
          tokensIn: b.tokensIn,
          tokensOut: b.tokensOut,
          costUsd: b.costUsd,
          error: b.error,
          startedAt: b.startedAt,
          finishedAt: b.finishedAt,
        },
      );
    },

    async batches(runId) {
      const rows = await sql.all<BatchRow>(
        `SELECT run_id, key, status, episode_ids, tokens_in, tokens_out, cost_usd, error, started_at, finished_at
         FROM ingest_batches WHERE run_id = @runId ORDER BY ord`,
        { runId },
      );
      return rows.map(batchFromRow);
    },
  };
}
