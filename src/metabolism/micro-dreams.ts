import { GENERIC_RELATIONSHIP, SELF_ID, type Relationship } from '../domain/world.js';

/**
 * Micro dreams (KIP sleep spec phase 10A, pie-paper §4.6): implicit connections. Two entities named together in at
 * least `minCoMentions` episodes up to the sleep's now, never linked by a relationship (an ended one counts), get a
 * RELATED_TO edge discovered by dreaming. Pure: the caller supplies the mentions per episode and the existing edges.
 */

export interface MicroDreamRules {
  minCoMentions: number;
  /** New connections per run at most (the strongest first). */
  maxPerRun: number;
  /** Episodes naming more entities than this are skipped (the pairs grow with the square of the count). */
  maxEntitiesPerEpisode: number;
}

export const DEFAULT_MICRO_DREAM_RULES: MicroDreamRules = {
  minCoMentions: 3,
  maxPerRun: 50,
  maxEntitiesPerEpisode: 40,
};

/** How many evidence episode ids a connection keeps. */
const EVIDENCE_KEPT = 5;

export interface EpisodeMentions {
  episodeId: string;
  time: number;
  entityIds: readonly string[];
}

export interface CoMention {
  /** The smaller id of the pair. */
  a: string;
  b: string;
  /** Shared episodes up to the sleep's now (none after it). */
  count: number;
  first: number;
  last: number;
  /** The first few episodes that name both, in the order seen. */
  episodes: string[];
}

export interface MicroDreamPlan {
  connections: CoMention[];
  /** Pairs that met the threshold, connected or not. */
  candidates: number;
  /** Pairs that met it but already have a relationship. */
  alreadyConnected: number;
  skippedEpisodes: number;
  /** Episodes after the sleep's now, left out: a sleep set in the past does not know them yet. */
  laterEpisodes: number;
}

/**
 * Whether an entity takes part in co-mention links: not a period (linked to what happened in it by DURING), not
 * protected (KIP's core schema) and not the user (SELF_ID), who is named in most episodes, so that a link from them
 * to whatever they talked about three times would say nothing. Pure.
 */
export function dreamEligible(node: { id: string; type: string; protected: boolean }): boolean {
  return node.type !== 'period' && !node.protected && node.id !== SELF_ID;
}

/** Confidence of a discovered edge: grows with the co-mentions, 0.67 at 3, capped at 0.9. */
export function connectionConfidence(count: number): number {
  return Math.round(Math.min(0.9, 1 - 1 / Math.max(1, count)) * 100) / 100;
}

export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/**
 * The pairs to link. Only episodes up to `now` (the sleep's clock) count: a sleep set in the past neither links nor
 * counts evidence from conversations after it, so what it records was known when it says it was.
 */
export function planMicroDreams(input: {
  episodes: Iterable<EpisodeMentions>;
  now: number;
  eligible: (entityId: string) => boolean;
  connected: ReadonlySet<string>;
  rules?: MicroDreamRules;
}): MicroDreamPlan {
  const rules = input.rules ?? DEFAULT_MICRO_DREAM_RULES;
  // Each episode's eligible entities once each, in id order, as numbers: a pair is then a number, not a string (a
  // large memory's episodes hold millions of pairs, most of them named together once).
  const numbers = new Map<string, number>();
  const ids: string[] = [];
  const lists: { episode: EpisodeMentions; members: number[] }[] = [];
  let skippedEpisodes = 0;
  let laterEpisodes = 0;
  for (const episode of input.episodes) {
    if (episode.time > input.now) {
      laterEpisodes += 1;
      continue;
    }
    const named = [...new Set(episode.entityIds)].filter(input.eligible).sort();
    if (named.length > rules.maxEntitiesPerEpisode) {
      skippedEpisodes += 1;
      continue;
    }
    const members = named.map((id) => {
      const known = numbers.get(id);
      if (known !== undefined) return known;
      numbers.set(id, ids.length);
      ids.push(id);
      return ids.length - 1;
    });
    lists.push({ episode, members });
  }
  const size = ids.length;
  // Every time two entities are named together as one number (the first's number × size + the second's: exact as a
  // double for up to 94 million entities), all of them sorted: a pair's times are then side by side and counted
  // without a map of the hundreds of thousands of pairs a large memory names together (most of them once).
  let total = 0;
  for (const { members } of lists) total += (members.length * (members.length - 1)) / 2;
  const together = new Float64Array(total);
  let n = 0;
  for (const { members } of lists) {
    for (let i = 0; i < members.length; i += 1) {
      for (let j = i + 1; j < members.length; j += 1)
        together[n++] = (members[i] as number) * size + (members[j] as number);
    }
  }
  together.sort();
  const enough = new Set<number>();
  for (let i = 0; i < total;) {
    let j = i + 1;
    while (j < total && together[j] === together[i]) j += 1;
    if (j - i >= rules.minCoMentions) enough.add(together[i] as number);
    i = j;
  }
  // Only the pairs that reach the threshold are followed episode by episode.
  const pairs = new Map<number, CoMention>();
  for (const { episode, members } of lists) {
    for (let i = 0; i < members.length; i += 1) {
      for (let j = i + 1; j < members.length; j += 1) {
        const key = (members[i] as number) * size + (members[j] as number);
        if (!enough.has(key)) continue;
        const p = pairs.get(key);
        if (p === undefined) {
          const [a = '', b = ''] = [ids[members[i] as number], ids[members[j] as number]];
          const time = episode.time;
          pairs.set(key, { a, b, count: 1, first: time, last: time, episodes: [episode.episodeId] });
          continue;
        }
        p.count += 1;
        p.first = Math.min(p.first, episode.time);
        p.last = Math.max(p.last, episode.time);
        if (p.episodes.length < EVIDENCE_KEPT) p.episodes.push(episode.episodeId);
      }
    }
  }
  const strong = [...pairs.values()];
  const open = strong.filter((p) => !input.connected.has(pairKey(p.a, p.b)));
  open.sort((x, y) => y.count - x.count || (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0));
  return {
    connections: open.slice(0, rules.maxPerRun),
    candidates: strong.length,
    alreadyConnected: strong.length - open.length,
    skippedEpisodes,
    laterEpisodes,
  };
}

export const MICRO_DREAM = 'micro-dream';

/**
 * The edge a sleep records for a pair: valid from the sleep's now, when the memory learned the link, not from the
 * conversations that evidence it. It is an inference, and a snapshot of an earlier day replays what was known then:
 * a sleep changes no snapshot of the past (dated at the threshold's episode, a sleep's link had joined every
 * snapshot after it with a count and confidence from later conversations). Pure.
 */
export function dreamtLink(input: { pair: CoMention; id: string; now: number }): Relationship {
  const { pair, now } = input;
  return {
    id: input.id,
    type: GENERIC_RELATIONSHIP,
    sourceId: pair.a,
    targetId: pair.b,
    properties: { coMentions: pair.count, evidenceEpisodes: pair.episodes.join(', ') },
    validFrom: now,
    validTo: null,
    confidence: connectionConfidence(pair.count),
    episodeId: pair.episodes[0] ?? null,
    recordedAt: now,
    discoveredBy: MICRO_DREAM,
  };
}
