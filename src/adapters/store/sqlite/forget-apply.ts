import type { ForgetWrite, Needles } from '../../../ports/forget-store.js';
import { lowerAscii, markForgotten } from '../../../domain/text-match.js';
import { toJson, type Statements } from './sql.js';

/** The full-text indexes; merged after a forget so that no segment keeps a removed word. */
const FTS_TABLES = ['turns_fts', 'episodes_fts', 'entities_fts', 'transitions_fts'] as const;

const IN = 'IN (SELECT value FROM json_each(@ids))';

/**
 * Writes one forget, all of it or nothing (an IMMEDIATE transaction, or a savepoint inside the caller's): removes
 * every row the plan names (foreign keys cascade what hangs off entities and conversations; triggers keep the
 * full-text indexes and vectors in step), repairs what stays, scrubs the maintenance log, and merges the full-text
 * indexes so their segments no longer hold a removed word.
 */
export function applyForgetWrite(s: Statements, input: { write: ForgetWrite; at: number }): void {
  const w = input.write;
  s.atomic(() => {
    const byIds = (sql: string, list: readonly string[]): void => {
      if (list.length > 0) s.get(sql).run({ ids: JSON.stringify(list) });
    };
    /** Rows named by two key columns: `keys` are the JSON fields of each row that match them. */
    const byRows = (table: string, columns: [string, string], keys: [string, string], rows: readonly object[]) => {
      if (rows.length === 0) return;
      s.get(
        `DELETE FROM ${table} WHERE (${columns.join(', ')}) IN
           (SELECT json_extract(value, '$.${keys[0]}'), json_extract(value, '$.${keys[1]}') FROM json_each(@rows))`,
      ).run({ rows: JSON.stringify(rows) });
    };
    byIds(`DELETE FROM llm_cache WHERE key ${IN}`, w.cacheKeys);
    byRows('journal', ['run_id', 'seq'], ['runId', 'seq'], w.journal);
    byIds(`DELETE FROM observations WHERE id ${IN}`, w.observationIds);
    byIds(`DELETE FROM summaries WHERE id ${IN}`, w.summaryIds);
    byIds(`DELETE FROM mental_models WHERE id ${IN}`, w.modelIds);
    byIds(`UPDATE mental_models SET content = '' WHERE id ${IN}`, w.modelsToReset);
    byIds(`DELETE FROM insights WHERE id ${IN}`, w.insightIds);
    byIds(`DELETE FROM sleep_tasks WHERE id ${IN}`, w.sleepTaskIds);
    byIds(`DELETE FROM procedures WHERE id ${IN}`, w.procedures.deleted);
    for (const p of w.procedures.evidence) {
      s.get('UPDATE procedures SET evidence = ? WHERE id = ?').run(toJson(p.evidence), p.id);
    }

    byIds(`DELETE FROM relationships WHERE id ${IN}`, w.relationshipIds);
    byIds(`DELETE FROM facts WHERE id ${IN}`, w.factIds);
    byIds(`DELETE FROM transitions WHERE id ${IN}`, w.transitionIds);
    byRows('entity_mentions', ['entity_id', 'episode_id'], ['entityId', 'episodeId'], w.mentions);
    byRows('entity_aliases', ['entity_id', 'normalized'], ['entityId', 'normalized'], w.aliases);
    byIds(`DELETE FROM entities WHERE id ${IN}`, w.entityIds);
    forgetBenchQuestions(s, w);
    byRows('turns', ['episode_id', 'seq'], ['episodeId', 'seq'], w.turns);
    byIds(`DELETE FROM episodes WHERE id ${IN}`, w.episodeIds);
    const remember = s.get('INSERT OR IGNORE INTO forgotten_episodes (key, forgotten_at) VALUES (?, ?)');
    for (const key of w.forgottenKeys) remember.run(key, input.at);

    repair(s, input);
    byIds(`DELETE FROM embeddings WHERE owner_kind = 'entity' AND owner_id ${IN}`, w.reembed.entityIds);
    byIds(`DELETE FROM embeddings WHERE owner_kind = 'episode' AND owner_id ${IN}`, w.reembed.episodeIds);
    for (const b of w.batches) {
      s.get('UPDATE ingest_batches SET episode_ids = ? WHERE ord = ?').run(toJson(b.episodeIds), b.ord);
    }
    for (const log of w.logs) scrubLog(s, log, w.needles);
    for (const table of FTS_TABLES) s.get(`INSERT INTO ${table} (${table}) VALUES ('optimize')`).run();
  });
}

/**
 * The personal benchmark's questions quote the turns they were made from (`pie bench personal`): a question goes
 * when one of its evidence turns goes, or when its question or answer holds a forgotten text or id. (A whole
 * conversation's questions go by the episodes trigger.) The next `pie bench personal --generate` makes a new set.
 */
function forgetBenchQuestions(s: Statements, w: ForgetWrite): void {
  if (w.turns.length > 0) {
    s.get(
      `DELETE FROM personal_bench_questions WHERE id IN (
         SELECT question_id FROM personal_bench_evidence WHERE (episode_id, seq) IN
           (SELECT json_extract(value, '$.episodeId'), json_extract(value, '$.seq') FROM json_each(@rows)))`,
    ).run({ rows: JSON.stringify(w.turns) });
  }
  const needles = [...w.needles.texts, ...w.needles.ids.map(lowerAscii)].filter((n) => n.length > 0);
  if (needles.length > 0) {
    s.get(
      `DELETE FROM personal_bench_questions WHERE EXISTS (
         SELECT 1 FROM json_each(@needles) AS n
         WHERE instr(lower(question), n.value) > 0 OR instr(lower(answer), n.value) > 0)`,
    ).run({ needles: JSON.stringify(needles) });
  }
}

function repair(s: Statements, input: { write: ForgetWrite; at: number }): void {
  const { repairs } = input.write;
  for (const f of repairs.facts) {
    s.get('UPDATE facts SET valid_to = ?, superseded_by = ? WHERE id = ?').run(f.validTo, f.supersededBy, f.id);
  }
  if (repairs.reopenedTransitions.length > 0) {
    s.get(`UPDATE transitions SET resolved_by = NULL WHERE id ${IN}`).run({
      ids: JSON.stringify(repairs.reopenedTransitions),
    });
  }
  for (const e of repairs.entities) {
    s.get(
      `UPDATE entities SET state = @state, first_seen = @firstSeen, last_seen = @lastSeen, created_from = @createdFrom,
         updated_at = @at, version = version + 1 WHERE id = @id`,
    ).run({ ...e, state: toJson(e.state), at: input.at });
  }
  for (const e of repairs.episodes) {
    s.get('UPDATE episodes SET title = ?, summary = ?, turn_count = ?, updated_at = ? WHERE id = ?').run(
      e.title,
      e.summary,
      e.turnCount,
      input.at,
      e.id,
    );
  }
}

/**
 * A maintenance run's report with every needle replaced by "[forgotten]" (ids and texts, case-insensitively for
 * ASCII) and the number of its journal rows a forget removed, so `pie undo` can say what it will not restore.
 */
function scrubLog(s: Statements, log: { runId: string; journalRowsRemoved: number }, needles: Needles): void {
  const text = s.pluck('SELECT report FROM maintenance_log WHERE id = ?').get(log.runId) as string | undefined;
  if (text === undefined) return;
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(markForgotten(text, [...needles.texts, ...needles.ids.map(lowerAscii)])) as Record<
      string,
      unknown
    >;
  } catch {
    // A replacement that cut through JSON syntax: the report cannot be kept without the forgotten text.
    report = { note: 'report removed by pie forget' };
  }
  const previous = (report.forget as { journalRowsRemoved?: number } | undefined)?.journalRowsRemoved ?? 0;
  report.forget = { journalRowsRemoved: previous + log.journalRowsRemoved };
  s.get('UPDATE maintenance_log SET report = ? WHERE id = ?').run(JSON.stringify(report), log.runId);
}
