/**
 * Stretches of a speaker's life they talk about, beside the school and work phases of ./periods.ts: "when I was a
 * kid" (childhood), "back in high school", "my time in the military", "since I lost my job at Door Dash"
 * (unemployment), "since I moved to Boston two years ago" (life in Boston), "when I lived in Paris", "since I
 * retired", "during my pregnancy". Each is a period entity linked to its person (HAS_PERIOD). In a chat between
 * people (LoCoMo, MemoryBank) a period belongs to whoever said it, so another speaker's is named as theirs
 * ("Gina's unemployment"), and only the user's current period becomes the batch's period context.
 */
import { SELF_NAME } from '../assemble.js';
import type { Findings, PeriodFinding, RelationshipFinding } from '../findings.js';
import { findStatedDate, localYmd } from '../dates.js';
import { relativeTimes } from './event-times.js';
import { isHedged, isQuestion, type PatternContext } from './context.js';
import { qualifierName } from './periods.js';

type Status = PeriodFinding['status'];

interface LifeCue {
  re: RegExp;
  /** The period's name from the match (null: no period). */
  name: (m: RegExpExecArray, ctx: PatternContext) => string | null;
  /** 'past': told about as over (never the current period); 'since': going on since a stated start. */
  kind: 'past' | 'since' | 'now';
}

const KID = String.raw`(?:a\s+(?:kid|child|little\s+(?:girl|boy|kid)|boy|girl|toddler|(teen|teenager))|(?:very\s+|really\s+|so\s+)?(?:young|younger|little|small)|(?:about\s+|around\s+)?(\d{1,2})(?:\s+years?\s+old)?(?!\s*(?:months|weeks|days|hours|minutes|%|percent)))`;
const AS_KID = String.raw`a\s+(?:kid|child|little\s+(?:girl|boy|kid)|boy|girl|(teen|teenager))`;
const SCHOOL = String.raw`(high school|middle school|elementary school|grade school|college|grad school|university|uni)`;
const FORCES = String.raw`(?:the\s+)?(military|army|navy|air force|marines|marine corps|coast guard)`;
/** A place or organization as a mention, or a capitalized name the registry does not know. */
const NAMED = String.raw`(⟦\d+⟧|[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})`;

/** A named mention's canonical name, or the written name; null for a mention of another kind. */
function named(ctx: PatternContext, raw: string | undefined, kinds: readonly string[]): string | null {
  const q = qualifierName(ctx, raw);
  if (!q) return null;
  if (!q.entity) return q.surface;
  return kinds.includes(q.entity.type) ? q.entity.name : null;
}

function childhood(age: string | undefined, teen: string | undefined): string | null {
  if (teen) return 'teenage years';
  if (age === undefined) return 'childhood';
  const n = Number(age);
  if (n < 13) return 'childhood';
  return n < 20 ? 'teenage years' : null;
}

function school(word: string | undefined): string {
  return (word ?? '').toLowerCase().replace(/^uni$/, 'university');
}

const CUES: LifeCue[] = [
  {
    kind: 'past',
    re: new RegExp(
      String.raw`\b(?:when|since)\s+I\s+was\s+${KID}(?![\w-])|\bas\s+${AS_KID}\b|\bI\s+was\s+growing\s+up\b|(?:^\W*|[,;:]\s*)growing\s+up\b|\bmy\s+childhood\b`,
      'i',
    ),
    name: (m) => childhood(m[2], m[1] ?? m[3]),
  },
  {
    kind: 'past',
    re: new RegExp(
      String.raw`\b(?:when\s+I\s+was\s+in|back\s+in|during|throughout|all\s+through|in\s+my)\s+${SCHOOL}\b`,
      'i',
    ),
    name: (m) => school(m[1]),
  },
  {
    kind: 'past',
    // "I played soccer in high school": the speaker in the past tense before it.
    re: new RegExp(String.raw`\bI\b[^.;]*?\b(?:was|were|used\s+to|did|had|\w{3,}ed)\b[^.;]*?\bin\s+${SCHOOL}\b`, 'i'),
    name: (m) => school(m[1]),
  },
  {
    kind: 'past',
    re: new RegExp(
      String.raw`\b(?:my\s+(?:time|years|days|service)\s+in|(?:when|while)\s+I\s+was\s+in|I\s+served\s+in|I\s+was\s+in)\s+${FORCES}\b`,
      'i',
    ),
    name: () => 'military service',
  },
  {
    kind: 'since',
    re: new RegExp(
      String.raw`\bsince\s+I\s+(?:lost|got\s+laid\s+off\s+from|was\s+laid\s+off\s+from|was\s+let\s+go\s+from)\s+my\s+job(?:\s+at\s+${NAMED})?`,
      'i',
    ),
    name: () => 'unemployment',
  },
  {
    kind: 'since',
    re: new RegExp(String.raw`\b[Ss]ince\s+(?:I|we)\s+(?:first\s+)?moved\s+(?:here\s+)?to\s+${NAMED}`),
    name: (m, ctx) => {
      const place = named(ctx, m[1], ['place']);
      return place ? `life in ${place}` : null;
    },
  },
  {
    kind: 'past',
    re: new RegExp(
      String.raw`\b(?:[Ww]hen|[Ww]hile)\s+(?:I|we)\s+(?:lived|was\s+living|were\s+living)\s+in\s+${NAMED}`,
    ),
    name: (m, ctx) => {
      const place = named(ctx, m[1], ['place']);
      return place ? `life in ${place}` : null;
    },
  },
  {
    kind: 'past',
    re: new RegExp(
      String.raw`\b(?:[Ww]hen|[Ww]hile)\s+I\s+(?:worked|was\s+working)\s+(?:at|for)\s+${NAMED}|\b[Mm]y\s+(?:time|years|days)\s+at\s+${NAMED}`,
    ),
    name: (m, ctx) => {
      const org = named(ctx, m[1] ?? m[2], ['organization']);
      return org ? `work at ${org}` : null;
    },
  },
  {
    kind: 'since',
    re: /\bsince\s+I\s+retired\b|\b(?:in\s+my|during\s+my|enjoying\s+my)\s+retirement\b|\bnow\s+that\s+I(?:'m|\s+am)\s+retired\b/i,
    name: () => 'retirement',
  },
  {
    kind: 'past',
    re: /\b(?:when|while)\s+I\s+was\s+pregnant\b|\b(?:during|throughout)\s+my\s+pregnancy\b/i,
    name: () => 'pregnancy',
  },
  { kind: 'now', re: /\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+)?pregnant\b/i, name: () => 'pregnancy' },
];

/** "Gina's unemployment" for another speaker; the user's own periods carry no name. */
export function ownedPeriodName(owner: string, phase: string): string {
  return owner === SELF_NAME ? phase : `${owner}'s ${phase}`;
}

/** The start a "since …" clause states: an explicit date, else a relative time ("two years ago"). */
function statedStart(ctx: PatternContext): string | null {
  const { s } = ctx;
  const explicit = findStatedDate(s.text, ctx.day, 'past');
  if (explicit) return explicit.ymd;
  const relative = relativeTimes(s.text, s.time, ctx.tz)[0];
  if (!relative) return null;
  const ymd = relative.eventTime.slice(0, 10);
  // "since I moved here" told today is no start; a time resolved to the day of speaking states nothing.
  return ymd === localYmd(s.time, ctx.tz) ? null : ymd;
}

export function findLifePeriods(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s)) return {};
  // "Maybe since I retired I should travel" is a thought; "when I was young I wanted to teach" is still a childhood.
  const hedged = isHedged(s);
  const periods: PeriodFinding[] = [];
  const relationships: RelationshipFinding[] = [];
  for (const cue of CUES) {
    if (hedged && cue.kind !== 'past') continue;
    const m = cue.re.exec(s.masked);
    if (!m) continue;
    const phase = cue.name(m, ctx);
    if (!phase) continue;
    const name = ownedPeriodName(s.self, phase);
    if (periods.some((p) => p.name === name)) continue;
    const status: Status = cue.kind === 'past' ? 'ended' : 'active';
    const start = cue.kind === 'since' ? statedStart(ctx) : null;
    periods.push({
      name,
      cue: cue.kind === 'past' ? 'past' : 'ongoing',
      status,
      episodeId: s.episodeId,
      ...(s.self === SELF_NAME ? {} : { owner: s.self }),
      ...(start ? { date: start } : {}),
    });
    relationships.push({
      source: s.self,
      target: name,
      type: 'HAS_PERIOD',
      properties: { period: phase },
      // The person had that period for good; it is the period that is over, not the link (an edge ended at the
      // mention said the childhood ended the day it was told of, and every later mention added another).
      ended: false,
      confidence: 0.7,
      episodeId: s.episodeId,
    });
  }
  return { periods, relationships };
}
