import type { TimeFormat } from '../compile/time-format.js';
import type { TimeRange } from './time/types.js';
import type { Intent } from './types.js';

/**
 * Query intent by rules (pie-architecture "Query Layer"): cheap, deterministic, and good enough for the common
 * shapes of a question. A configured model may refine it (intent-prompt.ts). Rules are tried in order; the first
 * that matches decides.
 */
export interface IntentInput {
  question: string;
  /** How many entities the question names (resolved by the caller). */
  namedEntities: number;
  /** How many time references the question contains. */
  timeRanges: number;
}

interface IntentRule {
  intent: Intent;
  test(q: string, input: IntentInput): boolean;
}

const CONTRADICTION =
  /\b(contradict\w*|conflict\w*|inconsisten\w*|disagree\w*|flip[- ]?flop\w*|chang\w* (my|her|his|their) mind)\b/;
const PROCEDURAL =
  /\b(how do i (usually|normally|typically|tend to)|how i (usually|normally|typically)|my (usual )?(process|approach|workflow|routine|method|playbook|habits?)|what do i (usually|normally|typically) do|(usually|typically|normally|tend to) (approach|handle|start|go about|do)|patterns? in how)\b/;
const RELATIONSHIP =
  /\b(connected|related|relationship|relate|link(ed)?|connection)\b.*\b(to|with|between)\b|\bbetween\b.+\band\b.+\b(connect|relat|link)|\bhow (do|does|did) .+ (know|relate|connect)\b|\bwho (works|worked) (on|with|at)\b/;
const CHANGE =
  /\b(chang\w*|evolv\w*|evolution|differ\w*|shift\w*|progress\w*|develop\w*|grew|grow\w*|used to|anymore|no longer|over time|compare\w*|trajectory|history of|become|became|turned into|went from|transition\w*|pivot\w*|since when)\b/;
const CURRENT =
  /\b(currently|current|right now|at the moment|these days|nowadays|latest|status|still|now|today|present(ly)?|so far)\b/;
const LOOKUP = /^(who|what) (is|are|was|were) [^?]{1,60}\??$|^(tell me about|describe|remind me (about|of|who|what)) /;

const RULES: IntentRule[] = [
  { intent: 'contradiction', test: (q) => CONTRADICTION.test(q) },
  { intent: 'procedural', test: (q) => PROCEDURAL.test(q) },
  { intent: 'relationship', test: (q, i) => i.namedEntities >= 2 && RELATIONSHIP.test(q) },
  { intent: 'temporal_diff', test: (q, i) => CHANGE.test(q) || i.timeRanges >= 2 },
  { intent: 'current_state', test: (q, i) => i.namedEntities >= 1 && CURRENT.test(q) },
  { intent: 'entity_lookup', test: (q, i) => i.namedEntities >= 1 && LOOKUP.test(q) },
];

export function normalizeQuestion(question: string): string {
  return question.toLowerCase().replace(/\s+/g, ' ').trim();
}

export function classifyIntent(input: IntentInput): Intent {
  const q = normalizeQuestion(input.question);
  return RULES.find((r) => r.test(q, input))?.intent ?? 'general';
}

const PAST =
  /\b(used to|back (then|in|when)|previously|before|earlier|formerly|originally|at first|at the time|when did|did i|was i|were we|had i|ever|history|past|last (year|spring|summer|fall|autumn|winter|month|week)|ago)\b/;

/**
 * Current facts by default; superseded history when the question is about change or the past (DESIGN.md §5).
 * A time range that ends before now counts as "the past".
 */
export function wantsHistory(input: { question: string; intent: Intent; pastRange: boolean }): boolean {
  if (input.intent === 'temporal_diff' || input.intent === 'contradiction') return true;
  if (input.intent === 'current_state') return false;
  return input.pastRange || PAST.test(normalizeQuestion(input.question));
}

const DATE_QUESTION =
  /\b(when (did|was|were|is|do|does|will|had)|what (date|day|month|year|time)|which (date|day|month|year|week)|on what (date|day)|what is the date|in what (year|month))\b/;
const DURATION_QUESTION =
  /\b(how long|how many (days|weeks|months|years)|how (old|recent(ly)?)|for how long|how much time|how far back|since when|how often)\b/;

/**
 * The `auto` format (DESIGN.md §4). The seed paper's Test-of-Time run found narrative-only time hurt questions
 * asking for a date (−37.5 points) and helped durations (+25): date questions get exact dates, duration and
 * "how long ago" questions get relative time with periods, everything else gets both (hybrid). A duration question
 * that names a day or a month among its time ranges ("On April 27th, how long did I run?") keeps dates beside the
 * relative times (hybrid): with relative times alone the context could not show which turns are from that day.
 */
export function chooseTimeFormat(question: string, ranges: readonly Pick<TimeRange, 'kind'>[] = []): TimeFormat {
  const q = normalizeQuestion(question);
  if (DATE_QUESTION.test(q)) return 'absolute';
  if (DURATION_QUESTION.test(q)) {
    return ranges.some((r) => r.kind === 'explicit' || r.kind === 'month') ? 'hybrid' : 'semantic';
  }
  return 'hybrid';
}
