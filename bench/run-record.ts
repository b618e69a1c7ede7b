import Database from 'better-sqlite3';

export interface RunRecord {
  /** finished_at − started_at of the ingest run: the extraction stage, after batch planning. */
  extractionMs: number;
  status: string;
}

/**
 * Reads one `ingest_runs` row of a benchmark database (read-only). The run record is stamped when extraction starts
 * (after planning) and when it finishes, so it times the extraction stage apart from the import stage of the same
 * process.
 */
export function readRunRecord(input: { db: string; runId: string }): RunRecord {
  const db = new Database(input.db, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare('SELECT started_at, finished_at, status FROM ingest_runs WHERE id = ?').get(input.runId) as
      { started_at: number; finished_at: number | null; status: string } | undefined;
    if (!row || row.finished_at === null) throw new Error(`ingest run ${input.runId} not found or not finished`);
    return { extractionMs: row.finished_at - row.started_at, status: row.status };
  } finally {
    db.close();
  }
}
