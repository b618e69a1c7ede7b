/**
 * Tool adoption and abandonment: "I switched from A to B", "I stopped using A", "I started using B", "we're going
 * with B", "Frontend in React", "Yjs it is", "our stack: A, B, C". Produces USES relationships (ended for a dropped
 * tool) from the user, or from the project in focus when the tool is technical, and status changes on the tools.
 * Questions and deliberation ("should we move to MongoDB?") are not events.
 */
import type { Findings, Mention, RelationshipFinding, StateChangeFinding } from '../findings.js';
import { PERSONAL_CATEGORIES } from '../gazetteer.js';
import { E, isHedged, isQuestion, mentionOf, textIndex, type PatternContext } from './context.js';
import { pastTimeOf } from './event-times.js';

/**
 * One tool taken up or dropped, with its clause's words in the sentence: from the verb (`start`) to the end of the
 * tool's name or the last tool the clause names (`end`), and how it is told: done (`past`: "I switched to B", "we
 * dropped A"), going on (`present`: "I'm using B", "not using A anymore", "Frontend in React") or still to come
 * (`future`: "I'm going to use B", "we'll go with B").
 */
type Event = {
  tool: Mention;
  kind: 'adopted' | 'dropped';
  replaced?: Mention;
  purpose?: string;
  start: number;
  end: number;
  tense: 'past' | 'present' | 'future';
};

const VERB_SWITCH = '(?:switched|switching|switch|moved|moving|migrated|migrating|transitioned|changed|went)';
const SWITCH_FROM_TO = new RegExp(
  `\\b${VERB_SWITCH}\\s+(?:[\\w'-]+\\s+){0,4}?from\\s+(?:using\\s+)?(?:the\\s+)?${E}\\s+(?:to|over to|onto)\\s+(?:using\\s+)?${E}`,
  'gi',
);
const SWITCH_TO_FROM = new RegExp(`\\b${VERB_SWITCH}\\s+(?:over\\s+)?to\\s+${E}\\s+from\\s+${E}`, 'gi');
const REPLACED = new RegExp(
  `\\b(?:replaced|replacing|swapped(?: out)?|swapping(?: out)?)\\s+${E}\\s+(?:with|for)\\s+${E}`,
  'gi',
);
const REPLACED_IT = new RegExp(
  `\\b(?:replaced|replacing|swapped)\\s+(?:it|that|them)\\s+(?:with|for)\\s+(?:plain\\s+|simple\\s+)?${E}`,
  'gi',
);
const DROP = new RegExp(
  `\\b(?:stopped using|stop using|quit using|quit|dropped|dropping|ditched|ditching|abandoned|uninstalled|got rid of|gave up on|moved away from|moving away from|no longer use|no longer using|cancelled|canceled)\\s+(?:my\\s+|our\\s+|the\\s+)?${E}`,
  'gi',
);
const NOT_ANYMORE = new RegExp(
  `\\b(?:not|don't|do not|stopped)\\s+(?:using|use)\\s+${E}\\s+(?:anymore|any more)`,
  'gi',
);
const ADOPT = new RegExp(
  `\\b(?:(?:started|starting|begun|began)\\s+(?:to\\s+use|using)|(?:switched|switching|moved|moving|migrated|migrating)\\s+(?:over\\s+|back\\s+)?to|(?:went|going|came|coming)\\s+back\\s+to(?:\\s+using)?|(?:I'm|I am|we're|we are|I've been|we've been)\\s+(?:now\\s+|currently\\s+|also\\s+|mostly\\s+)?using|(?:I|we)\\s+(?:now\\s+|mostly\\s+|mainly\\s+|also\\s+)?(?:use|rely on)|(?:I'm|I am|we're|we are)\\s+going\\s+(?:to\\s+go\\s+)?with|(?:I'm|I am|we're|we are)\\s+going\\s+to\\s+(?:use|adopt|add)|(?:I'll|we'll|I will|we will)\\s+(?:use|add|adopt|go with)|(?:I|we)\\s+(?:adopted|picked|chose|settled on|went with|installed|set up|added)|decided to (?:use|go with|switch to|adopt|move to|migrate to))\\s+(?:the\\s+)?${E}`,
  'gi',
);
const IT_IS = new RegExp(`^\\W*${E}\\s+it\\s+is\\b`, 'i');
const COMPONENT_IN = new RegExp(
  `^\\W*(?:the\\s+|our\\s+|my\\s+)?(backend|back-end|frontend|front-end|database|db|ui|api|server|auth|hosting|infra|mobile app|web app|app)\\s+(?:is\\s+|will be\\s+|in\\s+|on\\s+|with\\s+|using\\s+){1,2}${E}`,
  'i',
);
const STACK_LIST = /\b(?:stack|architecture|setup|tech stack)\b[^:]{0,60}:/i;
const PURPOSE = /^\s+(?:for|to build|to power|as)\s+((?:my|our|the)\s+)?([^.,;:!?]{3,50})/i;
const PERSONAL =
  /\b(?:my personal|personal (?:notes|use|stuff|projects?)|for myself|for my (?:notes|classes|own|journal))\b/i;

function isTool(m: Mention | undefined): m is Mention {
  return m?.type === 'tool';
}

/** What is still to come: "I'm going to use B", "we're going with B", "I'll add B". */
const FUTURE = /^(?:(?:I'm|I am|we're|we are)\s+going\b|(?:I'll|we'll|I will|we will)\b)/i;
/** What is going on: "I'm using B", "I've been using B", "we use B", "no longer using A", "ditching A". */
const PRESENT =
  /^(?:I'm|I am|we're|we are|I've been|we've been|(?:I|we)\s+(?:now\s+|mostly\s+|mainly\s+|also\s+)?(?:use|rely)\b|no longer\b|not\b|don't\b|do not\b|stop\b|\w+ing\b)/i;

function tenseOf(said: string): Event['tense'] {
  return FUTURE.test(said) ? 'future' : PRESENT.test(said) ? 'present' : 'past';
}

function collect(ctx: PatternContext): Event[] {
  const { s } = ctx;
  const events: Event[] = [];
  const masked = s.masked;
  const afterOf = (m: RegExpMatchArray): string => masked.slice((m.index ?? 0) + m[0].length);
  /** The clause of a match: its verb's start, the end of the last tool it names, and its tense. */
  const clause = (m: RegExpMatchArray, last: Mention): Pick<Event, 'start' | 'end' | 'tense'> => ({
    start: textIndex(s, m.index ?? 0),
    end: last.end,
    tense: tenseOf(m[0]),
  });
  /** "A to B", "B from A", "A with B": A dropped for B, B adopted in A's place, one clause. */
  const swap = (m: RegExpMatchArray, a: Mention | undefined, b: Mention | undefined): void => {
    if (!isTool(a) || !isTool(b)) return;
    const at = clause(m, a.end > b.end ? a : b);
    events.push({ tool: a, kind: 'dropped', replaced: b, ...at }, { tool: b, kind: 'adopted', replaced: a, ...at });
  };
  for (const m of masked.matchAll(SWITCH_FROM_TO)) swap(m, mentionOf(s, m[1]), mentionOf(s, m[2]));
  for (const m of masked.matchAll(SWITCH_TO_FROM)) swap(m, mentionOf(s, m[2]), mentionOf(s, m[1]));
  for (const m of masked.matchAll(REPLACED)) swap(m, mentionOf(s, m[1]), mentionOf(s, m[2]));
  for (const m of masked.matchAll(REPLACED_IT)) {
    const b = mentionOf(s, m[1]);
    if (isTool(b)) events.push({ tool: b, kind: 'adopted', ...clause(m, b) });
  }
  for (const re of [DROP, NOT_ANYMORE]) {
    for (const m of masked.matchAll(re)) {
      const a = mentionOf(s, m[1]);
      if (isTool(a)) events.push({ tool: a, kind: 'dropped', ...clause(m, a) });
    }
  }
  for (const m of masked.matchAll(ADOPT)) {
    const b = mentionOf(s, m[1]);
    const purpose = PURPOSE.exec(afterOf(m));
    if (isTool(b)) events.push({ tool: b, kind: 'adopted', purpose: purpose?.[2]?.trim(), ...clause(m, b) });
  }
  // Said as what the stack is ("Yjs it is", "Frontend in React", "our architecture: A, B"): going on now.
  const now = (tool: Mention): Pick<Event, 'start' | 'end' | 'tense'> => ({
    start: 0,
    end: tool.end,
    tense: 'present',
  });
  const itIs = IT_IS.exec(masked);
  const itIsTool = mentionOf(s, itIs?.[1]);
  if (isTool(itIsTool)) events.push({ tool: itIsTool, kind: 'adopted', ...now(itIsTool) });
  const component = COMPONENT_IN.exec(masked);
  const componentTool = mentionOf(s, component?.[2]);
  if (isTool(componentTool))
    events.push({
      tool: componentTool,
      kind: 'adopted',
      purpose: component?.[1]?.toLowerCase(),
      ...now(componentTool),
    });
  const stack = STACK_LIST.exec(s.text);
  if (stack) {
    const colon = stack.index + stack[0].length;
    for (const m of s.mentions)
      if (m.type === 'tool' && m.start >= colon) events.push({ tool: m, kind: 'adopted', ...now(m) });
  }
  return events;
}

/** Who uses the tool: the user for personal tools, else the project the sentence is about. */
function subjectFor(ctx: PatternContext, tool: Mention): string {
  const { s } = ctx;
  if (PERSONAL.test(s.text)) return s.self;
  const project = s.mentions.find((m) => m.type === 'project');
  if (project) return project.name;
  const category = ctx.registry.get(tool.name)?.category;
  if (ctx.focusProject && !(category && PERSONAL_CATEGORIES.has(category))) return ctx.focusProject;
  return s.self;
}

export function findToolEvents(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s) && !/^\W*(?:update|ok|so)\b/i.test(s.text)) return {};
  if (isHedged(s) && !/\bdecided\b/i.test(s.text)) return {};
  const events = collect(ctx);
  const seen = new Set<string>();
  const relationships: RelationshipFinding[] = [];
  const stateChanges: StateChangeFinding[] = [];
  for (const ev of events) {
    const key = `${ev.tool.name}|${ev.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const source = subjectFor(ctx, ev.tool);
    // Dated by a past time of its own clause (event-times.ts); a tool still to be taken up, the day it was said.
    const when = ev.tense === 'future' ? null : pastTimeOf(ctx, { ...ev, ongoing: ev.tense === 'present' });
    const eventTime = when?.eventTime;
    const said = when && eventTime ? ` (${when.text})` : '';
    const properties: Record<string, string> = {};
    if (ev.purpose) properties.for = ev.purpose;
    relationships.push({
      source,
      target: ev.tool.name,
      type: 'USES',
      properties,
      ended: ev.kind === 'dropped',
      confidence: 0.8,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
    const wasAdopted = ctx.registry.get(ev.tool.name)?.state.status === 'adopted';
    stateChanges.push({
      entityName: ev.tool.name,
      attribute: 'status',
      oldStateAspect: ev.kind === 'dropped' ? 'adopted' : undefined,
      newStateAspect: ev.kind,
      whatChanged:
        ev.kind === 'adopted'
          ? `Adopted ${ev.tool.name}${ev.replaced ? ` (replacing ${ev.replaced.name})` : ''}${source === s.self ? '' : ` for ${source}`}${said}`
          : `Dropped ${ev.tool.name}${ev.replaced ? ` for ${ev.replaced.name}` : ''}${source === s.self ? '' : ` in ${source}`}${said}`,
      isContradiction: ev.kind === 'dropped' && wasAdopted,
      confidence: 0.8,
      episodeId: s.episodeId,
      ...(eventTime ? { eventTime } : {}),
    });
  }
  return { relationships, stateChanges };
}
