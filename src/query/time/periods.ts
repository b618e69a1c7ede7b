/**
 * Periods named in a question ("during my gap semester in SF") and period names typed by a user.
 *
 * Words are compared after lowercasing, stripping accents and possessives, and a light plural stem ("years" →
 * "year"). Stop words (in, at, the, of, my, …) never count. A small alias table expands place abbreviations on both
 * sides, so "SF" is "san francisco" and "NYC" is "new york city"; "LA" and "US" expand only when written in capitals.
 *
 * A period is named in a question when a run of words covers all of its significant words, or at least two of them
 * and at least 2/3. Within the run, stop words are free and up to two other words may sit between matches ("my
 * freshman year of college at UMD" still names "UMD freshman year"). Each period is found once, at its best run;
 * an ongoing period (end null) ends at `now`.
 */
import type { Period } from '../../domain/world.js';
import { jaroWinkler } from '../../resolve/similarity.js';
import { RANK, type Candidate, type MatchContext } from './types.js';

interface Token {
  word: string;
  from: number;
  to: number;
}

const STOP_WORDS = new Set([
  'in',
  'at',
  'the',
  'of',
  'my',
  'our',
  'a',
  'an',
  'and',
  'on',
  'to',
  'for',
  'during',
  'with',
]);

/** Abbreviation → words. Entries marked `caps` expand only when written in capitals ("LA", not the article "la"). */
const ALIASES: Record<string, { words: string[]; caps?: true }> = {
  sf: { words: ['san', 'francisco'] },
  nyc: { words: ['new', 'york', 'city'] },
  ny: { words: ['new', 'york'] },
  la: { words: ['los', 'angeles'], caps: true },
  dc: { words: ['washington', 'dc'] },
  uk: { words: ['united', 'kingdom'] },
  us: { words: ['united', 'states'], caps: true },
  usa: { words: ['united', 'states'] },
};

const MAX_GAP = 2;

function normalizeWord(raw: string): string {
  const w = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]s$/, '')
    .replace(/['’]/g, '');
  return w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w) ? w.slice(0, -1) : w;
}

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu)) {
    const from = m.index;
    const to = from + m[0].length;
    const alias = ALIASES[m[0].toLowerCase()];
    if (alias && (!alias.caps || m[0] === m[0].toUpperCase())) {
      for (const word of alias.words) out.push({ word, from, to });
    } else out.push({ word: normalizeWord(m[0]), from, to });
  }
  return out;
}

function significantWords(name: string): Set<string> {
  return new Set(
    tokenize(name)
      .map((t) => t.word)
      .filter((w) => !STOP_WORDS.has(w)),
  );
}

function enough(matched: number, total: number): boolean {
  return matched === total || (matched >= 2 && matched * 3 >= total * 2);
}

interface Run {
  from: number;
  to: number;
  matched: number;
}

/** The best run of `tokens` naming `words`: most words covered, then shortest. */
function bestRun(words: Set<string>, tokens: readonly Token[]): Run | null {
  let best: Run | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i];
    if (!first || !words.has(first.word)) continue;
    const matched = new Set<string>();
    let gap = 0;
    for (let j = i; j < tokens.length; j++) {
      const t = tokens[j];
      if (!t) break;
      if (words.has(t.word)) {
        matched.add(t.word);
        gap = 0;
        const run = { from: first.from, to: t.to, matched: matched.size };
        if (
          enough(run.matched, words.size) &&
          (!best ||
            run.matched > best.matched ||
            (run.matched === best.matched && run.to - run.from < best.to - best.from))
        ) {
          best = run;
        }
      } else if (!STOP_WORDS.has(t.word) && ++gap > MAX_GAP) break;
    }
  }
  return best;
}

export function periodEnd(period: Period, now: number): number {
  return Math.max(period.start, period.end ?? now);
}

export function periodCandidates(ctx: MatchContext): Candidate[] {
  const tokens = tokenize(ctx.text);
  const out: Candidate[] = [];
  for (const p of ctx.periods) {
    const words = significantWords(p.name);
    if (words.size === 0) continue;
    const run = bestRun(words, tokens);
    if (!run) continue;
    out.push({
      from: run.from,
      to: run.to,
      start: p.start,
      end: periodEnd(p, ctx.now),
      kind: 'period',
      periodId: p.entityId,
      rank: RANK.period,
      score: run.matched / words.size,
    });
  }
  return out;
}

function normalizedName(name: string): string {
  return tokenize(name)
    .map((t) => t.word)
    .join(' ');
}

/** Among equally good matches the most recently started period wins ("the internship" → the latest one). */
function best<T>(items: readonly T[], score: (item: T) => number, start: (item: T) => number): T | null {
  let winner: T | null = null;
  let winnerScore = -Infinity;
  for (const item of items) {
    const s = score(item);
    if (s > winnerScore || (s === winnerScore && winner !== null && start(item) > start(winner))) {
      winner = item;
      winnerScore = s;
    }
  }
  return winner;
}

/**
 * Resolve a user-typed period name: exact normalized name first, then the word-coverage rule above (best coverage
 * of the period's words plus share of the typed words used), then the best Jaro–Winkler similarity ≥ 0.85.
 */
export function matchPeriod(input: { name: string; periods: readonly Period[] }): Period | null {
  const typed = normalizedName(input.name);
  if (typed === '') return null;
  const start = (p: Period): number => p.start;
  const exact = input.periods.filter((p) => normalizedName(p.name) === typed);
  if (exact.length > 0) return best(exact, () => 0, start);

  const typedWords = significantWords(input.name);
  const covered = input.periods.flatMap((p) => {
    const words = significantWords(p.name);
    const hits = [...words].filter((w) => typedWords.has(w)).length;
    if (words.size === 0 || !enough(hits, words.size)) return [];
    return [{ p, score: hits / words.size + hits / Math.max(1, typedWords.size) }];
  });
  const byWords = best(
    covered,
    (c) => c.score,
    (c) => c.p.start,
  );
  if (byWords) return byWords.p;

  const similar = input.periods
    .map((p) => ({ p, score: jaroWinkler(typed, normalizedName(p.name)) }))
    .filter((c) => c.score >= 0.85);
  return (
    best(
      similar,
      (c) => c.score,
      (c) => c.p.start,
    )?.p ?? null
  );
}
