import type { EntityState, Fact } from '../../../domain/world.js';
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
import { SELECT as FACT_SELECT, factFromRow, type FactRow } from './facts.js';
import { exactPhrase } from './fts-query.js';
import { IDS_IN, fromJson, idsParam, type Statements } from './sql.js';

/**
 * The reading half of forgetting (`store.forget`): what hangs off the conversations, turns, entities or text a
 * person asks PIE to forget. Everything is read by id lists bound as JSON (one statement shape for any size).
 */

/**
 * Rows whose `column` contains one of the lower-cased texts bound as @texts (a JSON array). Qualify the column
 * (`x.value`): unqualified, names json_each has too (value, key, type, id, path) would mean its own columns.
 */
export function holdsText(column: string): string {
  return `EXISTS (SELECT 1 FROM json_each(@texts) n WHERE instr(lower(${column}), n.value) > 0)`;
}

/** The turns named by a JSON array of {episodeId, seq} bound as @turns. */
const TURNS_IN = `(SELECT t.id FROM turns t JOIN json_each(@turns) j
  ON t.episode_id = json_extract(j.value, '$.episodeId') AND t.seq = json_extract(j.value, '$.seq'))`;

export interface EpisodeRow {
  id: string;
  title: string;
  summary: string | null;
  created_at: number;
  turn_count: number;
}

export const EPISODE_SELECT = 'SELECT id, title, summary, created_at, turn_count FROM episodes';

export const toEpisode = (r: EpisodeRow): ScannedEpisode => ({
  id: r.id,
  title: r.title,
  summary: r.summary,
  createdAt: r.created_at,
  turnCount: r.turn_count,
});

/** A candidate entity as both store adapters read it (`by_hand`: SQLite gives 0 or 1, PostgreSQL a boolean). */
export interface CandidateRow {
  id: string;
  name: string;
  type: string;
  state: string;
  first_seen: number;
  last_seen: number;
  created_from: string | null;
  merged_into: string | null;
  protected: number;
  by_hand: number | boolean;
}

const IN_EPISODES = 'IN (SELECT value FROM json_each(@episodes))';

/**
 * Entities linked to the removed conversations or named in the seed list, and those merged into any of them. Written
 * once for both store adapters: `inEpisodes` tests an id against the conversations, `seeds` lists the named ids and
 * `byHand` is true where the entity's meta has a `kip` record.
 */
export function candidatesSql(dialect: { inEpisodes: string; seeds: string; byHand: string }): string {
  const { inEpisodes } = dialect;
  return `WITH RECURSIVE seed(id) AS (
    SELECT entity_id FROM entity_mentions WHERE episode_id ${inEpisodes}
    UNION SELECT id FROM entities WHERE created_from ${inEpisodes}
    UNION SELECT entity_id FROM transitions WHERE episode_id ${inEpisodes}
    UNION SELECT entity_id FROM facts WHERE episode_id ${inEpisodes}
    UNION SELECT source_id FROM relationships WHERE episode_id ${inEpisodes}
    UNION SELECT target_id FROM relationships WHERE episode_id ${inEpisodes}
    UNION ${dialect.seeds}
  ),
  linked(id) AS (
    SELECT id FROM seed
    UNION SELECT e.id FROM entities e JOIN linked l ON e.merged_into = l.id
  )
  SELECT e.id, e.name, e.type, e.state, e.first_seen, e.last_seen, e.created_from, e.merged_into, e.protected,
    ${dialect.byHand} AS by_hand
  FROM entities e WHERE e.id IN (SELECT id FROM linked) ORDER BY e.id`;
}

const CANDIDATES = candidatesSql({
  inEpisodes: IN_EPISODES,
  seeds: 'SELECT value FROM json_each(@entities)',
  byHand: "json_extract(e.meta, '$.kip') IS NOT NULL",
});

/** What is read about the candidate entities, each list in its statement's order (the same in both adapters). */
export interface CandidateReads {
  aliases: { entityId: string; alias: string; normalized: string }[];
  mentions: { entityId: string; episodeId: string; time: number }[];
  transitions: ({ entityId: string } & ScannedEntity['transitions'][number])[];
  facts: Fact[];
  edges: { id: string; source_id: string; target_id: string; episodeId: string | null; discoveredBy: string | null }[];
}

/** The candidates with what hangs off each (pure). */
export function scannedEntities(rows: readonly CandidateRow[], reads: CandidateReads): ScannedEntity[] {
  const aliases = groupByEntity(reads.aliases);
  const mentions = groupByEntity(reads.mentions);
  const transitions = groupByEntity(reads.transitions);
  const facts = groupByEntity(reads.facts);
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
    madeByHand: r.by_hand === true || r.by_hand === 1,
    aliases: (aliases.get(r.id) ?? []).map(({ alias, normalized }) => ({ alias, normalized })),
    mentions: (mentions.get(r.id) ?? []).map(({ episodeId, time }) => ({ episodeId, time })),
    transitions: (transitions.get(r.id) ?? []).map(({ entityId: _e, ...t }) => t),
    facts: facts.get(r.id) ?? [],
    relationships: reads.edges
      .filter((e) => e.source_id === r.id || e.target_id === r.id)
      .map((e) => ({ id: e.id, episodeId: e.episodeId, discoveredBy: e.discoveredBy })),
  }));
}

function groupByEntity<T extends { entityId: string }>(list: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of list) {
    const group = out.get(item.entityId);
    if (group) group.push(item);
    else out.set(item.entityId, [item]);
  }
  return out;
}

export interface ForgetReads {
  episodesTitled(title: string): ScannedEpisode[];
  turnsContaining(text: readonly string[]): TurnMatch[];
  scan(seeds: ForgetSeeds): ForgetScan;
  foundOnlyIn(input: { phrases: readonly string[]; inside: readonly TurnRef[] }): { phrase: string; inside: boolean }[];
}

export function createForgetReads(s: Statements): ForgetReads {
  const ids = (sql: string, params: Record<string, string>): string[] => s.pluck(sql).all(params) as string[];

  function textMatches(texts: readonly string[]): TextMatches {
    if (texts.length === 0) return noTextMatches();
    const p = { texts: JSON.stringify(texts) };
    const where = (table: string, columns: string[]): string =>
      `FROM ${table} x WHERE ${columns.map((c) => holdsText(`x.${c}`)).join(' OR ')}`;
    return {
      transitions: ids(`SELECT x.id ${where('transitions', ['summary', 'from_state', 'to_state'])}`, p),
      facts: ids(`SELECT x.id ${where('facts', ['value'])}`, p),
      relationships: ids(`SELECT x.id ${where('relationships', ['properties'])}`, p),
      observations: ids(`SELECT x.id ${where('observations', ['text'])}`, p),
      summaries: ids(`SELECT x.id ${where('summaries', ['text'])}`, p),
      insights: ids(`SELECT x.id ${where('insights', ['text'])}`, p),
      procedures: ids(`SELECT x.id ${where('procedures', ['description', 'pattern'])}`, p),
      sleepTasks: ids(`SELECT x.id ${where('sleep_tasks', ['reason', 'payload', 'result'])}`, p),
      entities: ids(`SELECT x.id ${where('entities', ['name'])}`, p),
      aliases: s
        .get(`SELECT x.entity_id AS entityId, x.normalized ${where('entity_aliases', ['alias'])}`)
        .all(p) as TextMatches['aliases'],
    };
  }

  function entities(seedIds: readonly string[], episodeIds: readonly string[]): ScannedEntity[] {
    const rows = s
      .get(CANDIDATES)
      .all({ episodes: idsParam(episodeIds), entities: idsParam(seedIds) }) as CandidateRow[];
    if (rows.length === 0) return [];
    const p = { ids: idsParam(rows.map((r) => r.id)) };
    const all = <T>(sql: string): T[] => s.get(sql).all(p) as T[];
    return scannedEntities(rows, {
      aliases: all(
        `SELECT entity_id AS entityId, alias, normalized FROM entity_aliases WHERE entity_id ${IDS_IN}
         ORDER BY recorded_at, alias`,
      ),
      mentions: all(
        `SELECT entity_id AS entityId, episode_id AS episodeId, time FROM entity_mentions WHERE entity_id ${IDS_IN}
         ORDER BY time, episode_id`,
      ),
      transitions: all(
        `SELECT entity_id AS entityId, id, kind, summary, episode_id AS episodeId, resolved_by AS resolvedBy
         FROM transitions WHERE entity_id ${IDS_IN} ORDER BY event_time, recorded_at, id`,
      ),
      facts: all<FactRow>(`${FACT_SELECT} WHERE entity_id ${IDS_IN} ORDER BY valid_from, recorded_at, id`).map(
        factFromRow,
      ),
      edges: all(
        `SELECT id, source_id, target_id, episode_id AS episodeId, discovered_by AS discoveredBy FROM relationships
         WHERE source_id ${IDS_IN} OR target_id ${IDS_IN} ORDER BY id`,
      ),
    });
  }

  return {
    episodesTitled(title) {
      return (
        s.get(`${EPISODE_SELECT} WHERE trim(title) = ? ORDER BY created_at, id`).all(title.trim()) as EpisodeRow[]
      ).map(toEpisode);
    },

    turnsContaining(text) {
      if (text.length === 0) return [];
      return s
        .get(
          `SELECT t.episode_id AS episodeId, t.seq, e.turn_count AS turnCount FROM turns t
           JOIN episodes e ON e.id = t.episode_id WHERE ${holdsText('t.text')} ORDER BY e.created_at, t.episode_id, t.seq`,
        )
        .all({ texts: JSON.stringify(text) }) as TurnMatch[];
    },

    scan(seeds) {
      const episodeIds = idsParam(seeds.episodeIds);
      const turnsParam = JSON.stringify(seeds.turns);
      const episodes = (
        s.get(`${EPISODE_SELECT} WHERE id ${IDS_IN} ORDER BY created_at, id`).all({
          ids: episodeIds,
        }) as EpisodeRow[]
      ).map(toEpisode);
      const partialIds = [...new Set(seeds.turns.map((t) => t.episodeId))].filter(
        (id) => !seeds.episodeIds.includes(id),
      );
      const partial = (
        s.get(`${EPISODE_SELECT} WHERE id ${IDS_IN} ORDER BY created_at, id`).all({
          ids: idsParam(partialIds),
        }) as EpisodeRow[]
      ).map(toEpisode);
      const turns = s
        .get(
          `SELECT episode_id AS episodeId, seq, text FROM turns
           WHERE episode_id ${IDS_IN} OR id IN ${TURNS_IN} ORDER BY episode_id, seq`,
        )
        .all({ ids: episodeIds, turns: turnsParam }) as ScannedTurn[];
      const text = textMatches(seeds.text);
      const owners = [
        ...seeds.entityIds,
        ...text.entities,
        ...text.aliases.map((a) => a.entityId),
        ...ids(`SELECT entity_id FROM transitions WHERE id ${IDS_IN}`, { ids: idsParam(text.transitions) }),
        ...ids(`SELECT entity_id FROM facts WHERE id ${IDS_IN}`, { ids: idsParam(text.facts) }),
      ];
      return {
        episodes,
        partial,
        turns,
        entities: entities([...new Set(owners)], seeds.episodeIds),
        text,
      };
    },

    foundOnlyIn({ phrases, inside }) {
      const turnIds = JSON.stringify(
        s.pluck(`SELECT id FROM turns WHERE id IN ${TURNS_IN}`).all({ turns: JSON.stringify(inside) }) as number[],
      );
      const outside = s.pluck(
        `SELECT 1 FROM turns_fts WHERE turns_fts MATCH @phrase AND rowid NOT IN (SELECT value FROM json_each(@ids)) LIMIT 1`,
      );
      const within = s.pluck(
        `SELECT 1 FROM turns_fts WHERE turns_fts MATCH @phrase AND rowid IN (SELECT value FROM json_each(@ids)) LIMIT 1`,
      );
      const out: { phrase: string; inside: boolean }[] = [];
      for (const text of new Set(phrases)) {
        const phrase = exactPhrase(text);
        if (phrase === null) continue;
        if (outside.get({ phrase, ids: turnIds }) !== undefined) continue;
        out.push({ phrase: text, inside: within.get({ phrase, ids: turnIds }) !== undefined });
      }
      return out;
    },
  };
}
