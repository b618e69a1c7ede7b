import type { BatchStatus, IngestBatch, IngestRun, IngestRunRepo, RunStatus } from '../../../ports/world-store.js';
import { fromJson, limitParam, notFound, toJson, type Sql } from './sql.js';

interface RunRow {
  id: string;
  started_at: number;
  finished_at: number | null;
  status: RunStatus;
  source: string;
  options: string;
  counters: string;
}

interface BatchRow {
  run_id: string;
  key: string;
  status: BatchStatus;
  episode_ids: string;
  tokens_in: number;
  tokens_out: number;
  cost_usd: number;
  error: string | null;
  started_at: number | null;
  finished_at: number | null;
}

const SELECT_RUN = 'SELECT id, started_at, finished_at, status, source, options, counters FROM ingest_runs';

function runFromRow(row: RunRow): IngestRun {
  return {
    id: row.id,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    source: row.source,
    options: fromJson<Record<string, unknown>>(row.options, {}),
    counters: fromJson<Record<string, number>>(row.counters, {}),
  };
}

function batchFromRow(row: BatchRow): IngestBatch {
  return {
    runId: row.run_id,
    key: row.key,
    status: row.status,
    episodeIds: fromJson<string[]>(row.episode_ids, []),
    tokensIn: row.tokens_in,
    tokensOut: row.tokens_out,
    costUsd: row.cost_usd,
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

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
