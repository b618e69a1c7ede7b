import type { DependentsQuery, ForgetDependents } from '../../../ports/forget-store.js';
import { needleForms } from '../sqlite/forget-dependents.js';
import { anyOf, holdsText } from './forget-scan.js';
import type { Sql } from './sql.js';

/**
 * What goes with the world rows a forget removes, beyond what foreign keys cascade (the same reads as
 * ../sqlite/forget-dependents.ts): observations and the summaries made from them, topic models, insights, sleep
 * tasks and procedures that cite removed rows, vectors, and every copy in the model cache, the undo journal and
 * the maintenance log. JSON columns are read with pie_json_values (schema 3), as SQLite's json_each reads them.
 */

/** The JSON string values at the top level of a JSON text column, as a set of `value`. */
const jsonStrings = (column: string): string =>
  `(SELECT v #>> '{}' AS value FROM pie_json_values(${column}) AS v WHERE jsonb_typeof(v) = 'string')`;

/** A row whose JSON column lists one of @param among its top-level strings. */
const cites = (column: string, param: string): string =>
  `EXISTS (SELECT 1 FROM ${jsonStrings(column)} AS e WHERE e.value ${anyOf(param)})`;

const SUMMARIES = `WITH RECURSIVE gone(id) AS (
    SELECT unnest(@summaries::text[]) COLLATE "C"
    UNION SELECT s.id FROM summaries s WHERE ${cites('s.source_ids', 'observations')}
    UNION SELECT s.id FROM summaries s WHERE s.model_id ${anyOf('models')}
    UNION SELECT s.id FROM gone g, summaries s, LATERAL ${jsonStrings('s.source_ids')} AS src WHERE src.value = g.id
  )
  SELECT DISTINCT id FROM gone WHERE id IN (SELECT id FROM summaries) ORDER BY id`;

const CACHE = `WITH c AS MATERIALIZED (SELECT key, lower(prompt) || chr(10) || lower(response) AS t FROM llm_cache)
  SELECT key AS id FROM c WHERE EXISTS (SELECT 1 FROM unnest(@texts::text[]) AS n(v) WHERE strpos(c.t, n.v) > 0)
  ORDER BY key`;

const JOURNAL = `SELECT j.run_id AS "runId", j.seq FROM journal j
  WHERE (j.table_name || ':' || j.row_id) ${anyOf('touched')}
    OR ${cites('j.before', 'ids')} OR ${cites('j.after', 'ids')}
    OR ${holdsText('j.before')} OR ${holdsText('j.after')}
  ORDER BY j.run_id, j.seq`;

export async function forgetDependents(sql: Sql, q: DependentsQuery): Promise<ForgetDependents> {
  const ids = async (text: string, params: Record<string, readonly string[]>): Promise<string[]> =>
    (await sql.all<{ id: string }>(text, params)).map((r) => r.id);
  const texts = needleForms(q.needles);
  const needleIds = [...q.needles.ids];
  const episodes = [...q.episodeIds];
  const entities = [...q.entityIds];

  const observations = await ids(
    `SELECT id FROM observations WHERE episode_id ${anyOf('episodes')} OR entity_id ${anyOf('entities')}
       OR id IN (SELECT 'obs-transition-' || t FROM unnest(@transitions::text[]) AS t) OR id ${anyOf('observations')}
     ORDER BY id`,
    { episodes, entities, transitions: q.transitionIds, observations: q.observationIds },
  );
  const models = await ids(
    `SELECT id FROM mental_models WHERE name ${anyOf('names')}
       AND coalesce(meta::jsonb -> 'base', 'null'::jsonb) IN ('false'::jsonb, '0'::jsonb, 'null'::jsonb)
     ORDER BY id`,
    { names: q.modelNames },
  );
  const summaries = await ids(SUMMARIES, { summaries: q.summaryIds, observations, models });
  const modelsToReset = await ids(
    `SELECT DISTINCT model_id AS id FROM summaries WHERE id ${anyOf('summaries')} AND NOT (model_id ${anyOf('models')})
     ORDER BY model_id`,
    { summaries, models },
  );
  const insights = await ids(
    `SELECT x.id FROM insights x WHERE ${cites('x.evidence', 'ids')} OR ${holdsText('x.text')} ORDER BY x.id`,
    { ids: needleIds, texts },
  );
  const sleepTasks = await ids(
    `SELECT x.id FROM sleep_tasks x WHERE ${cites('x.subject_ids', 'ids')} OR ${holdsText('x.payload')}
       OR ${holdsText('x.reason')} OR ${holdsText("coalesce(x.result, '')")} ORDER BY x.id`,
    { ids: needleIds, texts },
  );
  const procedures = (
    await sql.all<{ id: string; evidence: string }>(
      `SELECT x.id, x.evidence FROM procedures x WHERE ${cites('x.evidence', 'ids')} ORDER BY x.id`,
      { ids: needleIds },
    )
  ).map((r) => ({ id: r.id, evidence: JSON.parse(r.evidence) as string[] }));
  const vectors = await sql.one<{ n: number }>(
    `SELECT count(*) AS n FROM embeddings WHERE (owner_kind = 'entity' AND owner_id ${anyOf('entities')})
       OR (owner_kind = 'episode' AND owner_id ${anyOf('episodes')})
       OR (owner_kind = 'transition' AND owner_id ${anyOf('transitions')})`,
    {
      entities: [...q.entityIds, ...q.reembed.entityIds],
      episodes: [...q.episodeIds, ...q.reembed.episodeIds],
      transitions: [...q.transitionIds],
    },
  );
  const batches = (
    await sql.all<{ ord: number; episode_ids: string }>(
      `SELECT ord, episode_ids FROM ingest_batches WHERE ${cites('episode_ids', 'episodes')} ORDER BY ord`,
      { episodes },
    )
  ).map((r) => ({
    ord: Number(r.ord),
    episodeIds: (JSON.parse(r.episode_ids) as string[]).filter((id) => !q.episodeIds.includes(id)),
  }));
  return {
    observations,
    summaries,
    models,
    modelsToReset,
    insights,
    sleepTasks,
    procedures,
    embeddings: Number(vectors?.n ?? 0),
    cacheKeys: await ids(CACHE, { texts }),
    journal: await sql.all<{ runId: string; seq: number }>(JOURNAL, {
      touched: q.touched.map((t) => `${t.table}:${t.rowId}`),
      ids: needleIds,
      texts,
    }),
    logs: await ids(`SELECT x.id FROM maintenance_log x WHERE ${holdsText('x.report')} ORDER BY x.id`, { texts }),
    batches,
  };
}
