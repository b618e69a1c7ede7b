import { relativeTime } from '../domain/humanize.js';
import { localTime, MONTH_NAMES } from '../domain/time.js';

/**
 * Ablation-only renderings of the pie-paper §5.1 conditions the compiler has no format for: A (raw Unix timestamps)
 * and C (relative time only). They are derived from the compiler's `hybrid` text, which writes every time PIE
 * attaches as "15 March 2024 (21 days ago, 3 weeks, during X)" (or the date alone for secondary times): A replaces each such
 * time by the Unix seconds of that day's start, C by its relative phrase. The header ("Question:", "Now:") and the
 * words of conversation excerpts (what people said, quoted verbatim) are left alone, so only PIE's own time notes
 * change between conditions.
 */
export type DerivedRendering = 'raw' | 'relative';

const MONTHS = MONTH_NAMES;
const DATE = new RegExp(`\\b(\\d{1,2}) (${MONTHS.join('|')}) (\\d{4})(?: \\(([^()]*)\\))?`, 'g');

/** One line's PIE-written times rewritten. */
function rewrite(text: string, input: { to: DerivedRendering; now: number; tz: string }): string {
  return text.replace(DATE, (whole, day: string, month: string, year: string, note: string | undefined) => {
    const at = localTime({ year: Number(year), month: MONTHS.indexOf(month) + 1, day: Number(day) }, input.tz);
    if (at === null) return whole;
    if (input.to === 'raw') return String(Math.floor(at / 1000));
    // The hybrid note starts with the relative phrase PIE computed from the exact time; a bare date gets one.
    const rel = note?.split(', during ')[0]?.trim();
    return rel && rel !== '' ? rel : relativeTime({ at, now: input.now, tz: input.tz });
  });
}

/** The hybrid-format context rewritten in condition A (`raw`) or C (`relative`). Pure. */
export function renderDerived(hybridText: string, input: { to: DerivedRendering; now: number; tz: string }): string {
  let inExcerpts = false;
  return hybridText
    .split('\n')
    .map((line, i) => {
      if (i < 2 && /^(Question|Now): /.test(line)) return line;
      if (line === 'From the conversations:') inExcerpts = true;
      else if (line.trim() === '' || !line.startsWith(' ')) inExcerpts = false;
      // An excerpt's turn line: "    Speaker (time): words" — only the time before the words is PIE's.
      const turn = inExcerpts ? /^( {4}(?!Summary: )[^:]*?: )([\s\S]*)$/.exec(line) : null;
      if (turn) return rewrite(turn[1] ?? '', input) + (turn[2] ?? '');
      return rewrite(line, input);
    })
    .join('\n');
}

/**
 * The context without its header lines ("Question: …" repeats the question, "Now: …" is the same in every
 * condition): what PIE retrieved and wrote, which the ablation and ToT metrics measure.
 */
export function contextBody(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  while (start < 2 && /^(Question|Now): /.test(lines[start] ?? '')) start += 1;
  return lines.slice(start).join('\n');
}
