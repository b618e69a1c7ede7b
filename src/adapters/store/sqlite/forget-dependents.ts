import { lowerAscii } from '../../../domain/text-match.js';
import type { DependentsQuery, ForgetDependents, Needles } from '../../../ports/forget-store.js';
import { holdsText } from './forget-scan.js';
import { idsParam, type Statements } from './sql.js';

/**
 * What goes with the world rows a forget removes, beyond what foreign keys cascade: observations and the summaries
 * made from them, topic models, insights, sleep tasks and procedures that cite removed rows, vectors, and every copy
 * in the model cache, the undo journal and the maintenance log.
 */

const IN = (param: string): string => `IN (SELECT value FROM json_each(@${param}))`;

/**
 * Every form a needle takes in stored text, lower-cased as the queries compare it: the texts, and each id as a JSON
 * string (`"id"`) and as a JSON string inside a JSON-encoded column (`\"id\"`).
 */
export function needleForms(needles: Needles): string[] {
  const forms = new Set(needles.texts);
  for (const id of needles.ids) {
    const quoted = lowerAscii(JSON.stringify(id));
    forms.add(quoted);
    forms.add(JSON.stringify(quoted).slice(1, -1));
  }
  return [...forms].filter((f) => f.length > 0);
}

const SUMMARIES = `WITH RECURSIVE gone(id) AS (
    SELECT value FROM json_each(@summaries)
    UNION SELECT s.id FROM summaries s, json_each(s.source_ids) src WHERE src.value ${IN('observations')}
    UNION SELECT s.id FROM summaries s WHERE s.model_id ${IN('models')}
    UNION SELECT s.id FROM gone g, summaries s, json_each(s.source_ids) src WHERE src.value = g.id
  )
  SELECT DISTINCT id FROM gone WHERE id IN (SELECT id FROM summaries) ORDER BY id`;

const CACHE = `WITH c AS MATERIALIZED (SELECT key, lower(prompt) || char(10) || lower(response) AS t FROM llm_cache)
  SELECT key FROM c WHERE EXISTS (SELECT 1 FROM json_each(@texts) n WHERE instr(c.t, n.value) > 0) ORDER BY key`;

/** A journal image names a removed row when one of its columns holds the row's id. */
const imageNames = (column: string): string =>
  `EXISTS (SELECT 1 FROM json_each(j.${column}) v WHERE v.type = 'text' AND v.value ${IN('ids')})`;

const JOURNAL = `SELECT j.run_id AS runId, j.seq FROM journal j
  WHERE (j.table_name || ':' || j.row_id) ${IN('touched')}
    OR ${imageNames('before')} OR ${imageNames('after')}
    OR ${holdsText('j.before')} OR ${holdsText('j.after')}
  ORDER BY j.run_id, j.seq`;

export function forgetDependents(s: Statements, q: DependentsQuery): ForgetDependents {
  const pluck = <T>(sql: string, params: Record<string, string>): T[] => s.pluck(sql).all(params) as T[];
  const texts = JSON.stringify(needleForms(q.needles));
  const ids = idsParam(q.needles.ids);
  const episodes = idsParam(q.episodeIds);
  const entities = idsParam(q.entityIds);

  const observations = pluck<string>(
    `SELECT id FROM observations WHERE episode_id ${IN('episodes')} OR entity_id ${IN('entities')}
       OR id IN (SELECT 'obs-transition-' || value FROM json_each(@transitions)) OR id ${IN('observations')}
     ORDER BY id`,
    { episodes, entities, transitions: idsParam(q.transitionIds), observations: idsParam(q.observationIds) },
  );
  const models = pluck<string>(
    `SELECT id FROM mental_models WHERE name ${IN('names')} AND coalesce(json_extract(meta, '$.base'), 0) = 0
     ORDER BY id`,
    { names: idsParam(q.modelNames) },
  );
  const summaries = pluck<string>(SUMMARIES, {
    summaries: idsParam(q.summaryIds),
    observations: idsParam(observations),
    models: idsParam(models),
  });
  const modelsToReset = pluck<string>(
    `SELECT DISTINCT model_id FROM summaries WHERE id ${IN('summaries')} AND model_id NOT ${IN('models')}
     ORDER BY model_id`,
    { summaries: idsParam(summaries), models: idsParam(models) },
  );
  const citing = (column: string): string =>
    `EXISTS (SELECT 1 FROM json_each(x.${column}) e WHERE e.value ${IN('ids')})`;
  const insights = pluck<string>(
    `SELECT x.id FROM insights x WHERE ${citing('evidence')} OR ${holdsText('x.text')} ORDER BY x.id`,
    { ids, texts },
  );
  const sleepTasks = pluck<string>(
    `SELECT x.id FROM sleep_tasks x WHERE ${citing('subject_ids')} OR ${holdsText('x.payload')}
       OR ${holdsText('x.reason')} OR ${holdsText("coalesce(x.result, '')")} ORDER BY x.id`,
    { ids, texts },
  );
  const procedures = (
    s.get(`SELECT x.id, x.evidence FROM procedures x WHERE ${citing('evidence')} ORDER BY x.id`).all({ ids }) as {
      id: string;
      evidence: string;
    }[]
  ).map((r) => ({ id: r.id, evidence: JSON.parse(r.evidence) as string[] }));
  const embeddings = Number(
    s
      .pluck(
        `SELECT count(*) FROM embeddings WHERE (owner_kind = 'entity' AND owner_id ${IN('entities')})
           OR (owner_kind = 'episode' AND owner_id ${IN('episodes')})
           OR (owner_kind = 'transition' AND owner_id ${IN('transitions')})`,
      )
      .get({
        entities: idsParam([...q.entityIds, ...q.reembed.entityIds]),
        episodes: idsParam([...q.episodeIds, ...q.reembed.episodeIds]),
        transitions: idsParam(q.transitionIds),
      }),
  );
  const touched = JSON.stringify(q.touched.map((t) => `${t.table}:${t.rowId}`));
  const batches = (
    s
      .get(
        `SELECT ord, episode_ids FROM ingest_batches
         WHERE EXISTS (SELECT 1 FROM json_each(episode_ids) e WHERE e.value ${IN('episodes')}) ORDER BY ord`,
      )
      .all({ episodes }) as { ord: number; episode_ids: string }[]
  ).map((r) => ({
    ord: r.ord,
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
    embeddings,
    cacheKeys: pluck<string>(CACHE, { texts }),
    journal: s.get(JOURNAL).all({ touched, ids, texts }) as { runId: string; seq: number }[],
    logs: pluck<string>(`SELECT x.id FROM maintenance_log x WHERE ${holdsText('x.report')} ORDER BY x.id`, { texts }),
    batches,
  };
}
