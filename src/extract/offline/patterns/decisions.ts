/**
 * Decisions: "I decided to …", "I've decided …", "we decided against …", "we're going with X over Y because …",
 * "I'm going to X because …" (a plan with a reason), "Decision: …"; "The alternatives were A, or B" right after a
 * decision attaches A and B to it. The reasoning is the "because/since" clause; alternatives come from "instead of",
 * "rather than" and "over" before it. A one-word decision ("I decided to pivot") names the project in focus.
 */
import type { DecisionFinding, Findings } from '../findings.js';
import { clip, cutClause } from '../names.js';
import { isQuestion, mentionOf, textIndex, unmaskSurface, type PatternContext } from './context.js';
import { pastTimeOf } from './event-times.js';

const DECIDED =
  /\b(?:I|we|[A-Z][a-z]+ and I)(?:'ve| have)?\s+(?:finally\s+|just\s+|officially\s+|now\s+)?(?:decided|chosen|chose|settled|opted|committed)\s+(to|that|on|against|for)\s+(.+)$/i;
const GOING_WITH =
  /\b(?:I'm|I am|we're|we are|I'll|we'll)\s+(?:going\s+(?:to\s+go\s+)?with|gonna go with|sticking with|picking|choosing)\s+(.+)$/i;
const GOING_TO_BECAUSE = /\b(?:I'm|I am|we're|we are)\s+(?:going\s+to|gonna)\s+(.+?)\s+(?:because|since)\s+(.+)$/i;
const DECISION_COLON = /^\W*(?:decision|final decision|verdict)\s*:\s*(.+)$/i;
const ALTERNATIVES =
  /^\W*(?:the\s+)?(?:other\s+|main\s+)?(?:alternatives?|options?)\s+(?:was|were|would have been|I considered (?:was|were))\s+(.+)$/i;
const REASON_SPLIT = /,?\s+(?:because|since)\s+(?=\S)|,\s+so\s+that\s+/i;
const ALT_MARK = /\s+(?:instead\s+of|rather\s+than|over)\s+/i;
const FOR_PREFIX = /^\W*for\s+((?:the|my|our)\s+[\w\s-]{2,30}?),\s+/i;
const END =
  /\s*(?:[;!?]|:(?!\d)|\.(?:\s|$)|,\s+(?:but|so|and then|which|specifically|especially|including|like|I|we|you|it|they|he|she)\b|\s+—\s+|\s+-\s+)/i;

/**
 * A decision whose object only points back at the talk ("write about this", "include this at the beginning", "go
 * for it") says nothing on its own: no decision entity.
 */
const POINTS_BACK =
  /\b(?:this|that|these|those|it|them)(?:\s+(?:at|in|on|for|to|up|out|down|about|with|over|again|now|too|later|first|soon|anyway|instead)\b.*)?$/i;

function alternativeName(ctx: PatternContext, maskedAlt: string): string {
  const placeholders = [...maskedAlt.matchAll(/⟦(\d+)⟧/g)];
  const words = maskedAlt.trim().split(/\s+/);
  const only = placeholders.length === 1 ? mentionOf(ctx.s, placeholders[0]?.[1]) : undefined;
  if (only && words.length <= 3) return only.name;
  return clip(unmaskSurface(ctx.s, maskedAlt).trim(), 120);
}

function splitAlternatives(text: string): string[] {
  return text
    .split(
      /,?\s+or\s+|;\s*|,\s+(?=(?:or\s+)?(?:keeping|going|doing|using|staying|waiting|taking|shutting|adding|building|hiring)\b)/i,
    )
    .map((t) => t.replace(/^(?:either|or|to)\s+/i, '').trim())
    .filter((t) => t.length > 2);
}

export function findDecisions(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  const masked = s.masked;
  const alt = ALTERNATIVES.exec(masked);
  if (alt) {
    const items = splitAlternatives(cutClause(alt[1] ?? '', END)).map((a) => alternativeName(ctx, a));
    return items.length > 0 ? { alternatives: [{ episodeId: s.episodeId, turn: s.turn, items }] } : {};
  }
  if (isQuestion(s)) return {};
  let head: string | null = null;
  let verb = '';
  let reasonText: string | null = null;
  const decided = DECIDED.exec(masked);
  const going = decided ? null : GOING_WITH.exec(masked);
  const goingTo = decided || going ? null : GOING_TO_BECAUSE.exec(masked);
  const colon = decided || going || goingTo ? null : DECISION_COLON.exec(masked);
  if (decided && /\b(?:if|once|when|whether|unless|until|before)\s+$/i.test(masked.slice(0, decided.index))) return {};
  if (decided) {
    const kind = (decided[1] ?? '').toLowerCase();
    verb = kind === 'on' || kind === 'for' ? 'choose ' : kind === 'against' ? 'not ' : '';
    head = decided[2] ?? '';
  } else if (going) {
    verb = 'go with ';
    head = going[1] ?? '';
  } else if (goingTo) {
    head = goingTo[1] ?? '';
    reasonText = goingTo[2] ?? '';
  } else if (colon) {
    head = colon[1] ?? '';
  }
  if (head === null) return {};
  if (reasonText === null) {
    const split = REASON_SPLIT.exec(head);
    if (split) {
      reasonText = head.slice(split.index + split[0].length);
      head = head.slice(0, split.index);
    }
  }
  head = cutClause(head, END);
  const alternatives: string[] = [];
  const altMark = ALT_MARK.exec(head);
  if (
    altMark &&
    (verb === 'go with ' ||
      !/^\s*over\b/i.test(altMark[0]) ||
      /^⟦\d+⟧/.test(head.slice(altMark.index + altMark[0].length)))
  ) {
    alternatives.push(
      ...splitAlternatives(head.slice(altMark.index + altMark[0].length)).map((a) => alternativeName(ctx, a)),
    );
    head = head.slice(0, altMark.index);
  }
  let summary = clip(`${verb}${unmaskSurface(s, head).trim()}`.replace(/\s+/g, ' '), 160);
  if (summary.split(/\s+/).length < 2 && ctx.focusProject) summary = `${summary} ${ctx.focusProject}`;
  const forPrefix = FOR_PREFIX.exec(s.text);
  if (forPrefix?.[1] && !summary.includes(forPrefix[1])) summary = `${summary} for ${forPrefix[1]}`;
  if (summary.length < 3 || POINTS_BACK.test(summary)) return {};
  const related = s.mentions
    .filter((m) => m.type !== 'belief' && m.type !== 'decision' && m.name !== s.self)
    .map((m) => m.name);
  const project = s.mentions.some((m) => m.type === 'project');
  const teamWork = /\b(?:we|our|us)\b/i.test(masked) || /^(?:pivot|launch|ship|hire|raise|shut|pause)/i.test(summary);
  if (!project && ctx.focusProject && (ctx.episodeProject === ctx.focusProject || teamWork))
    related.push(ctx.focusProject);
  const reasoning = reasonText
    ? clip(unmaskSurface(s, cutClause(reasonText, /\s*(?:[!?]|\.(?:\s|$))/)), 240)
    : undefined;
  // A decision told as made ("Last week I decided to …", "we decided on Supabase yesterday") is dated by a past time
  // of its own clause, up to the end of what was decided (event-times.ts); the alternatives weighed against it are
  // not its ("instead of going back to UMD in January"), and one still to be made has no past.
  const headAt = decided ? decided.index + decided[0].length - (decided[2] ?? '').length : -1;
  const until = textIndex(s, headAt + head.length);
  const when = decided
    ? pastTimeOf(
        { ...ctx, s: alternatives.length > 0 ? { ...s, text: s.text.slice(0, until) } : s },
        { start: textIndex(s, decided.index), end: until },
      )
    : null;
  const decision: DecisionFinding = {
    summary,
    alternatives,
    relatedEntities: [...new Set(related)],
    episodeId: s.episodeId,
    turn: s.turn,
    ...(reasoning && reasoning.length > 2 ? { reasoning } : {}),
    ...(when?.eventTime ? { eventTime: when.eventTime } : {}),
  };
  return { decisions: [decision] };
}
