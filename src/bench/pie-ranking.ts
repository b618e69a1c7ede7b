import type { QueryContext } from '../query/ask.js';
import type { WorldStore } from '../ports/world-store.js';
import { unique, type Ranking } from './chunks.js';
import type { BenchWorld } from './world.js';

/** What the mapping reads of a world: its store and how its turns and episodes are named in the benchmark. */
export type RankedWorld = Pick<BenchWorld, 'store' | 'turnIdOf' | 'sessionOf'>;

/** Episodes an entity hit stands for: the latest its context block cites, at most this many. */
export const ENTITY_EPISODES = 2;

/**
 * PIE's fused retrieval (QueryContext.items, best first) mapped back to the benchmark's units (docs/evaluation.md):
 * - turn level (LoCoMo dia_ids): a turn hit is its own turn; an episode, transition or entity hit stands for the
 *   turns of its episode that the compiled context shows as excerpts (nothing when it shows none), so PIE gets no
 *   credit for turns it would not put in front of the model;
 * - session level: a turn or episode hit is its episode; a transition hit is the episode it was extracted from; an
 *   entity hit is the conversations its block in the context cites (its shown changes, latest first, then its
 *   relationships), at most ENTITY_EPISODES; an entity the context does not show stands for nothing.
 */
export async function pieRanking(input: { world: RankedWorld; context: QueryContext }): Promise<Ranking> {
  return (await pieRankings(input)).all;
}

/**
 * Both readings of PIE's items: `all` (the mapping above) and `turnsOnly` (only the turn hits, in fused order, and
 * their sessions), which separates how well PIE finds the evidence from how its fusion ranks abstractions.
 */
export async function pieRankings(input: {
  world: RankedWorld;
  context: QueryContext;
}): Promise<{ all: Ranking; turnsOnly: Ranking }> {
  const { world, context } = input;
  const store: WorldStore = world.store;
  const excerptTurns = new Map<string, number[]>();
  for (const ex of context.subgraph.excerpts)
    excerptTurns.set(
      ex.episode.id,
      ex.lines.map((l) => l.seq),
    );
  const transitionIds = context.items.flatMap((i) => (i.ref.kind === 'transition' ? [i.ref.id] : []));
  const transitionEpisode = new Map(
    (await store.transitions.getMany(transitionIds)).map((t) => [t.id, t.episodeId] as const),
  );
  // An entity's block in the context cites the conversations its shown changes and relationships come from.
  const citedBy = new Map(
    context.subgraph.entities.map((b) => [
      b.entity.id,
      unique(
        [
          ...[...b.transitions].sort((x, y) => y.eventTime - x.eventTime).map((t) => t.episodeId),
          ...b.relationships.map((r) => r.relationship.episodeId),
        ].filter((e): e is string => typeof e === 'string'),
      ).slice(0, ENTITY_EPISODES),
    ]),
  );
  const turns: string[] = [];
  const episodes: string[] = [];
  const hitTurns: string[] = [];
  const hitEpisodes: string[] = [];
  const fromEpisode = (episodeId: string | null | undefined): void => {
    if (!episodeId) return;
    episodes.push(episodeId);
    for (const seq of excerptTurns.get(episodeId) ?? []) pushTurn(episodeId, seq);
  };
  const pushTurn = (episodeId: string, seq: number): void => {
    const id = world.turnIdOf.get(`${episodeId}#${seq}`);
    if (id) turns.push(id);
  };
  for (const item of context.items) {
    const ref = item.ref;
    if (ref.kind === 'turn') {
      pushTurn(ref.episodeId, ref.seq);
      episodes.push(ref.episodeId);
      const id = world.turnIdOf.get(`${ref.episodeId}#${ref.seq}`);
      if (id) hitTurns.push(id);
      hitEpisodes.push(ref.episodeId);
    } else if (ref.kind === 'episode') fromEpisode(ref.id);
    else if (ref.kind === 'transition') fromEpisode(transitionEpisode.get(ref.id));
    else for (const e of citedBy.get(ref.id) ?? []) fromEpisode(e);
  }
  const sessions = (ids: string[]): string[] => unique(ids.flatMap((e) => world.sessionOf.get(e) ?? []));
  return {
    all: { turns: unique(turns), sessions: sessions(episodes) },
    turnsOnly: { turns: unique(hitTurns), sessions: sessions(hitEpisodes) },
  };
}
