import type { Episode, StoredTurn } from '../domain/world.js';
import type { Tokenizer } from '../ports/tokenizer.js';
import { isAssistantText } from '../query/evidence.js';
import type { Excerpt } from '../query/types.js';
import { truncateToTokens } from './budget.js';
import { longDate, when, type TimeContext } from './time-format.js';
import { annotateRelativeTimes } from './turn-times.js';

/** A ranked evidence turn with its conversation (see query/evidence.ts). */
export interface EvidenceCandidate {
  episode: Episode;
  turn: StoredTurn;
}

export interface EvidenceOptions {
  candidates: readonly EvidenceCandidate[];
  /** All turns of a conversation, in order (for the neighbouring turn that carries an answer). */
  turnsOf: (episodeId: string) => readonly StoredTurn[];
  /** Tokens the evidence section may use, its title included. */
  limit: number;
  tokenizer: Tokenizer;
  time: TimeContext;
  /** The question's search words: a turn too long to show whole is cut to the sentences holding them. */
  keywords: readonly string[];
  /** The question asks what the assistant said: assistant turns are shown as whole as user turns. */
  assistantWanted: boolean;
  /** The citation number of a conversation (registers it as a source). */
  cite: (episodeId: string) => string;
  /** Fill room the ranked turns leave from their conversations (default true; see `widen`). */
  fill?: boolean;
}

export interface EvidenceSection {
  lines: string[];
  /** What was shown, per conversation (for provenance and the benchmarks' mapping). */
  excerpts: Excerpt[];
  tokens: number;
}

const TITLE = 'From the conversations (whole turns; relative times resolved in [brackets]):';
/** A reply this short needs the turn it answers to be understood ("Yes, last week!"). */
const SHORT_REPLY_WORDS = 8;
/** Room (tokens) worth filling with a cut turn once no whole turn fits. */
const MIN_CUT_TOKENS = 24;
/** The share of the evidence budget an assistant's turn may take whole when the question asks what it said. */
const ASSISTANT_TURN_SHARE = 0.6;
/** Stop looking once this many candidates in a row did not fit. */
const MISSES_BEFORE_STOP = 25;

/**
 * The evidence section of a compiled context (DESIGN.md §4, docs/query.md "Evidence"): turns are taken best first
 * while they fit the budget — whole, dated, with the speaker, relative times resolved, and with the turn that
 * carries the answer next to them (the reply to a question, the question a short reply answers) — then written
 * grouped by conversation in time order, "…" marking skipped turns. A turn longer than a quarter of the budget (or an
 * assistant's turn the question does not ask about, past 120 tokens) is cut to its sentences that hold the
 * question's words. Each line is counted high (with a "…" it may not need); the section is then counted as written
 * and the room that frees is taken the same way, so the budget is filled. Never exceeds `limit`. Pure.
 */
export function compileEvidence(input: EvidenceOptions): EvidenceSection {
  const { tokenizer, limit } = input;
  const title = tokenizer.count(TITLE) + 2;
  if (input.candidates.length === 0 || limit <= title + 20) return { lines: [], excerpts: [], tokens: 0 };
  let used = title;
  const picked: Picked = new Map();
  const headers = new Map<string, number>();
  let misses = 0;
  const cap = Math.max(150, Math.floor(limit / 4));
  // What the assistant said is asked for: its reply is the answer, and the detail asked about is rarely in the
  // sentences that repeat the question's words, so its turns may take more of the budget whole.
  const capOf = (turn: StoredTurn): number =>
    input.assistantWanted && isAssistantText(turn) ? Math.max(cap, Math.floor(limit * ASSISTANT_TURN_SHARE)) : cap;
  /** Turns shown cut (to their best sentences, or an assistant's aside), with the tokens their line costs. */
  const cut = new Map<string, { turn: StoredTurn; tokens: number }>();

  const tryTake = (episode: Episode, turn: StoredTurn, given?: Line): boolean => {
    const group = picked.get(episode.id);
    if (group?.lines.has(turn.seq)) return true;
    const { text: line, tokens, whole } = given ?? turnLine({ ...input, episode, turn, cap: capOf(turn) });
    // A line, its newline, and the "…" that may separate it from the turns around it.
    let cost = tokens + 3;
    if (!group) cost += headers.get(episode.id) ?? headerCost(input, episode, headers);
    if (used + cost > limit) return false;
    used += cost;
    const g = group ?? { episode, lines: new Map<number, string>() };
    g.lines.set(turn.seq, line);
    if (!whole) cut.set(`${episode.id}#${turn.seq}`, { turn, tokens });
    picked.set(episode.id, g);
    return true;
  };

  /**
   * When the ranked turns are all shown and leave room, the conversations they came from fill it (a question's neighbouring turns
   * often hold the rest of its answer, and a budget the caller gave is there to be used): first the turns shown cut
   * are shown whole (an assistant's reply included), then the other turns of those conversations, nearest to a
   * shown turn first, conversations in the order their first turn ranked. A turn longer than a quarter of the budget
   * stays cut.
   */
  const widen = (): void => {
    const options = { ...input, assistantWanted: true };
    /** Each turn shown cut, in the order taken, gets the line `lineOf` makes where `better` takes it and it fits. */
    const regrow = (
      lineOf: (episode: Episode, shown: { turn: StoredTurn; tokens: number }, room: number) => Line,
      better: (line: Line, shown: { tokens: number }) => boolean,
    ): void => {
      for (const g of picked.values()) {
        for (const seq of [...g.lines.keys()]) {
          const key = `${g.episode.id}#${seq}`;
          const shown = cut.get(key);
          const room = limit - used;
          if (!shown || room < MIN_CUT_TOKENS) continue;
          const line = lineOf(g.episode, shown, room);
          if (!better(line, shown) || used + line.tokens - shown.tokens > limit) continue;
          used += line.tokens - shown.tokens;
          g.lines.set(seq, line.text);
          if (line.whole) cut.delete(key);
          else cut.set(key, { turn: shown.turn, tokens: line.tokens });
        }
      }
    };
    regrow(
      (episode, shown) => turnLine({ ...options, episode, turn: shown.turn, cap }),
      (line) => line.whole === true,
    );
    for (const g of [...picked.values()]) {
      const shown = [...g.lines.keys()];
      const rest = input
        .turnsOf(g.episode.id)
        .filter((t) => !g.lines.has(t.seq))
        .map((t) => ({ t, distance: Math.min(...shown.map((seq) => Math.abs(seq - t.seq))) }))
        .sort((a, b) => a.distance - b.distance || a.t.seq - b.t.seq);
      for (const { t } of rest) {
        if (limit - used < MIN_CUT_TOKENS) return;
        tryTake(g.episode, t, turnLine({ ...options, episode: g.episode, turn: t, cap }));
      }
    }
    // Room still left with every turn of these conversations shown: the turns still cut (each longer than a quarter
    // of the budget) show more of their sentences, those after the ones that hold the question's words in the order
    // written, turn by turn in the order they were taken, each up to the room left.
    regrow(
      (episode, shown, room) =>
        turnLine({ ...options, episode, turn: shown.turn, cap: shown.tokens + room - 4, fill: true }),
      (line, shown) => line.tokens > shown.tokens,
    );
  };

  /** The turns that carry `turn`'s meaning (carriers), taken where they fit; an assistant's only when asked for. */
  const withCarriers = (episode: Episode, turn: StoredTurn): void => {
    for (const n of carriers(turn, input.turnsOf(episode.id))) {
      if (input.assistantWanted || !isAssistantText(n)) tryTake(episode, n);
    }
  };

  const takeRanked = (): void => {
    misses = 0;
    for (const { episode, turn } of input.candidates) {
      if (limit - used < MIN_CUT_TOKENS) break;
      // Shown already (another turn's reply): its own carriers still come with it when it ranks.
      if (picked.get(episode.id)?.lines.has(turn.seq)) {
        withCarriers(episode, turn);
        continue;
      }
      if (!tryTake(episode, turn)) {
        if (++misses >= MISSES_BEFORE_STOP) break;
        continue;
      }
      misses = 0;
      withCarriers(episode, turn);
    }
  };
  for (let round = 0; ; round++) {
    takeRanked();
    // Only once every ranked turn is shown: while some did not fit, the room left goes to the best of them, cut.
    const allShown = input.candidates.every((c) => picked.get(c.episode.id)?.lines.has(c.turn.seq));
    if (input.fill !== false && allShown) widen();
    // Each line was counted with a "…" line it may not need: what is written costs less. Counted as written (the
    // citations as wide as WIDEST_CITATION), the room that frees is taken the same way, for at most RECOUNTS rounds.
    const written = tokenizer.count(sectionLines(input, picked, () => WIDEST_CITATION).join('\n')) + 1;
    const freed = used - written;
    if (freed <= 0) break;
    used = written;
    if (freed < MIN_CUT_TOKENS || round + 1 >= RECOUNTS) break;
  }
  // What is left is too small for any whole turn: the best turn not shown, cut to the room left.
  const rest = input.candidates.find((c) => !picked.get(c.episode.id)?.lines.has(c.turn.seq));
  const room = limit - used - 3 - (rest && !picked.has(rest.episode.id) ? headerCost(input, rest.episode, headers) : 0);
  if (rest && room >= MIN_CUT_TOKENS) {
    const line = turnLine({ ...input, episode: rest.episode, turn: rest.turn, cap: room - 8 });
    const cut = `${truncateToTokens({ text: line.text, limit: room - 2, tokenizer })} …`;
    tryTake(rest.episode, rest.turn, line.tokens <= room ? line : { text: cut, tokens: tokenizer.count(cut) });
  }
  return render(input, picked, used);
}

/**
 * A conversation's citation as counted before it is numbered: as many tokens as any number up to 999 ("[1]" and
 * "[999]" are both three in o200k), so a count made with it is never short.
 */
const WIDEST_CITATION = '[999]';

/** Rounds of recounting the written section to take the room its high line counts left (see compileEvidence). */
const RECOUNTS = 3;

/**
 * Tokens the evidence section would take to show every conversation its candidates come from whole (turns as
 * written, one line each, a header per conversation); `Infinity` as soon as a cheap estimate passes `ceiling`, so a
 * long history costs no exact count.
 */
export function wholeEvidenceTokens(
  input: Pick<EvidenceOptions, 'candidates' | 'turnsOf' | 'tokenizer'>,
  ceiling: number,
): number {
  const ids = [...new Set(input.candidates.map((c) => c.episode.id))];
  const turns = ids.map((id) => input.turnsOf(id));
  const chars = turns.flat().reduce((n, t) => n + t.text.length + 16, 0);
  if (chars / 5 > ceiling) return Number.POSITIVE_INFINITY;
  // The title, and per conversation its header line (about 20 tokens).
  let tokens = input.tokenizer.count(TITLE) + 2 + ids.length * 20;
  for (const t of turns.flat()) tokens += input.tokenizer.count(`    ${t.speaker ?? 'Assistant'}: ${t.text}`) + 1;
  return tokens > ceiling ? Number.POSITIVE_INFINITY : tokens;
}

function headerCost(input: EvidenceOptions, episode: Episode, cache: Map<string, number>): number {
  const cost = input.tokenizer.count(headerLine(input, episode, WIDEST_CITATION)) + 1;
  cache.set(episode.id, cost);
  return cost;
}

function headerLine(input: EvidenceOptions, episode: Episode, citation: string): string {
  return `  • “${episode.title}”, ${when(input.time, episode.createdAt)} ${citation}`;
}

/**
 * The neighbouring turns that carry a turn's meaning: the answer to a question (asked anywhere in the turn, as chat
 * does: "Wow! What's it about? Glad it's done!"), the question a short reply answers.
 */
function carriers(turn: StoredTurn, turns: readonly StoredTurn[]): StoredTurn[] {
  const out: StoredTurn[] = [];
  const next = turns.find((t) => t.seq === turn.seq + 1);
  const prev = turns.find((t) => t.seq === turn.seq - 1);
  if (next && /\?(\s|$)/.test(turn.text.trim())) out.push(next);
  if (prev && turn.text.split(/\s+/).length <= SHORT_REPLY_WORDS) out.push(prev);
  return out;
}

/** A rendered line and its token count. */
interface Line {
  text: string;
  tokens: number;
  /** False when the turn was cut to fit its cap. */
  whole?: boolean;
}

/** A turn's line; counted once, and a second time only when it had to be cut to its best sentences. */
function turnLine(input: EvidenceOptions & { episode: Episode; turn: StoredTurn; cap: number; fill?: boolean }): Line {
  const { turn, episode, time } = input;
  const at = turn.time ?? episode.createdAt;
  const who = turn.speaker ?? (turn.role === 'user' ? 'User' : 'Assistant');
  const flat = turn.text.replace(/\s+/g, ' ').trim();
  const resolved = time.format === 'semantic' ? flat : annotateRelativeTimes({ text: flat, at, tz: time.tz });
  const aside = isAssistantText(turn) && !input.assistantWanted;
  const cap = aside ? Math.min(120, input.cap) : input.cap;
  // A turn's own time only when it is another day than its conversation's (a conversation resumed later).
  const otherDay = turn.time !== null && longDate(turn.time, time.tz) !== longDate(episode.createdAt, time.tz);
  const stamp = otherDay && turn.time !== null ? ` (${when(time, turn.time)})` : '';
  const prefix = `    ${who}${stamp}: `;
  const whole = `${prefix}${resolved}`;
  const tokens = input.tokenizer.count(whole);
  // The speaker prefix costs at most a token per four characters of it.
  if (tokens - Math.ceil(prefix.length / 4) <= cap) return { text: whole, tokens, whole: true };
  const cut = `${prefix}${passage(resolved, input.keywords, cap, input.tokenizer, input.fill)}`;
  return { text: cut, tokens: input.tokenizer.count(cut), whole: false };
}

/**
 * Where a long turn is cut into sentences: after a sentence's end, and before a list item ("2. **Honey**", "- Rest").
 * A list item's number stays with its item: alone ("2.") it was a sentence of its own, taken as the neighbour of the
 * sentence before and shown as a bare "2. …" that says nothing.
 */
const SENTENCE_BREAK = /(?<=[.!?:])(?<!(?:^|\s)\d{1,3}\.)\s+|\s+(?=\d+\.\s)|\s+(?=[-*•]\s)/;

/**
 * The sentences of a long turn that hold the most question words (stems of 5 letters), in their order, joined by
 * "…", within `cap` tokens; the turn's opening when no sentence holds any. With `fill`, the other sentences then
 * join in the order written while they fit (room the budget has left, see compileEvidence's `widen`).
 */
export function passage(
  text: string,
  keywords: readonly string[],
  cap: number,
  tokenizer: Tokenizer,
  fill = false,
): string {
  const stems = keywords.map((k) => k.toLowerCase().slice(0, 5)).filter((k) => k.length >= 3);
  const sentences = text.split(SENTENCE_BREAK).filter((s) => s.trim() !== '');
  const scored = sentences.map((s, i) => {
    const words = s.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    return { i, s, score: stems.filter((st) => words.some((w) => w.startsWith(st))).length };
  });
  const order = [...scored].filter((x) => x.score > 0).sort((a, b) => b.score - a.score || a.i - b.i);
  if (order.length === 0) return `${truncateToTokens({ text, limit: cap - 2, tokenizer })} …`;
  const chosen = new Set<number>();
  let used = 0;
  for (const x of order) {
    for (const i of [x.i, x.i + 1]) {
      const s = sentences[i];
      if (s === undefined || chosen.has(i)) continue;
      const c = tokenizer.count(s) + 2;
      if (used + c > cap) continue;
      chosen.add(i);
      used += c;
    }
  }
  if (fill && chosen.size > 0) {
    for (const [i, s] of sentences.entries()) {
      if (chosen.has(i)) continue;
      const c = tokenizer.count(s) + 2;
      if (used + c > cap) break;
      chosen.add(i);
      used += c;
    }
  }
  if (chosen.size === 0) {
    const best = order[0]?.s ?? text;
    return `… ${truncateToTokens({ text: best, limit: cap - 4, tokenizer })} …`;
  }
  const parts: string[] = [];
  let previous = -1;
  for (const i of [...chosen].sort((a, b) => a - b)) {
    if (i !== previous + 1) parts.push('…');
    parts.push(sentences[i] ?? '');
    previous = i;
  }
  if (previous < sentences.length - 1) parts.push('…');
  return parts.join(' ');
}

type Picked = Map<string, { episode: Episode; lines: Map<number, string> }>;

/** The conversations shown, in time order. */
function groupsInOrder(picked: Picked) {
  return [...picked.values()].sort(
    (a, b) => a.episode.createdAt - b.episode.createdAt || (a.episode.id < b.episode.id ? -1 : 1),
  );
}

/**
 * The section's lines as written: the title, then per conversation its header (cited with `cite`) and its shown turns,
 * "…" where turns are skipped.
 */
function sectionLines(input: EvidenceOptions, picked: Picked, cite: (episodeId: string) => string): string[] {
  const lines = ['', TITLE];
  for (const g of groupsInOrder(picked)) {
    lines.push(headerLine(input, g.episode, cite(g.episode.id).trim()));
    const seqs = [...g.lines.keys()].sort((a, b) => a - b);
    let previous = seqs[0] === 0 ? -1 : -2;
    for (const seq of seqs) {
      if (seq !== previous + 1) lines.push('    …');
      lines.push(g.lines.get(seq) ?? '');
      previous = seq;
    }
  }
  return lines;
}

function render(input: EvidenceOptions, picked: Picked, used: number): EvidenceSection {
  const lines = sectionLines(input, picked, input.cite);
  const excerpts: Excerpt[] = groupsInOrder(picked).map((g) => {
    const turns = input.turnsOf(g.episode.id);
    const seqs = [...g.lines.keys()].sort((a, b) => a - b);
    return {
      episode: g.episode,
      lines: seqs.flatMap((seq) => {
        const t = turns.find((x) => x.seq === seq);
        return t ? [{ role: t.role, speaker: t.speaker, text: t.text, seq, time: t.time }] : [];
      }),
    };
  });
  return { lines, excerpts, tokens: used };
}
