import {
  isPronoun,
  leadingClause,
  leadingPhrase,
  sentences,
  statedTime,
  type Language,
  type StatedTime,
} from './phrases.js';

/**
 * Statements of a dated change or fact in the user's own turns (docs/evaluation.md "Personal benchmark"): "I
 * switched from X to Y", "I replaced X with Y", "we went with Y instead of X", "we pivoted P from X to Y", "I started
 * using X", "I'm using X now", "I stopped using X", "I moved to <place>", "I decided to …", and what someone thinks,
 * doubts or no longer thinks. Only first-person statements count ("I" or "we" as the subject of the clause); a
 * question, a condition or a wish ("if I switched…", "should I move to…?") states nothing. Pure, given compromise.
 */

export type StatementKind = 'change' | 'start' | 'stop' | 'move' | 'decide' | 'belief';

/** A user turn as the generator reads it: raw text and when it was said. */
export interface HistoryTurn {
  episodeId: string;
  seq: number;
  /** The turn's time, or its conversation's when it has none. */
  time: number;
  text: string;
}

export interface Statement {
  kind: StatementKind;
  subject: 'I' | 'we';
  turn: HistoryTurn;
  sentence: string;
  /** The frame's verb in its base form: "switch", "replace", "choose", "pivot", "start using", "decide to use"… */
  verb: string;
  old?: string;
  new?: string;
  /** What was pivoted ("Tidepool"). */
  topic?: string;
  /** What a tool is used for ("my personal notes"). */
  purpose?: string;
  /** What was started or decided ("my gap semester", "take a gap semester in San Francisco"); a belief's claim. */
  phrase?: string;
  stance?: 'holds' | 'now-holds' | 'doubts' | 'rejects';
  when: StatedTime;
}

type Draft = Omit<Statement, 'subject' | 'turn' | 'sentence' | 'when'>;

interface Frame {
  body: string;
  build(groups: string[], lang: Language): Draft | null;
}

/** The clause's subject: "I" or "we" at the start of the sentence or of a clause. */
const WHO = String.raw`(?<![\p{L}\p{N}'])(I|we)`;
const ADVERBS = String.raw`(?:'ve|'d)?(?:\s+(?:have|had|just|finally|officially|recently|already|also|actually|completely|eventually|then|now|totally))*`;
const BE = String.raw`(?:'m|'re|am|are)`;

const thing = (text: string | undefined): string | null => {
  const p = leadingPhrase(text ?? '');
  return p && !isPronoun(p) ? p : null;
};

/** "for my personal notes" after a tool, or "For the backend, I…" before the subject. */
function purposeAfter(rest: string | undefined): string | undefined {
  const m = /^\S+(?:\s+\S+)*?\s+for\s+(.+)$/i.exec(rest ?? '');
  const p = m ? leadingPhrase(m[1] ?? '', 5) : null;
  return p ?? undefined;
}

const BASE_STOP: Record<string, string> = {
  stopped: 'stop using',
  quit: 'quit',
  dropped: 'drop',
  'gave up': 'give up',
  'gave up on': 'give up on',
};
const BASE_CHANGE: Record<string, string> = {
  switched: 'switch',
  moved: 'move',
  migrated: 'migrate',
  changed: 'change',
  went: 'go',
};

/** In priority order: of the frames matching at the same subject, the first wins. */
const FRAMES: readonly Frame[] = [
  {
    body: String.raw`(pivoted|turned|changed)\s+(?!from\b)(\S.*?)\s+from\s+(.+?)\s+(?:to|into)\s+(.+)`,
    build: ([, topic, old, next]) => {
      const t = thing(topic);
      const o = thing(old);
      const n = thing(next);
      return t && o && n ? { kind: 'change', verb: 'pivot', topic: t, old: o, new: n } : null;
    },
  },
  {
    body: String.raw`(switched|moved|migrated|changed|went)\s+(?:over\s+)?from\s+(.+?)\s+(?:over\s+)?(?:to|into)\s+(.+)`,
    build: ([verb, old, next]) => {
      const o = thing(old);
      const n = thing(next);
      const purpose = purposeAfter(next);
      return o && n
        ? { kind: 'change', verb: BASE_CHANGE[verb?.toLowerCase() ?? ''] ?? 'switch', old: o, new: n, purpose }
        : null;
    },
  },
  {
    body: String.raw`replaced\s+(.+?)\s+with\s+(.+)`,
    build: ([old, next]) => {
      const o = leadingPhrase(old ?? '');
      const n = thing(next);
      return o && n ? { kind: 'change', verb: 'replace', old: o, new: n } : null;
    },
  },
  {
    body: String.raw`(?:decided\s+to\s+|chose\s+to\s+)?(?:use|go\s+with|went\s+with|chose|picked|switched\s+to)\s+(.+?)\s+instead\s+of\s+(.+)`,
    build: ([next, old]) => {
      const o = thing(old);
      const n = thing(next);
      return o && n ? { kind: 'change', verb: 'choose', old: o, new: n } : null;
    },
  },
  {
    body: String.raw`(?:started|began)\s+(?:using|to\s+use)\s+(.+)`,
    build: ([next]) => tool('start using', next),
  },
  {
    body: String.raw`(?:decided\s+to\s+use|${BE}\s+going\s+to\s+use)\s+(.+)`,
    build: ([next]) => tool('decide to use', next),
  },
  { body: String.raw`${BE}\s+now\s+using\s+(.+)`, build: ([next]) => tool('use', next) },
  { body: String.raw`${BE}\s+using\s+(.+?)\s+now\b.*`, build: ([next]) => tool('use', next) },
  {
    body: String.raw`(?:started|began)\s+(?!using\b|to\b|with\b|on\b|at\b|in\b|off\b|out\b)(.+)`,
    build: ([phrase], lang) => {
      const p = thing(phrase);
      if (!p) return null;
      const tags = lang.tags(p);
      return tags.startsWithVerb || tags.temporal ? null : { kind: 'start', verb: 'start', phrase: p };
    },
  },
  {
    body: String.raw`(stopped|quit|dropped|gave\s+up(?:\s+on)?)\s+(?:using\s+)?(.+)`,
    build: ([verb, old]) => {
      const o = thing(old);
      const base = BASE_STOP[(verb ?? '').toLowerCase().replace(/\s+/g, ' ')];
      return o && base ? { kind: 'stop', verb: base, old: o } : null;
    },
  },
  {
    body: String.raw`(?:moved|relocated)\s+(?:back\s+)?to\s+(.+)`,
    build: ([place], lang) => {
      const p = thing(place);
      if (!p) return null;
      const tags = lang.tags(p);
      return tags.place || tags.proper ? { kind: 'move', verb: 'move', new: p } : null;
    },
  },
  {
    body: String.raw`decided\s+to\s+(.+)`,
    build: ([rest], lang) => {
      const p = leadingClause(rest ?? '');
      return p && lang.tags(p).startsWithVerb ? { kind: 'decide', verb: 'decide to', phrase: p } : null;
    },
  },
  {
    body: String.raw`(?:no\s+longer|don't|do\s+not)\s+(?:think|believe)\s+(?:that\s+)?(.+)`,
    build: ([claim], lang) => belief('rejects', claim, lang),
  },
  {
    body: String.raw`(?:'m|\s+am)?\s*(?:starting|beginning|started|began)\s+to\s+doubt\s+(?:my\s+assumption\s+|my\s+belief\s+|the\s+idea\s+)?(?:that\s+)?(.+)`,
    build: ([claim], lang) => belief('doubts', claim, lang),
  },
  {
    body: String.raw`now\s+(?:think|believe)\s+(?:that\s+)?(.+)`,
    build: ([claim], lang) => belief('now-holds', claim, lang),
  },
  {
    body: String.raw`(?:still\s+)?(?:think|believe)\s+(?:that\s+)?(.+)`,
    build: ([claim], lang) => belief('holds', claim, lang),
  },
];

function tool(verb: string, next: string | undefined): Draft | null {
  const n = thing(next);
  return n ? { kind: 'start', verb, new: n, purpose: purposeAfter(next) } : null;
}

function belief(stance: NonNullable<Statement['stance']>, claim: string | undefined, lang: Language): Draft | null {
  const c = leadingClause(claim ?? '', 16);
  if (!c || c.split(/\s+/).length < 3 || !lang.hasVerb(c)) return null;
  return { kind: 'belief', verb: 'think', phrase: c, stance };
}

const COMPILED = FRAMES.map((f) => ({ ...f, re: new RegExp(`${WHO}${ADVERBS}\\s*${f.body}`, 'gidu') }));

/** A condition, a wish or a question before the statement: nothing is stated. */
const HYPOTHETICAL =
  /\b(?:if|whether|should|would|could|might|maybe|perhaps|wish|hope|unless|want to|wants to|plan to|thinking about|considering)\b/i;
/** Turns worth reading with compromise (most turns state none of the frames). */
const HINT =
  /\b(?:switched|moved|migrated|changed|went|replaced|instead|pivoted|turned|started|began|stopped|quit|dropped|gave up|relocated|decided|think|believe|doubt|using|going to use)\b/i;
const SUBJECT = /(?<![\p{L}\p{N}'])(?:I|we)(?![\p{L}\p{N}])/iu;
/** "For the backend I'm going to use Firebase": a purpose before the subject. */
const LEADING_PURPOSE = /^for\s+(.+?),?\s+(?:I|we)\b/i;

/** The statements of one user turn, in the order they are said. */
export function findStatements(input: { turn: HistoryTurn; tz: string; lang: Language }): Statement[] {
  const { turn, tz, lang } = input;
  if (!HINT.test(turn.text)) return [];
  const out: Statement[] = [];
  for (const raw of sentences(turn.text)) {
    const sentence = raw.replace(/[’‘]/g, "'");
    if (/\?\s*$/.test(sentence) || !HINT.test(sentence) || !SUBJECT.test(sentence)) continue;
    const taken = new Set<number>();
    const found: { at: number; statement: Statement }[] = [];
    for (const frame of COMPILED) {
      for (const m of sentence.matchAll(frame.re)) {
        const who = m[1] ?? '';
        const at = m.indices?.[1]?.[0] ?? m.index;
        if (taken.has(at) || HYPOTHETICAL.test(sentence.slice(0, at))) continue;
        const draft = frame.build(m.slice(2), lang);
        if (!draft) continue;
        taken.add(at);
        const purpose = draft.purpose ?? (draft.new ? leadingPurpose(sentence) : undefined);
        found.push({
          at,
          statement: {
            ...withoutUndefined({ ...draft, purpose }),
            subject: who.toLowerCase() === 'we' ? 'we' : 'I',
            turn,
            sentence,
            // The date of what the clause tells, not of another clause ("… instead of going back in January").
            when: statedTime({ sentence: leadingClause(sentence.slice(at), 40) ?? '', at: turn.time, tz }),
          },
        });
      }
    }
    out.push(...found.sort((a, b) => a.at - b.at).map((f) => f.statement));
  }
  return resolvePronouns(out);
}

function leadingPurpose(sentence: string): string | undefined {
  const m = LEADING_PURPOSE.exec(sentence);
  return (m && leadingPhrase(m[1] ?? '', 5)) ?? undefined;
}

/** "I stopped using LangChain. I replaced it with plain SDK calls": "it" is the thing the turn named last. */
function resolvePronouns(statements: Statement[]): Statement[] {
  const out: Statement[] = [];
  for (const s of statements) {
    if (s.old === undefined || !isPronoun(s.old)) {
      out.push(s);
      continue;
    }
    const before = [...out].reverse().find((p) => p.old !== undefined || p.new !== undefined);
    const named = before?.old ?? before?.new;
    if (named) out.push({ ...s, old: named });
  }
  return out;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
