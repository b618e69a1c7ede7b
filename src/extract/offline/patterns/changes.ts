/**
 * Project state changes: "X is now a working prototype", "we launched X on Monday", "we pivoted X from A to B",
 * "X now has 12 labs and 180 weekly active users", "weekly active users went from 140 to 38", "we paused X",
 * "we're raising a pre-seed round", "the round closed", "we're hiring our first engineer", "our first pilot customer".
 * The project is the one named in the sentence, else (for "we …" sentences) the project in focus. Retellings
 * ("X started as …, then we pivoted") are not new changes.
 */
import type { Findings, StateChangeFinding } from '../findings.js';
import { pastTimeOf } from './event-times.js';
import { STAGE_WORDS } from '../lexicon.js';
import { clip, cutClause } from '../names.js';
import { E, isHedged, isQuestion, mentionOf, textIndex, unmask, type PatternContext } from './context.js';

const STAGES = Object.keys(STAGE_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const WE = "(?:we|I|[A-Z][a-z]+ and I)(?:'ve| have)?";
const NOW_STAGE = new RegExp(
  `${E}\\s+(?:(?:is|'s)\\s+(?:(?:now|officially|finally)\\s+)+|has\\s+(?:now\\s+)?become\\s+|became\\s+|is\\s+back\\s+in\\s+)(?:a\\s+|an\\s+|in\\s+)?(?:[\\w-]+\\s+){0,2}?(${STAGES})\\b`,
  'i',
);
const LAUNCHED = new RegExp(
  `\\b${WE}\\s+(?:just\\s+|officially\\s+|finally\\s+)?(?:launched|shipped|released)\\s+${E}`,
  'i',
);
const WENT_LIVE = new RegExp(`${E}\\s+(?:is\\s+(?:now\\s+|officially\\s+)*live|went live|launched)\\b`, 'i');
const PIVOT_FROM_TO = new RegExp(
  `\\b${WE}\\s+(?:just\\s+|officially\\s+)?pivoted\\s+(?:${E}\\s+)?from\\s+(.+?)\\s+to\\s+(.+)$`,
  'i',
);
const PIVOT_TO = new RegExp(
  `(?:${E}|\\b${WE})\\s+(?:has\\s+|just\\s+|officially\\s+)?pivoted\\s+(?:${E}\\s+)?to\\s+(.+)$`,
  'i',
);
const HAS_COUNT = new RegExp(`${E}\\s+(?:now\\s+)?has\\s+(.+)$`, 'i');
const COUNT_ITEM =
  /(?:about|around|over|nearly|almost|roughly|~)?\s*(\d[\d,.]*k?)\s+((?:(?:weekly|daily|monthly)\s+active\s+|paying\s+|active\s+)?(?:users|students|customers|members|labs|subscribers|downloads|teams|companies|schools|researchers|clients|signups|sign-ups))\b/gi;
const SIGNED_UP = /\b(\d[\d,]*)\s+(?:students|users|people|customers|researchers)\s+(?:have\s+)?signed\s+up\b/i;
const METRIC_FROM_TO =
  /\b((?:weekly|daily|monthly)\s+active\s+(?:users|researchers|students)|WAU|DAU|MAU|MRR|ARR|revenue|retention|sign-?ups|users|customers)\s+(?:went|dropped|fell|grew|jumped|increased|decreased|rose|climbed)\s+(?:down\s+|up\s+)?from\s+([\d$,.%k]+)\s+to\s+([\d$,.%k]+)/i;
const WENT_FROM_TO = new RegExp(`${E}\\s+(?:went|grew)\\s+from\\s+(.+?)\\s+to\\s+(.+)$`, 'i');
const PAUSED = new RegExp(
  `\\b${WE}\\s+(?:just\\s+|officially\\s+|finally\\s+)?(paused|shut down|killed|abandoned|sunset|archived|stopped working on|put)\\s+${E}(\\s+on\\s+hold)?`,
  'i',
);
const IS_PAUSED = new RegExp(`${E}\\s+is\\s+(?:now\\s+|officially\\s+)*(on hold|paused|dead|shut down|over)\\b`, 'i');
const RAISING =
  /\b(?:we're|we are|are|am|I'm)\s+raising\s+(?:a\s+|our\s+)?((?:pre-seed|seed|series [a-d]|friends and family)(?:\s+round)?|\$[\d.,]+[kmKM]?(?:\s+round)?)/i;
const ROUND_CLOSED =
  /\b(?:the\s+|our\s+)?(?:round|raise|pre-seed|seed round|funding)\s+(?:has\s+|just\s+|officially\s+)*closed\b/i;
const HIRING = new RegExp(
  `\\b(?:we're|we are)\\s+(?:now\\s+)?hiring\\s+(?:our\\s+)?((?:first\\s+)?[\\w-]+(?:\\s+(?!for\\b)[\\w-]+)?)(?:\\s+for\\s+${E})?`,
  'i',
);
const FIRST_CUSTOMER =
  /\b(?:our|the)\s+first\s+((?:pilot|paying)\s+customer|customer|pilot|paying user|investor|hire)\b/i;
const RETELLING = /\b(?:started as|originally|used to be|back when|our story|at first)\b/i;

function projectOf(ctx: PatternContext, index: string | undefined): string | null {
  const m = mentionOf(ctx.s, index);
  if (m) return m.type === 'project' ? m.name : null;
  return ctx.s.mentions.find((x) => x.type === 'project')?.name ?? ctx.focusProject;
}

export function findProjectChanges(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s) || RETELLING.test(s.text)) return {};
  if (isHedged(s) && !/\bdecided\b/i.test(s.text)) return {};
  const out: StateChangeFinding[] = [];
  const masked = s.masked;
  /** The past time of a change's own clause, its words from `start` to `end` of the masked sentence (event-times.ts). */
  const timeOf = (start: number, end: number): ReturnType<typeof pastTimeOf> =>
    pastTimeOf(ctx, { start: textIndex(s, start), end: textIndex(s, end) });
  /** The same for a match on the sentence's own text. */
  const textTimeOf = (m: RegExpExecArray): ReturnType<typeof pastTimeOf> =>
    pastTimeOf(ctx, { start: m.index, end: m.index + m[0].length });
  const dated = (when: ReturnType<typeof pastTimeOf>): Pick<StateChangeFinding, 'eventTime'> =>
    when?.eventTime ? { eventTime: when.eventTime } : {};
  const push = (project: string | null, change: Omit<StateChangeFinding, 'entityName' | 'episodeId'>): void => {
    if (project) out.push({ entityName: project, episodeId: s.episodeId, ...change });
  };
  const stage = (
    project: string | null,
    value: string,
    what: string,
    when: ReturnType<typeof pastTimeOf> = null,
  ): void =>
    push(project, {
      attribute: 'stage',
      oldStateAspect: undefined,
      newStateAspect: value,
      whatChanged: what,
      isContradiction: false,
      confidence: 0.8,
      ...dated(when),
    });

  const now = NOW_STAGE.exec(masked);
  if (now) {
    const p = projectOf(ctx, now[1]);
    const value = STAGE_WORDS[(now[2] ?? '').toLowerCase()] ?? 'building';
    stage(p, value, clip(unmask(s, cutClause(masked.slice(now.index))), 160));
  }
  const launched = LAUNCHED.exec(masked) ?? WENT_LIVE.exec(masked);
  if (launched) {
    const p = projectOf(ctx, launched[1]);
    const when = timeOf(launched.index, launched.index + launched[0].length);
    stage(p, 'launched', `Launched ${p ?? ''}${when ? ` (${when.text})` : ''}`.replace(/\s+/g, ' '), when);
  }
  const pivot = PIVOT_FROM_TO.exec(masked);
  const pivotTo = pivot ? null : PIVOT_TO.exec(masked);
  const pivoted = pivot ?? pivotTo;
  if (pivoted) {
    const p = projectOf(ctx, pivot ? pivot[1] : (pivotTo?.[1] ?? pivotTo?.[2]));
    const from = pivot ? clip(unmask(s, cutClause(pivot[2] ?? '')), 120) : undefined;
    const rest = (pivot ? pivot[3] : pivotTo?.[3]) ?? '';
    const toWords = cutClause(rest, AFTER_PIVOT);
    const to = clip(unmask(s, toWords), 120);
    // The pivot's clause ends where what it pivoted to does.
    const restAt = pivoted.index + pivoted[0].length - rest.length;
    const when = timeOf(pivoted.index, restAt + toWords.length);
    if (to.length > 2) {
      const prior = p ? ctx.registry.get(p)?.state.focus : undefined;
      push(p, {
        attribute: 'focus',
        oldStateAspect: from ?? (typeof prior === 'string' ? prior : undefined),
        newStateAspect: to,
        whatChanged: `Pivoted ${from ? `from ${from} ` : ''}to ${to}`,
        isContradiction: true,
        confidence: 0.85,
        ...dated(when),
      });
      stage(p, 'pivoted', `Pivoted to ${to}`, when);
    }
  }
  const has = HAS_COUNT.exec(masked);
  if (has) {
    const p = projectOf(ctx, has[1]);
    for (const item of (has[2] ?? '').matchAll(COUNT_ITEM)) {
      const attribute = (item[2] ?? '').toLowerCase().replace(/\s+/g, ' ');
      push(p, {
        attribute,
        newStateAspect: (item[1] ?? '').replace(/,/g, ''),
        whatChanged: `${item[1]} ${attribute}`,
        isContradiction: false,
        confidence: 0.8,
      });
    }
  }
  const signed = SIGNED_UP.exec(s.text);
  if (signed) {
    push(projectOf(ctx, undefined), {
      attribute: 'signups',
      newStateAspect: (signed[1] ?? '').replace(/,/g, ''),
      whatChanged: clip(cutClause(s.text.slice(signed.index)), 160),
      isContradiction: false,
      confidence: 0.75,
      ...dated(textTimeOf(signed)),
    });
  }
  const metric = METRIC_FROM_TO.exec(s.text);
  if (metric) {
    const attribute = (metric[1] ?? '').toLowerCase();
    push(projectOf(ctx, undefined), {
      attribute,
      oldStateAspect: metric[2],
      newStateAspect: metric[3] ?? '',
      whatChanged: `${metric[1]} went from ${metric[2]} to ${metric[3]}`,
      isContradiction: false,
      confidence: 0.8,
      ...dated(textTimeOf(metric)),
    });
  }
  const went = WENT_FROM_TO.exec(masked);
  if (went && !metric) {
    const toWords = cutClause(went[3] ?? '');
    const restAt = went.index + went[0].length - (went[3] ?? '').length;
    push(projectOf(ctx, went[1]), {
      attribute: 'traction',
      oldStateAspect: clip(unmask(s, went[2] ?? ''), 80),
      newStateAspect: clip(unmask(s, toWords), 100),
      whatChanged: clip(unmask(s, cutClause(masked.slice(went.index))), 160),
      isContradiction: false,
      confidence: 0.75,
      ...dated(timeOf(went.index, restAt + toWords.length)),
    });
  }
  const paused = PAUSED.exec(masked);
  const isPaused = paused ? null : IS_PAUSED.exec(masked);
  const stopped = paused ?? isPaused;
  if (stopped) {
    const verb = ((paused ? paused[1] : isPaused?.[2]) ?? '').toLowerCase();
    const value = /paused|hold|put/.test(verb) ? 'paused' : 'abandoned';
    stage(
      projectOf(ctx, paused ? paused[2] : isPaused?.[1]),
      value,
      `${value === 'paused' ? 'Paused' : 'Shut down'}`,
      timeOf(stopped.index, stopped.index + stopped[0].length),
    );
  }
  const raising = RAISING.exec(s.text);
  if (raising) push(projectOf(ctx, undefined), simple('fundraising', `raising ${raising[1] ?? 'a round'}`, s.text));
  const closed = ROUND_CLOSED.exec(s.text);
  if (closed)
    push(projectOf(ctx, undefined), {
      ...simple('fundraising', 'round closed', s.text.slice(closed.index)),
      ...dated(textTimeOf(closed)),
    });
  const hiring = HIRING.exec(masked);
  if (hiring) {
    const what = (hiring[1] ?? '').toLowerCase();
    push(projectOf(ctx, hiring[2]), simple('hiring', what, unmask(s, masked.slice(hiring.index))));
  }
  const first = FIRST_CUSTOMER.exec(s.text);
  if (first)
    push(projectOf(ctx, undefined), simple('milestone', `first ${(first[1] ?? '').toLowerCase()}`, unmask(s, masked)));
  return { stateChanges: out };
}

const AFTER_PIVOT = /\s*(?:[;:!?]|\.(?:\s|$)|,|\s+(?:because|since|after|when|but)\s+)/i;

function simple(attribute: string, value: string, text: string): Omit<StateChangeFinding, 'entityName' | 'episodeId'> {
  return {
    attribute,
    newStateAspect: value,
    whatChanged: clip(cutClause(text), 160),
    isContradiction: false,
    confidence: 0.7,
  };
}
