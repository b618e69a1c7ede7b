import type {
  ForgetSeeds,
  ScannedEntity,
  ScannedEpisode,
  ScannedTurn,
  TextMatches,
  TurnMatch,
  TurnRef,
} from '../../../ports/forget-store.js';
import { noTextMatches, type ForgetScan } from '../../../ports/forget-store.js';
import { factFromRow, type FactRow } from '../sqlite/facts.js';
import { exactPhrase } from '../sqlite/fts-query.js';
import type { Params, Sql } from './sql.js';
import {
  candidatesSql,
  EPISODE_SELECT,
  scannedEntities,
  toEpisode,
  type CandidateRow,
  type EpisodeRow,
} from '../sqlite/forget-scan.js';

/**
 * The reading half of forgetting on PostgreSQL (the same reads as ../sqlite/forget-scan.ts). Id lists are bound as
 * arrays. Texts are compared as in SQLite: `lower` of a "C"-collated column folds ASCII letters only.
 */

/** Rows whose `column` contains one of the lower-cased texts bound as @texts (a text array). */
export function holdsText(column: string): string {
  return `EXISTS (SELECT 1 FROM unnest(@texts::text[]) AS n(v) WHERE strpos(lower(${column}), n.v) > 0)`;
}

/** `= ANY` of a text array parameter. */
export const anyOf = (param: string): string => `= ANY(@${param}::text[])`;

/** The ids of the turns named by @turnEpisodes / @turnSeqs (parallel arrays). */
export const TURNS_IN = `(SELECT t.id FROM turns t
  JOIN unnest(@turnEpisodes::text[], @turnSeqs::int[]) AS j(episode_id, seq)
    ON t.episode_id = j.episode_id AND t.seq = j.seq)`;

export function turnParams(turns: readonly TurnRef[]): Params {
  return { turnEpisodes: turns.map((t) => t.episodeId), turnSeqs: turns.map((t) => t.seq) };
}

const IN_EPISODES = anyOf('episodes');

const CANDIDATES = candidatesSql({
  inEpisodes: IN_EPISODES,
  seeds: 'SELECT unnest(@entities::text[])',
  byHand: "coalesce(jsonb_typeof(e.meta::jsonb -> 'kip'), 'null') <> 'null'",
});

const FACT_SELECT = `SELECT id, entity_id, attribute, value, valid_from, valid_to, superseded_by, episode_id,
  recorded_at, confidence FROM facts`;

export interface ForgetReads {
  episodesTitled(title: string): Promise<ScannedEpisode[]>;
  turnsContaining(text: readonly string[]): Promise<TurnMatch[]>;
  scan(seeds: ForgetSeeds): Promise<ForgetScan>;
  foundOnlyIn(input: {
    phrases: readonly string[];
    inside: readonly TurnRef[];
  }): Promise<{ phrase: string; inside: boolean }[]>;
}

export function createForgetReads(sql: Sql): ForgetReads {
  const ids = async (text: string, params: Params): Promise<string[]> =>
    (await sql.all<{ id: string }>(text, params)).map((r) => r.id);

  async function textMatches(texts: readonly string[]): Promise<TextMatches> {
    if (texts.length === 0) return noTextMatches();
    const p = { texts: [...texts] };
    const where = (table: string, columns: string[]): string =>
      `FROM ${table} x WHERE ${columns.map((c) => holdsText(`x.${c}`)).join(' OR ')}`;
    return {
      transitions: await ids(
        `SELECT x.id ${where('transitions', ['summary', 'from_state', 'to_state'])} ORDER BY x.ord`,
        p,
      ),
      facts: await ids(`SELECT x.id ${where('facts', ['value'])} ORDER BY x.id`, p),
      relationships: await ids(`SELECT x.id ${where('relationships', ['properties'])} ORDER BY x.id`, p),
      observations: await ids(`SELECT x.id ${where('observations', ['text'])} ORDER BY x.id`, p),
      summaries: await ids(`SELECT x.id ${where('summaries', ['text'])} ORDER BY x.id`, p),
      insights: await ids(`SELECT x.id ${where('insights', ['text'])} ORDER BY x.ord`, p),
      procedures: await ids(`SELECT x.id ${where('procedures', ['description', 'pattern'])} ORDER BY x.id`, p),
      sleepTasks: await ids(`SELECT x.id ${where('sleep_tasks', ['reason', 'payload', 'result'])} ORDER BY x.ord`, p),
      entities: await ids(`SELECT x.id ${where('entities', ['name'])} ORDER BY x.ord`, p),
      aliases: await sql.all<TextMatches['aliases'][number]>(
        `SELECT x.entity_id AS "entityId", x.normalized ${where('entity_aliases', ['alias'])}
         ORDER BY x.entity_id, x.normalized`,
        p,
      ),
    };
  }

  async function entities(seedIds: readonly string[], episodeIds: readonly string[]): Promise<ScannedEntity[]> {
    const rows = await sql.all<CandidateRow>(CANDIDATES, { episodes: [...episodeIds], entities: [...seedIds] });
    if (rows.length === 0) return [];
    const p = { ids: rows.map((r) => r.id) };
    const all = <T>(text: string): Promise<T[]> => sql.all<T>(text, p);
    return scannedEntities(rows, {
      aliases: await all(
        `SELECT entity_id AS "entityId", alias, normalized FROM entity_aliases WHERE entity_id ${anyOf('ids')}
         ORDER BY recorded_at, alias`,
      ),
      mentions: await all(
        `SELECT entity_id AS "entityId", episode_id AS "episodeId", time FROM entity_mentions
         WHERE entity_id ${anyOf('ids')} ORDER BY time, episode_id`,
      ),
      transitions: await all(
        `SELECT entity_id AS "entityId", id, kind, summary, episode_id AS "episodeId", resolved_by AS "resolvedBy"
         FROM transitions WHERE entity_id ${anyOf('ids')} ORDER BY event_time, recorded_at, id`,
      ),
      facts: (
        await all<FactRow>(`${FACT_SELECT} WHERE entity_id ${anyOf('ids')} ORDER BY valid_from, recorded_at, id`)
      ).map(factFromRow),
      edges: await all(
        `SELECT id, source_id, target_id, episode_id AS "episodeId", discovered_by AS "discoveredBy" FROM relationships
         WHERE source_id ${anyOf('ids')} OR target_id ${anyOf('ids')} ORDER BY id`,
      ),
    });
  }

  return {
    async episodesTitled(title) {
      const rows = await sql.all<EpisodeRow>(`${EPISODE_SELECT} WHERE trim(title) = @title ORDER BY created_at, id`, {
        title: title.trim(),
      });
      return rows.map(toEpisode);
    },

    async turnsContaining(text) {
      if (text.length === 0) return [];
      return sql.all<TurnMatch>(
        `SELECT t.episode_id AS "episodeId", t.seq, e.turn_count AS "turnCount" FROM turns t
         JOIN episodes e ON e.id = t.episode_id WHERE ${holdsText('t.text')} ORDER BY e.created_at, t.episode_id, t.seq`,
        { texts: [...text] },
      );
    },

    async scan(seeds) {
      const episodes = (
        await sql.all<EpisodeRow>(`${EPISODE_SELECT} WHERE id ${anyOf('ids')} ORDER BY created_at, id`, {
          ids: [...seeds.episodeIds],
        })
      ).map(toEpisode);
      const partialIds = [...new Set(seeds.turns.map((t) => t.episodeId))].filter(
        (id) => !seeds.episodeIds.includes(id),
      );
      const partial = (
        await sql.all<EpisodeRow>(`${EPISODE_SELECT} WHERE id ${anyOf('ids')} ORDER BY created_at, id`, {
          ids: partialIds,
        })
      ).map(toEpisode);
      const turns = await sql.all<ScannedTurn>(
        `SELECT episode_id AS "episodeId", seq, text FROM turns
         WHERE episode_id ${anyOf('ids')} OR id IN ${TURNS_IN} ORDER BY episode_id, seq`,
        { ids: [...seeds.episodeIds], ...turnParams(seeds.turns) },
      );
      const text = await textMatches(seeds.text);
      const owners = [
        ...seeds.entityIds,
        ...text.entities,
        ...text.aliases.map((a) => a.entityId),
        ...(await ids(`SELECT entity_id AS id FROM transitions WHERE id ${anyOf('ids')}`, { ids: text.transitions })),
        ...(await ids(`SELECT entity_id AS id FROM facts WHERE id ${anyOf('ids')}`, { ids: text.facts })),
      ];
      return { episodes, partial, turns, entities: await entities([...new Set(owners)], seeds.episodeIds), text };
    },

    /**
     * A phrase search with PostgreSQL's text search (the 'english' configuration the turn index uses), for the
     * phrase as written or as its letter and digit runs (the parser reads "qz-1234" as 'qz' and '-1234', so the
     * runs alone would miss it). A phrase made only of stop words ("the", "is") has no query there and is left
     * out: it cannot be shown to be rare.
     */
    async foundOnlyIn({ phrases, inside }) {
      const turnIds = (
        await sql.all<{ id: number }>(`SELECT id FROM turns WHERE id IN ${TURNS_IN}`, turnParams(inside))
      ).map((r) => Number(r.id));
      const out: { phrase: string; inside: boolean }[] = [];
      for (const text of new Set(phrases)) {
        const quoted = exactPhrase(text);
        if (quoted === null) continue;
        const phrase = quoted.slice(1, -1).replaceAll('""', '"');
        const found = await sql.one<{ words: number; outside: boolean; within: boolean }>(
          `SELECT numnode(p.q) AS words,
             EXISTS (SELECT 1 FROM turns WHERE search_tsv @@ p.q AND NOT (id = ANY(@ids::bigint[]))) AS outside,
             EXISTS (SELECT 1 FROM turns WHERE search_tsv @@ p.q AND id = ANY(@ids::bigint[])) AS within
           FROM (SELECT phraseto_tsquery('english', pie_search_text(@raw)) || phraseto_tsquery('english', @phrase) AS q) AS p`,
          { raw: text, phrase, ids: turnIds },
        );
        if (!found || Number(found.words) === 0 || found.outside) continue;
        out.push({ phrase: text, inside: found.within });
      }
      return out;
    },
  };
}
