import { lowerAscii, markForgotten } from '../../../domain/text-match.js';
import type { ForgetWrite, Needles } from '../../../ports/forget-store.js';
import { anyOf, turnParams, TURNS_IN } from './forget-scan.js';
import { toJson, type Sql } from './sql.js';

/**
 * Writes one forget on PostgreSQL, all of it or nothing (a transaction of its own, or a savepoint inside the
 * caller's): the same statements as ../sqlite/forget-apply.ts. Foreign keys cascade what hangs off entities and
 * conversations; triggers keep the entities' search text and the vectors in step; the other search columns are
 * generated from their rows, so they go with them. The rows' old versions stay in the table files until VACUUM
 * (see compact).
 */
export async function applyForgetWrite(sql: Sql, input: { write: ForgetWrite; at: number }): Promise<void> {
  const w = input.write;
  await sql.atomic(async (tx) => {
    const byIds = async (text: string, list: readonly string[]): Promise<void> => {
      if (list.length > 0) await tx.run(text, { ids: [...list] });
    };
    await byIds(`DELETE FROM llm_cache WHERE key ${anyOf('ids')}`, w.cacheKeys);
    if (w.journal.length > 0) {
      await tx.run(`DELETE FROM journal WHERE (run_id, seq) IN (SELECT * FROM unnest(@runs::text[], @seqs::int[]))`, {
        runs: w.journal.map((j) => j.runId),
        seqs: w.journal.map((j) => j.seq),
      });
    }
    await byIds(`DELETE FROM observations WHERE id ${anyOf('ids')}`, w.observationIds);
    await byIds(`DELETE FROM summaries WHERE id ${anyOf('ids')}`, w.summaryIds);
    await byIds(`DELETE FROM mental_models WHERE id ${anyOf('ids')}`, w.modelIds);
    await byIds(`UPDATE mental_models SET content = '' WHERE id ${anyOf('ids')}`, w.modelsToReset);
    await byIds(`DELETE FROM insights WHERE id ${anyOf('ids')}`, w.insightIds);
    await byIds(`DELETE FROM sleep_tasks WHERE id ${anyOf('ids')}`, w.sleepTaskIds);
    await byIds(`DELETE FROM procedures WHERE id ${anyOf('ids')}`, w.procedures.deleted);
    for (const p of w.procedures.evidence) {
      await tx.run('UPDATE procedures SET evidence = @evidence WHERE id = @id', {
        evidence: toJson(p.evidence),
        id: p.id,
      });
    }

    await byIds(`DELETE FROM relationships WHERE id ${anyOf('ids')}`, w.relationshipIds);
    await byIds(`DELETE FROM facts WHERE id ${anyOf('ids')}`, w.factIds);
    await byIds(`DELETE FROM transitions WHERE id ${anyOf('ids')}`, w.transitionIds);
    const pairs = async (table: string, columns: [string, string], rows: readonly [string, string][]) => {
      if (rows.length === 0) return;
      await tx.run(
        `DELETE FROM ${table} WHERE (${columns.join(', ')}) IN (SELECT * FROM unnest(@a::text[], @b::text[]))`,
        { a: rows.map((r) => r[0]), b: rows.map((r) => r[1]) },
      );
    };
    await pairs(
      'entity_mentions',
      ['entity_id', 'episode_id'],
      w.mentions.map((m) => [m.entityId, m.episodeId]),
    );
    await pairs(
      'entity_aliases',
      ['entity_id', 'normalized'],
      w.aliases.map((a) => [a.entityId, a.normalized]),
    );
    await byIds(`DELETE FROM entities WHERE id ${anyOf('ids')}`, w.entityIds);
    await forgetBenchQuestions(tx, w);
    if (w.turns.length > 0) await tx.run(`DELETE FROM turns WHERE id IN ${TURNS_IN}`, turnParams(w.turns));
    await byIds(`DELETE FROM episodes WHERE id ${anyOf('ids')}`, w.episodeIds);
    if (w.forgottenKeys.length > 0) {
      await tx.run(
        `INSERT INTO forgotten_episodes (key, forgotten_at) SELECT k, @at FROM unnest(@keys::text[]) AS k
           ON CONFLICT (key) DO NOTHING`,
        { keys: [...w.forgottenKeys], at: input.at },
      );
    }

    await repair(tx, input);
    await byIds(`DELETE FROM embeddings WHERE owner_kind = 'entity' AND owner_id ${anyOf('ids')}`, w.reembed.entityIds);
    await byIds(
      `DELETE FROM embeddings WHERE owner_kind = 'episode' AND owner_id ${anyOf('ids')}`,
      w.reembed.episodeIds,
    );
    for (const b of w.batches) {
      await tx.run('UPDATE ingest_batches SET episode_ids = @ids WHERE ord = @ord', {
        ids: toJson(b.episodeIds),
        ord: b.ord,
      });
    }
    for (const log of w.logs) await scrubLog(tx, log, w.needles);
  });
}

/**
 * The personal benchmark's questions quote the turns they were made from: a question goes when one of its evidence
 * turns goes, or when its question or answer holds a forgotten text or id (a whole conversation's questions go by
 * the episodes trigger).
 */
async function forgetBenchQuestions(sql: Sql, w: ForgetWrite): Promise<void> {
  if (w.turns.length > 0) {
    await sql.run(
      `DELETE FROM personal_bench_questions WHERE id IN (
         SELECT question_id FROM personal_bench_evidence WHERE (episode_id, seq) IN
           (SELECT * FROM unnest(@turnEpisodes::text[], @turnSeqs::int[])))`,
      turnParams(w.turns),
    );
  }
  const needles = [...w.needles.texts, ...w.needles.ids.map(lowerAscii)].filter((n) => n.length > 0);
  if (needles.length > 0) {
    await sql.run(
      `DELETE FROM personal_bench_questions WHERE EXISTS (
         SELECT 1 FROM unnest(@needles::text[]) AS n(v)
         WHERE strpos(lower(question), n.v) > 0 OR strpos(lower(answer), n.v) > 0)`,
      { needles },
    );
  }
}

async function repair(sql: Sql, input: { write: ForgetWrite; at: number }): Promise<void> {
  const { repairs } = input.write;
  for (const f of repairs.facts) {
    await sql.run('UPDATE facts SET valid_to = @validTo, superseded_by = @supersededBy WHERE id = @id', {
      validTo: f.validTo,
      supersededBy: f.supersededBy,
      id: f.id,
    });
  }
  if (repairs.reopenedTransitions.length > 0) {
    await sql.run(`UPDATE transitions SET resolved_by = NULL WHERE id ${anyOf('ids')}`, {
      ids: [...repairs.reopenedTransitions],
    });
  }
  for (const e of repairs.entities) {
    await sql.run(
      `UPDATE entities SET state = @state, first_seen = @firstSeen, last_seen = @lastSeen, created_from = @createdFrom,
         updated_at = @at, version = version + 1 WHERE id = @id`,
      {
        id: e.id,
        state: toJson(e.state),
        firstSeen: e.firstSeen,
        lastSeen: e.lastSeen,
        createdFrom: e.createdFrom,
        at: input.at,
      },
    );
  }
  for (const e of repairs.episodes) {
    await sql.run(
      'UPDATE episodes SET title = @title, summary = @summary, turn_count = @turnCount, updated_at = @at WHERE id = @id',
      { title: e.title, summary: e.summary, turnCount: e.turnCount, at: input.at, id: e.id },
    );
  }
}

/** A maintenance run's report with every needle replaced by "[forgotten]" and the journal rows removed counted. */
async function scrubLog(sql: Sql, log: { runId: string; journalRowsRemoved: number }, needles: Needles): Promise<void> {
  const row = await sql.one<{ report: string }>('SELECT report FROM maintenance_log WHERE id = @id', {
    id: log.runId,
  });
  if (row === undefined) return;
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(markForgotten(row.report, [...needles.texts, ...needles.ids.map(lowerAscii)])) as Record<
      string,
      unknown
    >;
  } catch (error) {
    // A replacement that cut through JSON syntax: the report cannot be kept without the forgotten text.
    if (!(error instanceof SyntaxError)) throw error;
    report = { note: 'report removed by pie forget' };
  }
  const previous = (report.forget as { journalRowsRemoved?: number } | undefined)?.journalRowsRemoved ?? 0;
  report.forget = { journalRowsRemoved: previous + log.journalRowsRemoved };
  await sql.run('UPDATE maintenance_log SET report = @report WHERE id = @id', {
    report: JSON.stringify(report),
    id: log.runId,
  });
}
