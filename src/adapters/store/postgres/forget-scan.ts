import type { EntityState, TransitionKind } from '../../../domain/world.js';
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
import { fromJson, type Params, type Sql } from './sql.js';
import { EPISODE_SELECT, type EpisodeRow, toEpisode } from '../sqlite/forget-scan.js';

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

interface EntityRow {
  id: string;
  name: string;
  type: string;
  state: string;
  first_seen: number;
  last_seen: number;
  created_from: string | null;
  merged_into: string | null;
  protected: number;
  by_hand: boolean;
}

const IN_EPISODES = anyOf('episodes');

/** Entities linked to the removed conversations or named in @entities, and those merged into any of them. */
const CANDIDATES = `WITH RECURSIVE seed(id) AS (
    SELECT entity_id FROM entity_mentions WHERE episode_id ${IN_EPISODES}
    UNION SELECT id FROM entities WHERE created_from ${IN_EPISODES}
    UNION SELECT entity_id FROM transitions WHERE episode_id ${IN_EPISODES}
    UNION SELECT entity_id FROM facts WHERE episode_id ${IN_EPISODES}
    UNION SELECT source_id FROM relationships WHERE episode_id ${IN_EPISODES}
    UNION SELECT target_id FROM relationships WHERE episode_id ${IN_EPISODES}
    UNION SELECT unnest(@entities::text[])
  ),
  linked(id) AS (
    SELECT id FROM seed
    UNION SELECT e.id FROM entities e JOIN linked l ON e.merged_into = l.id
  )
  SELECT e.id, e.name, e.type, e.state, e.first_seen, e.last_seen, e.created_from, e.merged_into, e.protected,
    coalesce(jsonb_typeof(e.meta::jsonb -> 'kip'), 'null') <> 'null' AS by_hand
  FROM entities e WHERE e.id IN (SELECT id FROM linked) ORDER BY e.id`;

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

function group<T extends { entityId: string }>(list: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) out.set(item.entityId, [...(out.get(item.entityId) ?? []), item]);
  return out;
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
    const rows = await sql.all<EntityRow>(CANDIDATES, { episodes: [...episodeIds], entities: [...seedIds] });
    if (rows.length === 0) return [];
    const p = { ids: rows.map((r) => r.id) };
    const aliases = group(
      await sql.all<{ entityId: string; alias: string; normalized: string }>(
        `SELECT entity_id AS "entityId", alias, normalized FROM entity_aliases WHERE entity_id ${anyOf('ids')}
         ORDER BY recorded_at, alias`,
        p,
      ),
    );
    const mentions = group(
      await sql.all<{ entityId: string; episodeId: string; time: number }>(
        `SELECT entity_id AS "entityId", episode_id AS "episodeId", time FROM entity_mentions
         WHERE entity_id ${anyOf('ids')} ORDER BY time, episode_id`,
        p,
      ),
    );
    const transitions = group(
      await sql.all<{
        entityId: string;
        id: string;
        kind: TransitionKind;
        summary: string;
        episodeId: string | null;
        resolvedBy: string | null;
      }>(
        `SELECT entity_id AS "entityId", id, kind, summary, episode_id AS "episodeId", resolved_by AS "resolvedBy"
         FROM transitions WHERE entity_id ${anyOf('ids')} ORDER BY event_time, recorded_at, id`,
        p,
      ),
    );
    const facts = group(
      (
        await sql.all<FactRow>(`${FACT_SELECT} WHERE entity_id ${anyOf('ids')} ORDER BY valid_from, recorded_at, id`, p)
      ).map(factFromRow),
    );
    const edges = await sql.all<{
      id: string;
      source_id: string;
      target_id: string;
      episodeId: string | null;
      discoveredBy: string | null;
    }>(
      `SELECT id, source_id, target_id, episode_id AS "episodeId", discovered_by AS "discoveredBy" FROM relationships
       WHERE source_id ${anyOf('ids')} OR target_id ${anyOf('ids')} ORDER BY id`,
      p,
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      state: fromJson<EntityState>(r.state, {}),
      firstSeen: r.first_seen,
      lastSeen: r.last_seen,
      createdFrom: r.created_from,
      mergedInto: r.merged_into,
      protected: r.protected !== 0,
      madeByHand: r.by_hand,
      aliases: (aliases.get(r.id) ?? []).map(({ alias, normalized }) => ({ alias, normalized })),
      mentions: (mentions.get(r.id) ?? []).map(({ episodeId, time }) => ({ episodeId, time })),
      transitions: (transitions.get(r.id) ?? []).map(({ entityId: _e, ...t }) => t),
      facts: facts.get(r.id) ?? [],
      relationships: edges
        .filter((e) => e.source_id === r.id || e.target_id === r.id)
        .map((e) => ({ id: e.id, episodeId: e.episodeId, discoveredBy: e.discoveredBy })),
    }));
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
