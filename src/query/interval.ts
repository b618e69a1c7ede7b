import { matchKeys, questionKeywords } from './keywords.js';

/**
 * A question that asks how much time lies between two things, or since one: "How many days passed between the
 * Sunday mass and the Ash Wednesday service?", "How many weeks after I moved did I start the new job?", "How many
 * days ago did I buy the bike?". The answer is a count of days the model should not have to work out from two
 * dates (pie-paper §4.1), so the context writes it beside the turns that date each end (compile/interval.ts).
 */
export interface IntervalQuestion {
  /** The unit the question counts in. */
  unit: 'days' | 'weeks' | 'months' | 'years';
  /** Each end as the question words it (one end: the other is the question's "now"). */
  ends: IntervalEnd[];
}

export interface IntervalEnd {
  /** The question's words for it ("the Sunday mass at St. Mary's Church"). */
  text: string;
  /** Its match keys (keywords.ts), to find the turn that best matches it. */
  keys: string[];
}

const COUNT = String.raw`how\s+(?:many\s+(days?|weeks?|months?|years?)|long|much\s+time)`;
const PASSED = String.raw`(?:\s+(?:had|have|has|did|would)?\s*(?:passed|elapsed|gone\s+by|been|there\s+been|it\s+been|were\s+there|was\s+it|it\s+take|take\s+me|did\s+it\s+take))?`;

/** "… between A and B" (the first "and" splits: the question words the first end shortly). */
const BETWEEN = new RegExp(String.raw`^${COUNT}${PASSED}.*?\bbetween\s+(.+?)\s+and\s+(.+)$`, 'i');
/** "… since / after A (when | until | before | did | that | was | were) B". */
const SINCE = new RegExp(
  String.raw`^${COUNT}${PASSED}\s+(?:since|after)\s+(.+?)\s+(?:when|until|till|before|did|that|was|were)\s+(.+)$`,
  'i',
);
/** "… before A did B" reads the other way round: B came first. */
const BEFORE = new RegExp(String.raw`^${COUNT}${PASSED}\s+before\s+(.+?)\s+(?:did|had|was|were)\s+(.+)$`, 'i');
/** "… did it take (me) to B after A". */
const TAKE = new RegExp(
  String.raw`^${COUNT}\s+did\s+it\s+take\s+(?:for\s+)?(?:me|us|him|her|them|you)?\s*to\s+(.+?)\s+(?:after|since|from)\s+(.+)$`,
  'i',
);
/** "… since A" alone: the other end is now. */
const SINCE_NOW = new RegExp(String.raw`^${COUNT}${PASSED}\s+since\s+(.+)$`, 'i');
/** "… ago did I A" / "… ago was A". */
const AGO = new RegExp(String.raw`^${COUNT}\s+ago\s+(?:did|was|were|had|have)\s+(.+)$`, 'i');

/** The interval a question asks for, or null when it asks for none (or an end has no searchable word). Pure. */
export function questionInterval(question: string, exclude: readonly string[] = []): IntervalQuestion | null {
  const text = question
    .trim()
    .replace(/[?.!\s]+$/, '')
    .replace(/\s+/g, ' ');
  const unitOf = (word: string | undefined): IntervalQuestion['unit'] => {
    const w = (word ?? 'days').toLowerCase();
    return (w.endsWith('s') ? w : `${w}s`) as IntervalQuestion['unit'];
  };
  const make = (unit: string | undefined, texts: string[]): IntervalQuestion | null => {
    const ends = texts.map((t) => ({ text: t.trim(), keys: matchKeys(questionKeywords(t, exclude)) }));
    if (ends.some((e) => e.keys.length === 0)) return null;
    return { unit: unitOf(unit), ends };
  };
  let m = BETWEEN.exec(text);
  if (m) return make(m[1], [m[2] ?? '', m[3] ?? '']);
  m = AGO.exec(text);
  if (m) return make(m[1], [m[2] ?? '']);
  m = BEFORE.exec(text);
  if (m) return make(m[1], [m[3] ?? '', m[2] ?? '']);
  m = TAKE.exec(text);
  if (m) return make(m[1], [m[3] ?? '', m[2] ?? '']);
  m = SINCE.exec(text);
  if (m) return make(m[1], [m[2] ?? '', m[3] ?? '']);
  m = SINCE_NOW.exec(text);
  if (m) return make(m[1], [m[2] ?? '']);
  return null;
}
