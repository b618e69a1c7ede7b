/**
 * The tense of the clause a time is said in: whether "on Friday", "on January 15th" or "in two weeks" speaks of what
 * is to come ("I'm flying out on Friday"), of what has been ("the boots I got on January 15th"), or says neither
 * ("any events in June?"), and which of a day's or a month's occurrences in several years that makes it. Read by the
 * weekday rules (relative.ts), holidays (holidays.ts) and days said without their year (compile/yearless-dates.ts).
 * Pure.
 */
import { NOT_AFTER_NAME_ABBREVIATION } from '../../domain/abbreviations.js';

/**
 * Words by which a clause speaks of what is to come: a will or a plan ("I'll", "going to", "planning to",
 * "thinking of", "can't wait"), or an arrangement in the present progressive ("I'm flying out", "we're having").
 */
const FUTURE_WORDS = new RegExp(
  [
    String.raw`\b(?:will|shall|gonna|forecast|upcoming|see you|let'?s|can'?t wait|cannot wait|looking forward)\b|\w'll\b`,
    // A plan said now, not one that was ("I was going to go on Friday but it rained"); "planning" after no "am" or
    // "is" (or "of": "thinking of planning") is a noun ("experience with event planning").
    String.raw`(?<!\b(?:was|were|had been)\s+)\b(?:going to|plan(?:s|ning)? (?:to|on)|(?:am|are|is|'m|'re|'s|of|about)\s+(?:\w+\s+)?planning|thinking (?:of|about)|intend(?:s|ing)? to|hop(?:e|es|ing) to|wants? to|would like to)\b`,
    // An arrangement in place now: "I have an EMG test scheduled", "I've booked a table", "it's scheduled for".
    String.raw`\b(?:have|has|'ve|am|are|is|'m|'re|'s)\s+(?:[\w-]+\s+){0,5}?(?:scheduled|booked|planned|set up|lined up|signed up)\b`,
    String.raw`\b(?:(?:am|are|is|'m|'re|'s)|(?:am|are|is)\s+(?:i|you|we|they|he|she))\s+(?:\w+ly\s+)?(?:going|heading|leaving|flying|driving|meeting|seeing|having|hosting|throwing|attending|visiting|coming|starting|doing|playing|taking|moving|travell?ing|running|performing|presenting|celebrating|scheduling)\b`,
  ].join('|'),
  'gi',
);

/**
 * A verb in the past ("that I got", "which I bought", "we had"): the nearest verb before a time says when it is, so a
 * plan about a thing done before ("I'm thinking of a shoe tree for the boots I got on January 15th") is no plan for
 * that day. After a determiner or a possessive the word is an adjective, not the clause's verb ("numbness in my left
 * hand", "the used car").
 */
const PAST_VERB =
  /(?<!\b(?:my|your|his|her|its|our|their|the|a|an)\s+)\b(?:was|were|had|did|got|bought|went|made|took|saw|met|ran|came|began|gave|found|left|sold|wore|won|lost|paid|sent|spent|wrote|read|heard|told|said|(?!(?:need|feed|speed|seed|indeed|breed|proceed|succeed|exceed|bed|red|shed|wed|bored|tired|excited|interested|scared|worried|pleased|thrilled|stressed|booked|scheduled|planned)\b)[a-z]{2,}ed)\b/gi;

/**
 * Where a clause ends: a sentence's end (not an abbreviation's point), a semicolon, a colon (not in "10:30": in "I'll
 * list them: March 18th, …" the will is the listing's, not March 18th's), a comma or dash before and / but / so, or
 * "but".
 */
const CLAUSE_END = new RegExp(
  String.raw`${NOT_AFTER_NAME_ABBREVIATION}[.!?;\n]|:(?!\d)|[,–—-]\s*(?:and|but|so)\b|\sbut\s`,
  'gi',
);

/** Does the clause around a weekday at [from, to) speak of what is to come (see clauseTense)? Pure. */
export function futureClause(text: string, from: number, to: number): boolean {
  return clauseTense(text, from, to) === 'future';
}

/**
 * Whether the clause around a time at [from, to) speaks of what is to come or of what has been, or says neither (no
 * will or plan, no verb in the past: "any events in June?"). The nearest such word before the time decides; when no
 * word but a preposition comes before it in its clause ("On Saturday I'm going …", "Over Easter we visited"), the words
 * after it. Pure.
 */
export function clauseTense(text: string, from: number, to: number): 'future' | 'past' | null {
  // A clause is short: reading a bounded stretch before the time keeps a long pasted text linear.
  const window = Math.max(0, from - CLAUSE_WINDOW);
  let start = window;
  for (const m of text.slice(window, from).matchAll(CLAUSE_END)) start = window + m.index + m[0].length;
  const before = text.slice(start, from).replace(/’/g, "'");
  const tense = nearest(before);
  if (
    tense !== null ||
    /\p{L}{3,}/u.test(before.replace(/\b(?:on|at|for|over|during|since|before|after|until|by|around|in|the)\b/gi, ''))
  )
    return tense;
  const rest = text.slice(to, to + CLAUSE_WINDOW);
  const end = rest.search(/[.!?;\n]/);
  return nearest((end < 0 ? rest : rest.slice(0, end)).replace(/’/g, "'"), 'first');
}

/** How far before (and after) a time its clause is read, in characters. */
const CLAUSE_WINDOW = 300;

/** The tense of the last (or first) will, plan or past verb in a text, or null when it has none. */
function nearest(text: string, which: 'last' | 'first' = 'last'): 'future' | 'past' | null {
  const marks = [
    ...[...text.matchAll(FUTURE_WORDS)].map((m) => ({ at: m.index, tense: 'future' as const })),
    ...[...text.matchAll(PAST_VERB)].map((m) => ({ at: m.index, tense: 'past' as const })),
  ].sort((a, b) => a.at - b.at);
  return (which === 'last' ? marks.at(-1) : marks[0])?.tense ?? null;
}

/**
 * Of the starts of the same day or month in several years (in order), the one a clause of that tense means: the
 * first from `now` on for what is to come, the latest up to it for what has been, the nearest when the clause says
 * neither ("any events in June?" said in May is this June).
 */
export function occurrenceFor(
  starts: readonly number[],
  now: number,
  tense: 'future' | 'past' | null,
): number | undefined {
  if (tense === 'future') return starts.find((s) => s >= now);
  if (tense === 'past') return [...starts].reverse().find((s) => s <= now);
  return [...starts].sort((a, b) => Math.abs(a - now) - Math.abs(b - now))[0];
}
