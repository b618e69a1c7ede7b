/**
 * Vague anchors, as windows measured back from `now` (all kind 'vague'):
 * - "recently", "lately", "these days", "nowadays", "of late": the last 30 days.
 * - "a while ago / back", "some time ago": 12 → 3 months ago.
 * - "a few / several <units> ago": 6 → 2 units ago; "a couple of <units> ago": 3 → 1 units ago.
 * - "a long time ago", "long ago", "ages ago", "years ago": the floor (see index.ts) → 1 year ago.
 * - "not long ago", "not so / too / that long ago": the opposite, recent: 3 months ago → now.
 * "Back then", "at the time", "then" point at something said earlier, not at a time, and match nothing.
 */
import { matchesOf } from '../../domain/matches.js';
import { shiftLocal, type Unit } from './calendar.js';
import { RANK, type Candidate, type MatchContext } from './types.js';
import { unitOf } from './words.js';

type Window = (ctx: MatchContext, unit: Unit) => { start: number; end: number };

const back = (ctx: MatchContext, unit: Unit, n: number): number => shiftLocal(ctx.now, ctx.tz, unit, -n);

const RULES: ReadonlyArray<[RegExp, Window]> = [
  [/\b(?:recently|lately|these\s+days|nowadays|of\s+late)\b/gi, (c) => ({ start: back(c, 'day', 30), end: c.now })],
  [
    /\b(?:a\s+while\s+(?:ago|back)|some\s+time\s+ago)\b/gi,
    (c) => ({ start: back(c, 'month', 12), end: back(c, 'month', 3) }),
  ],
  [
    /\b(?:a\s+few|several)\s+(days|weeks|months|years)\s+(?:ago|back)\b/gi,
    (c, u) => ({ start: back(c, u, 6), end: back(c, u, 2) }),
  ],
  [
    /\b(?:a\s+)?couple(?:\s+of)?\s+(days|weeks|months|years)\s+(?:ago|back)\b/gi,
    (c, u) => ({ start: back(c, u, 3), end: back(c, u, 1) }),
  ],
  [/\bnot\s+(?:(?:so|too|that|very)\s+)?long\s+ago\b/gi, (c) => ({ start: back(c, 'month', 3), end: c.now })],
  [
    /\b(?:a\s+long\s+time\s+ago|(?<!\bnot\s+(?:(?:so|too|that|very)\s+)?)long\s+ago|ages\s+ago|years\s+ago)\b/gi,
    (c) => ({ start: Math.min(c.floor, back(c, 'year', 1)), end: back(c, 'year', 1) }),
  ],
];

export function vagueCandidates(ctx: MatchContext): Candidate[] {
  const out: Candidate[] = [];
  for (const [pattern, window] of RULES) {
    for (const m of matchesOf(pattern, ctx.text)) {
      const span = window(ctx, unitOf(m[1] ?? 'years'));
      out.push({ from: m.index, to: m.index + m[0].length, ...span, kind: 'vague', rank: RANK.vague });
    }
  }
  return out;
}
