import type { BatchStatus, IngestBatch, IngestRun, IngestRunRepo, RunStatus } from '../../../ports/world-store.js';
import type { SyncOf } from './bind.js';
import { fromJson, limitParam, notFound, toJson, type Statements } from './sql.js';

export interface RunRow {
  id: string;
  started_at: number;
  finished_at: number | null;
  status: RunStatus;
  source: string;
  options: string;
  counters: string;
}

export interface BatchRow {
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

export const SELECT_RUN = 'SELECT id, started_at, finished_at, status, source, options, counters FROM ingest_runs';

export function runFromRow(row: RunRow): IngestRun {
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

export function batchFromRow(row: BatchRow): IngestBatch {
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

export function createIngestRunRepo(s: Statements): SyncOf<IngestRunRepo> {
  return {
    start(run) {
      s.get(
        `INSERT INTO ingest_runs (id, started_at, finished_at, status, source, options, counters)
         VALUES (?, ?, NULL, ?, ?, ?, ?)`,
      ).run(run.id, run.startedAt, run.status, run.source, toJson(run.options), toJson(run.counters ?? {}));
    },

    finish({ id, status, finishedAt, counters }) {
      const result = s
        .get('UPDATE ingest_runs SET status = ?, finished_at = ?, counters = ? WHERE id = ?')
        .run(status, finishedAt, toJson(counters), id);
      if (result.changes === 0) throw notFound('ingest run', id);
    },

    get(id) {
      const row = s.get(`${SELECT_RUN} WHERE id = ?`).get(id) as RunRow | undefined;
      return row ? runFromRow(row) : null;
    },

    /** Newest first. */
    list(limit) {
      const rows = s
        .get(`${SELECT_RUN} ORDER BY started_at DESC, rowid DESC LIMIT ?`)
        .all(limitParam(limit) ?? -1) as RunRow[];
      return rows.map(runFromRow);
    },

    /** Insert, or replace every field of the batch with the same (runId, key); it keeps its place in the order. */
    saveBatch(b) {
      s.get(
        `INSERT INTO ingest_batches (run_id, key, status, episode_ids, tokens_in, tokens_out, cost_usd, error,
           started_at, finished_at)
         VALUES (@runId, @key, @status, @episodeIds, @tokensIn, @tokensOut, @costUsd, @error, @startedAt, @finishedAt)
         ON CONFLICT (run_id, key) DO UPDATE SET status = excluded.status, episode_ids = excluded.episode_ids,
           tokens_in = excluded.tokens_in, tokens_out = excluded.tokens_out, cost_usd = excluded.cost_usd,
           error = excluded.error, started_at = excluded.started_at, finished_at = excluded.finished_at`,
      ).run({
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
      });
    },

    /** In the order the batches were first saved. */
    batches(runId) {
      const rows = s
        .get(
          `SELECT run_id, key, status, episode_ids, tokens_in, tokens_out, cost_usd, error, started_at, finished_at
           FROM ingest_batches WHERE run_id = ? ORDER BY ord`,
        )
        .all(runId) as BatchRow[];
      return rows.map(batchFromRow);
    },
  };
}
