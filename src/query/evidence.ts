import type { Episode, StoredTurn } from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import { questionAlternatives } from './alternatives.js';
import { questionInterval, type IntervalEnd, type IntervalQuestion } from './interval.js';
import { keyCoverage, keysPresent, keyWeights, matchKeys, presentCoverage, questionKeywords } from './keywords.js';
import { rankTurnsInContext } from './lanes/turn-context.js';
import type { QueryPlan, RankedItem } from './types.js';

/**
 * Evidence turns for the compiled context (docs/query.md "Evidence"): the raw turns that may hold the answer, best
 * first, deep enough to fill any token budget. The fused retrieval's own turn hits lead (its lanes agree on them);
 * then every turn the question's words match, ranked in its conversation (a turn gains a share of its neighbours'
 * scores, so the reply to a matching question enters too); then the turns of conversations the fused items point
 * to through an episode or a change but no matching turn; then the other turns of the conversations already
 * chosen and of those the world model's part cites; last, the latest conversations before now. Turns inside a time
 * range the question names move up.
 */
export interface EvidenceTurn {
  episode: Episode;
  turn: StoredTurn;
  /** Position in the ranking, 0 = best. */
  rank: number;
}

/** The ranked evidence turns and every turn of their conversations (for the neighbours the compiler shows). */
export interface Evidence {
  turns: EvidenceTurn[];
  conversations: Map<string, StoredTurn[]>;
  /** Every conversation read while ranking, by id (a caller needing their titles and times need not read them again). */
  episodes: ReadonlyMap<string, Episode>;
  /** The time between things the question asks for, with the best-matching turn of each end found (interval.ts). */
  interval?: { question: IntervalQuestion; anchors: IntervalAnchor[] };
}

/** An end of the interval a question asks for and the turn that best matches it. */
export interface IntervalAnchor {
  end: IntervalEnd;
  episode: Episode;
  turn: StoredTurn;
}

/**
 * The least share of an interval end's words the turn that dates it must have: a turn with fewer is likely about
 * something else ("the backend" said when a co-founder joined is not "moving the backend to Supabase"), and a span
 * computed from it would be confidently wrong, so that end gets no turn and the context no span line.
 */
export const ANCHOR_COVERAGE = 0.5;

/** Conversations of the question's time span read as evidence (the first ones of the span). */
export const SPAN_EPISODES = 20;

/** The span the question's non-vague time references cover ("recently" narrows nothing), or none. */
function definiteSpan(plan: QueryPlan): { start: number; end: number } | null {
  const ranges = plan.timeRanges.filter((r) => r.kind !== 'vague');
  if (ranges.length === 0) return null;
  return { start: Math.min(...ranges.map((r) => r.start)), end: Math.max(...ranges.map((r) => r.end)) };
}

/** Recent conversations read to fill what the evidence leaves of a budget. */
export const RECENT_FILL = 30;

/** Matching turns fetched from the full-text index per question, at most: enough for an 8k-token context. */
export const EVIDENCE_POOL = 400;

/** Matching turns worth fetching for a budget: about one per 20 tokens (a short turn), 100 to EVIDENCE_POOL. */
export function evidencePool(maxTokens: number): number {
  return Math.min(EVIDENCE_POOL, Math.max(100, Math.ceil(maxTokens / 20)));
}

/**
 * An AI assistant's turn weighs this much unless the question asks what it said: its replies repeat the user's words
 * at length ("your postcard collection…") while the facts about the user are in the user's own turns.
 */
export const ASSISTANT_WEIGHT = 0.5;

/** A turn written by an AI assistant (not a person: two-person chats name both speakers). */
export function isAssistantText(turn: Pick<StoredTurn, 'role' | 'speaker'>): boolean {
  return turn.role === 'assistant' && turn.speaker === null;
}

/** How much a turn's BM25 score (relative to the best of its search) adds to the share of question words it has. */
export const BM25_SHARE = 0.6;

/** A turn that matches only a named person's name and is said by someone else weighs this much (see rankEvidence). */
export const NAME_ONLY_WEIGHT = 0.3;

/** A turn spoken by a person the question names weighs this much more than its words alone (their own words). */
export const SPEAKER_WEIGHT = 1.5;

export async function rankEvidence(input: {
  store: WorldStore;
  plan: QueryPlan;
  items: readonly RankedItem[];
  /** Conversations the world model's part of the context cites (their turns come last, to fill a large budget). */
  cited?: readonly string[];
  /** The question asks what the assistant said; otherwise an assistant's turns weigh ASSISTANT_WEIGHT. */
  assistantWanted?: boolean;
  pool?: number;
  /** The question's "now": the recent conversations that fill a large budget are those before it. */
  now: number;
}): Promise<Evidence> {
  const { store, plan, items } = input;
  const cache = createTurnCache(store);
  const order: { episodeId: string; seq: number }[] = [];
  const seen = new Set<string>();
  const push = (episodeId: string, seq: number): void => {
    const key = `${episodeId}#${seq}`;
    if (seen.has(key)) return;
    seen.add(key);
    order.push({ episodeId, seq });
  };
  const timeTexts = plan.timeRanges.map((r) => r.text);
  const words = questionKeywords(plan.question, timeTexts);
  const pool = input.pool ?? EVIDENCE_POOL;
  const weak: { episodeId: string; seq: number }[] = [];
  const interval = questionInterval(plan.question, timeTexts);
  let anchorRefs: ({ episodeId: string; seq: number } | undefined)[] = [];
  if (words.length > 0) {
    // The turns' own text is read below: their snippets are not needed.
    const everyWord = await store.search.turns({ text: words.join(' '), limit: pool, mode: 'fill', snippets: false });
    await cache.load(everyWord.map((h) => h.episodeId));
    // People who speak in the history are named in nearly every turn addressed to them ("Thanks, Melanie!"):
    // their names rank the other person's turns. Search without them first, weighing the named people's own
    // turns; the turns the names match come after (they still fill a large budget).
    const speakers = cache.speakers();
    const named = new Set(words.map((w) => w.toLowerCase()).filter((w) => speakers.has(w)));
    const rest = words.filter((w) => !named.has(w.toLowerCase()));
    // Without names the search for every word is the strong list; with names, the search without them is, and
    // the turns only the names matched are a weak list that comes after the conversations of the question's time.
    let searches = [everyWord];
    if (named.size > 0) {
      const hits =
        rest.length > 0
          ? await store.search.turns({ text: rest.join(' '), limit: pool, mode: 'fill', snippets: false })
          : [];
      await cache.load(hits.map((h) => h.episodeId));
      searches = [hits, everyWord];
    }
    const keys = matchKeys(words);
    // The ends of the interval the question asks for, without a speaker's name: "Maria adopting Coco" is said in
    // Maria's own turn without her name, which is in the turns addressed to her.
    const names = new Set(matchKeys([...named]));
    const ends = (interval?.ends ?? []).map((e) => {
      const unnamed = e.keys.filter((k) => !names.has(k));
      return unnamed.length > 0 ? unnamed : e.keys;
    });
    // A choice question's options, else the interval's ends: each one's best turn leads.
    const choice = questionAlternatives(plan.question, timeTexts);
    const alternatives = choice.length > 0 ? choice : ends;
    const restKeys = matchKeys(rest);
    // Each turn's words are read once: for the weights, then for the coverage of the turns the searches found
    // (restKeys are some of keys).
    const keysOf = memoKeys(keys);
    // A word said in most turns ("like", a speaker's name) weighs less than the one the question is about.
    const weights = keyWeights(
      keys,
      cache.allTurns().map((t) => t.text),
      keysOf,
    );
    for (const [i, hits] of searches.entries()) {
      const best = Math.max(1e-9, ...hits.map((h) => -h.score));
      const ranked = rankTurnsInContext({
        matched: hits.map((h) => {
          const turn = cache.turn(h.episodeId, h.seq);
          const text = turn?.text ?? '';
          const speaker = turn?.speaker?.toLowerCase().split(/\s+/)[0];
          const own = speaker !== undefined && named.has(speaker);
          // A turn found only by a named person's name, said by someone else, mostly addresses them ("Thanks,
          // Melanie!"): it weighs less than that person's own turn beside it, which it brings in.
          const nameOnly = named.size > 0 && !own && presentCoverage(keysOf(text), restKeys) === 0;
          const weight =
            (own ? SPEAKER_WEIGHT : 1) *
            (nameOnly ? NAME_ONLY_WEIGHT : 1) *
            (turn && isAssistantText(turn) && !input.assistantWanted ? ASSISTANT_WEIGHT : 1);
          // The share of the question's words a turn has leads; BM25 (comparable only within one search tier)
          // orders turns that have as many.
          const score = presentCoverage(keysOf(text), keys, weights) + BM25_SHARE * (-h.score / best);
          return { episodeId: h.episodeId, seq: h.seq, score: score * weight, time: h.time ?? h.episodeTime };
        }),
        turnCount: (id) => cache.episode(id)?.turnCount,
      });
      const latest = LATEST_ASKED.test(plan.question) ? latestFirst(ranked, LATEST_BONUS) : ranked;
      const textOf = (t: { episodeId: string; seq: number }) => cache.turn(t.episodeId, t.seq)?.text;
      if (i === 0) {
        for (const t of eachOptionFirst(latest, alternatives, textOf)) push(t.episodeId, t.seq);
        anchorRefs = optionLeads(latest, ends, textOf, ANCHOR_COVERAGE).map((at) =>
          at === undefined ? undefined : latest[at],
        );
      } else weak.push(...ranked);
    }
  }
  // The conversations of the time the question names are evidence even where no word matches ("Where was John
  // between August 11 and 15?"): their turns come next, and the time span moves them up below.
  const span = definiteSpan(plan);
  if (span) {
    const during = await store.episodes.list({ since: span.start, until: span.end, limit: SPAN_EPISODES });
    await cache.load(during.map((e) => e.id));
    for (const e of during) for (const t of cache.turns(e.id)) push(e.id, t.seq);
  }
  for (const t of weak) push(t.episodeId, t.seq);
  // Turns other lanes found (vectors), then conversations the fused items name without a matching turn.
  for (const item of items) if (item.ref.kind === 'turn') push(item.ref.episodeId, item.ref.seq);
  const pointed = await pointedEpisodes(store, items);
  await cache.load([...order.map((o) => o.episodeId), ...pointed]);
  for (const id of pointed) for (const t of cache.turns(id)) push(id, t.seq);
  // Then the rest of the conversations the evidence comes from (best first), then those the world part cites:
  // what is around a match is the next best thing to another match.
  const sources = [...new Set([...order.map((o) => o.episodeId), ...(input.cited ?? [])])];
  await cache.load(sources);
  for (const id of sources) for (const t of cache.turns(id)) push(id, t.seq);
  // Last, the latest conversations before now that nothing above reached: a caller who asks for a large budget gets
  // the recent history rather than a context that stops short (bounded: RECENT_FILL conversations).
  const fillFrom = order.length;
  const recent = (await store.episodes.list({ until: input.now + 1, order: 'desc', limit: RECENT_FILL })).map(
    (e) => e.id,
  );
  await cache.load(recent);
  for (const id of recent) for (const t of cache.turns(id)) push(id, t.seq);

  const load = (list: readonly { episodeId: string; seq: number }[]): EvidenceTurn[] =>
    list.flatMap((o, rank) => {
      const episode = cache.episode(o.episodeId);
      const turn = cache.turn(o.episodeId, o.seq);
      return episode && turn ? [{ episode, turn, rank }] : [];
    });
  // The question's time span reorders what was found for it, not the recent history that only fills the budget.
  const found = preferRange(load(order.slice(0, fillFrom)), plan);
  const out = [...found, ...load(order.slice(fillFrom))].map((t, rank) => ({ ...t, rank }));
  const conversations = new Map(out.map((e) => [e.episode.id, cache.turns(e.episode.id)]));
  const episodes = cache.episodes();
  if (!interval) return { turns: out, conversations, episodes };
  const anchors = interval.ends.flatMap((end, i): IntervalAnchor[] => {
    const ref = anchorRefs[i];
    const episode = ref && cache.episode(ref.episodeId);
    const turn = ref && cache.turn(ref.episodeId, ref.seq);
    return episode && turn ? [{ end, episode, turn }] : [];
  });
  return { turns: out, conversations, episodes, interval: { question: interval, anchors } };
}

/**
 * How much more the latest matching turn weighs than the earliest when the question says it wants what holds now or
 * last (LATEST_ASKED): where several conversations say it, the last said is the current one ("How many followers
 * do I currently have?" after 500, then 600).
 */
export const LATEST_BONUS = 0.2;

/** Words by which a question asks for what holds now, or for the last time something happened. */
export const LATEST_ASKED =
  /\b(currently|current|right now|at the moment|these days|nowadays|latest|most recent(ly)?|last time|still|now|so far|anymore)\b/i;

/** Scores raised by up to `bonus` of themselves, in proportion to how late the turn is among them; re-sorted. Pure. */
export function latestFirst<T extends { score: number; time: number | null }>(turns: readonly T[], bonus: number): T[] {
  const times = turns.flatMap((t) => (t.time === null ? [] : [t.time]));
  const first = Math.min(...times);
  const span = Math.max(...times) - first;
  if (!(span > 0) || bonus === 0) return [...turns];
  return turns
    .map((t, order) => ({ t, order, key: t.score * (1 + (bonus * ((t.time ?? first) - first)) / span) }))
    .sort((a, b) => b.key - a.key || a.order - b.order)
    .map((x) => x.t);
}

/**
 * A choice question ("which did I set up first, the thermostat or the mesh network?") is answered by seeing every
 * option: the best-ranked turn that has the most of each option's words leads, in ranked order, so turns about the
 * option with more matching words do not crowd out the other. Without options (or a turn for one), the ranking as
 * it is. Pure.
 */
export function eachOptionFirst<T>(
  ranked: readonly T[],
  options: readonly (readonly string[])[],
  textOf: (t: T) => string | undefined,
): T[] {
  if (options.length === 0) return [...ranked];
  const lead = new Set(optionLeads(ranked, options, textOf).filter((i) => i !== undefined));
  const first = [...lead].sort((a, b) => a - b);
  return [...first.map((i) => ranked[i] as T), ...ranked.filter((_, i) => !lead.has(i))];
}

/**
 * Per option, the position of the best-ranked turn that has the most of its words (undefined when no turn has any,
 * or none has `minCoverage` of them). Pure.
 */
export function optionLeads<T>(
  ranked: readonly T[],
  options: readonly (readonly string[])[],
  textOf: (t: T) => string | undefined,
  /** The least share of an option's words its turn must have (below it, none is chosen). */
  minCoverage = 0,
): (number | undefined)[] {
  return options.map((keys) => {
    let best: number | undefined;
    let bestCoverage = minCoverage === 0 ? 0 : minCoverage - 1e-9;
    for (const [i, t] of ranked.entries()) {
      const coverage = keyCoverage(textOf(t) ?? '', keys);
      if (coverage > bestCoverage) [best, bestCoverage] = [i, coverage];
      if (coverage === 1) break;
    }
    return best;
  });
}

/** Which of the question's keys a text has (keysPresent), remembered per text for one question. */
function memoKeys(keys: readonly string[]): (text: string) => ReadonlySet<string> {
  const known = new Map<string, ReadonlySet<string>>();
  return (text) => {
    let present = known.get(text);
    if (!present) {
      present = keysPresent(text, keys);
      known.set(text, present);
    }
    return present;
  };
}

/** Episodes and their turns, loaded once per question. */
function createTurnCache(store: WorldStore) {
  const episodes = new Map<string, Episode>();
  const turns = new Map<string, StoredTurn[]>();
  return {
    async load(ids: readonly string[]): Promise<void> {
      const missing = [...new Set(ids)].filter((id) => !episodes.has(id));
      const found = await store.episodes.getMany(missing);
      const loaded = await store.episodes.turnsOfMany(found.map((e) => e.id));
      for (const e of found) {
        episodes.set(e.id, e);
        turns.set(e.id, loaded.get(e.id) ?? []);
      }
    },
    episode: (id: string) => episodes.get(id),
    /** Every episode loaded so far. */
    episodes: (): ReadonlyMap<string, Episode> => episodes,
    turns: (id: string) => turns.get(id) ?? [],
    turn: (id: string, seq: number) => {
      const list = turns.get(id) ?? [];
      return list[seq]?.seq === seq ? list[seq] : list.find((t) => t.seq === seq);
    },
    /** Every loaded turn. */
    allTurns: (): StoredTurn[] => [...turns.values()].flat(),
    /** First names of everyone who speaks in the loaded conversations, lower case. */
    speakers(): Set<string> {
      const out = new Set<string>();
      for (const list of turns.values()) {
        for (const t of list) if (t.speaker) out.add(t.speaker.toLowerCase().split(/\s+/)[0] ?? '');
      }
      out.delete('');
      return out;
    },
  };
}

/** Episodes a fused episode or transition item points to, in fused order. */
async function pointedEpisodes(store: WorldStore, items: readonly RankedItem[]): Promise<string[]> {
  const transitionIds = items.flatMap((i) => (i.ref.kind === 'transition' ? [i.ref.id] : []));
  const episodeOf = new Map((await store.transitions.getMany(transitionIds)).map((t) => [t.id, t.episodeId]));
  const out: string[] = [];
  for (const item of items) {
    const id =
      item.ref.kind === 'episode' ? item.ref.id : item.ref.kind === 'transition' ? episodeOf.get(item.ref.id) : null;
    if (id && !out.includes(id)) out.push(id);
  }
  return out;
}

/** A time the turn happened: its own, else its conversation's. */
export function turnTime(e: EvidenceTurn): number {
  return e.turn.time ?? e.episode.createdAt;
}

/**
 * How much better a turn inside the question's time span ranks: its position counts this fraction of itself, and a
 * turn outside counts one place more than its own.
 */
export const IN_RANGE_RANK = 1 / 3;

/**
 * Turns inside the question's time span move up (their rank counts a third), so "what did she do in May" shows May's
 * turns first, while a strong match just outside the span (a relative time said the day after, a range read too
 * narrowly) still comes before weak matches inside it. A vague time ("recently") narrows nothing.
 */
function preferRange(turns: EvidenceTurn[], plan: QueryPlan): EvidenceTurn[] {
  const span = definiteSpan(plan);
  if (!span) return turns;
  const inside = (t: EvidenceTurn) => turnTime(t) >= span.start && turnTime(t) < span.end;
  return turns
    .map((t) => ({ t, key: inside(t) ? t.rank * IN_RANGE_RANK : t.rank + 1 }))
    .sort((a, b) => a.key - b.key || a.t.rank - b.t.rank)
    .map((x, rank) => ({ ...x.t, rank }));
}
