/**
 * Life periods the user names: "I just started junior year at UMD", "My gap semester in San Francisco officially
 * starts now", "since I started my gap semester in SF", "during my junior year", "for the rest of my SF gap
 * semester", "this summer at Acme", "Junior year at UMD ends next week", "I decided to take a gap semester in SF"
 * (planned). A mention that fits a known period (same phase, same or no qualifier) takes the known name, so period
 * names stay stable across batches.
 */
import type { Findings, Mention, PeriodCue, PeriodFinding } from '../findings.js';
import { findStatedDate } from '../dates.js';
import type { Registry } from '../registry.js';
import { type PatternContext } from './context.js';

const PHASE =
  '(?:(?:freshman|sophomore|junior|senior|first|second|third|fourth|final|last)\\s+year(?:\\s+of\\s+(?:college|university|high school|grad school|my phd|my masters?))?|gap\\s+(?:year|semester)|(?:summer|fall|spring|winter)\\s+(?:internship|semester|quarter|term|break)|semester\\s+abroad|year\\s+abroad|sabbatical|(?:parental|maternity|paternity)\\s+leave|bootcamp|residency|postdoc|internship|co-?op)';
/** A qualifier after the phase: "at ⟦UMD⟧", "in ⟦San Francisco⟧", "at Acme". */
const QUAL = "(?:\\s+(at|in)\\s+(?:the\\s+)?(⟦\\d+⟧|[A-Z][\\w&'-]*(?:\\s+[A-Z][\\w&'-]*){0,3}))?";
/** A qualifier before the phase: "my ⟦SF⟧ gap semester". */
const PRE = '(?:(⟦\\d+⟧)\\s+)?';
const P = `${PRE}(${PHASE})${QUAL}`;
/** Sentences starting with one of these words are matched with that word lowercased. */
const PHASE_FIRST =
  /^(?:freshman|sophomore|junior|senior|first|second|third|fourth|final|last|gap|summer|fall|spring|winter|semester|year|since|during|throughout|for|halfway|midway|extending|this)\b/i;

const CUES: { cue: PeriodCue; re: RegExp }[] = [
  {
    cue: 'end',
    re: new RegExp(
      `(?:\\b[Mm]y\\s+|^\\W*)${P}\\s+(?:officially\\s+)?(?:ends|ended|is over|is ending|finished|wraps up|wrapped up)\\b`,
    ),
  },
  { cue: 'end', re: new RegExp(`\\bI\\s+(?:just\\s+)?(?:finished|ended|wrapped up|completed)\\s+my\\s+${P}`) },
  {
    cue: 'start',
    re: new RegExp(
      `\\b(?:I|we)\\s+(?:just\\s+|officially\\s+|recently\\s+|finally\\s+)?(?:started|start|began|am starting|'m starting|kicked off)\\s+(?:my\\s+|our\\s+|the\\s+)?${P}`,
    ),
  },
  {
    cue: 'start',
    re: new RegExp(
      `\\b[Mm]y\\s+${P}\\s+(?:officially\\s+|finally\\s+)?(?:starts|started|begins|began|is starting|kicks off)\\b`,
    ),
  },
  {
    cue: 'ongoing',
    re: new RegExp(
      `\\b(?:since I started|during|throughout|for the rest of|in the middle of|halfway through|midway through|I'm in|I am in|extend|extending|into)\\s+my\\s+${P}`,
    ),
  },
  {
    cue: 'ongoing',
    re: /\bthis\s+(summer|fall|spring|winter|semester|year)\s+at\s+(⟦\d+⟧|[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})/,
  },
  { cue: 'planned', re: new RegExp(`\\b(?:take|taking|do|doing)\\s+(?:a|my)\\s+${P}`) },
];

/** A qualifier as written: a mention placeholder (⟦i⟧) gives the mention, anything else its text. */
export function qualifierName(
  ctx: PatternContext,
  raw: string | undefined,
): { surface: string; entity: Mention | null } | null {
  if (!raw) return null;
  const m = /^⟦(\d+)⟧$/.exec(raw);
  if (m) {
    const mention = ctx.s.mentions[Number(m[1])];
    return mention ? { surface: mention.surface, entity: mention } : null;
  }
  return { surface: raw.replace(/[.,]$/, ''), entity: null };
}

/** A known period with the same phase and (when both have one) the same qualifier entity. */
export function matchKnownPeriod(input: {
  phase: string;
  qualifier: string | null;
  known: string[];
  registry: Registry;
}): string | null {
  const phase = input.phase.toLowerCase().replace(/\s+/g, ' ');
  for (const name of input.known) {
    const lower = name.toLowerCase();
    const at = lower.indexOf(phase);
    if (at < 0) continue;
    if (!input.qualifier) return name;
    const rest = name.slice(0, at) + name.slice(at + phase.length);
    const restQual = rest.replace(/^\s*(?:at|in)\s+|\s+$/gi, '').trim();
    const canon = (q: string): string => (input.registry.get(q)?.name ?? q).toLowerCase();
    if (restQual === '' || canon(restQual) === canon(input.qualifier)) return name;
  }
  return null;
}

/** Phases too generic to name a period without a qualifier ("my internship"). */
const GENERIC = new Set(['internship', 'co-op', 'coop', 'bootcamp', 'residency', 'sabbatical']);

export function findPeriods(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  const out: PeriodFinding[] = [];
  const text = PHASE_FIRST.test(s.masked) ? s.masked.charAt(0).toLowerCase() + s.masked.slice(1) : s.masked;
  for (const { cue, re } of CUES) {
    const m = re.exec(text);
    if (!m) continue;
    let phase: string;
    let prep: string | undefined;
    let qual: { surface: string; entity: Mention | null } | null;
    if (m.length === 3) {
      phase = (m[1] ?? '').toLowerCase();
      prep = 'at';
      qual = qualifierName(ctx, m[2]);
    } else {
      const pre = qualifierName(ctx, m[1]);
      phase = (m[2] ?? '').toLowerCase().replace(/\s+/g, ' ');
      prep = m[3]?.toLowerCase();
      qual = qualifierName(ctx, m[4]) ?? pre;
      if (!m[4] && pre?.entity) {
        qual = { surface: pre.entity.name, entity: pre.entity };
        prep = pre.entity.type === 'place' ? 'in' : 'at';
      }
    }
    if (qual?.entity && !['place', 'organization', 'project'].includes(qual.entity.type)) qual = null;
    const known = matchKnownPeriod({
      phase,
      qualifier: qual?.entity?.name ?? qual?.surface ?? null,
      known: ctx.knownPeriods,
      registry: ctx.registry,
    });
    const name = known ?? (qual ? `${phase} ${prep ?? 'at'} ${qual.surface}` : GENERIC.has(phase) ? null : phase);
    if (!name) continue;
    const date = cue === 'start' || cue === 'end' ? findStatedDate(s.text, ctx.day, 'nearest') : null;
    const status =
      cue === 'planned'
        ? 'planned'
        : cue === 'end'
          ? /\b(?:ends|is ending|wraps up)\b/.test(m[0])
            ? 'ending'
            : 'ended'
          : 'active';
    out.push({ name, cue, status, episodeId: s.episodeId, ...(date ? { date: date.ymd } : {}) });
    break;
  }
  return { periods: out };
}
