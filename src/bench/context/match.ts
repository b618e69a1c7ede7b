import { MONTH_NAMES } from '../../domain/time.js';

/**
 * Answer-in-context matching (docs/evaluation.md "Answer in context"): is a gold answer written somewhere in a text?
 * Both sides are normalized the same way — lower case, accents dropped, punctuation to spaces, number words to
 * digits, ordinal suffixes dropped ("7th" → "7"), one space between words — and the answer must appear on word
 * boundaries. A date answer also matches in any common written order ("7 May 2023", "May 7, 2023", "2023-05-07");
 * a list answer ("pottery, camping and painting") matches only when every part does, and so may one whose parts are
 * joined by "and" alone ("clarinet and violin", see pairParts).
 */

const NUMBER_WORDS: Record<string, string> = {
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
  thirteen: '13',
  fourteen: '14',
  fifteen: '15',
  sixteen: '16',
  seventeen: '17',
  eighteen: '18',
  nineteen: '19',
  twenty: '20',
  thirty: '30',
  forty: '40',
  fifty: '50',
  sixty: '60',
  seventy: '70',
  eighty: '80',
  ninety: '90',
  hundred: '100',
  first: '1',
  second: '2',
  third: '3',
  fourth: '4',
  fifth: '5',
};

const MONTHS = MONTH_NAMES.map((m) => m.toLowerCase());

/** The normal form both answers and contexts are compared in. */
export function normalizeForMatch(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      // A day run into its month ("15April", "3June": LoCoMo's conversation 4 writes 19 answers so) is two words.
      .replace(/(\d)([a-z]{3,})/g, (whole, digit: string, word: string) =>
        MONTHS.some((m) => word.startsWith(m.slice(0, 3))) ? `${digit} ${word}` : whole,
      )
      // 1,200 and 1.5 keep their digits together; other punctuation separates words.
      .replace(/(\d)[,.](\d)/g, '$1$2')
      .replace(/['’]s\b/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .split(' ')
      .filter((w) => w !== '')
      .map((w) => NUMBER_WORDS[w] ?? w.replace(/^(\d+)(st|nd|rd|th)$/, '$1'))
      .join(' ')
  );
}

/** A comma or semicolon that separates parts (not one inside a number: "1,200"). */
const hasListSeparator = (answer: string): boolean => /[,;]/.test(answer.replace(/(\d),(\d)/g, '$1$2'));

/** The parts a list answer must all match: split at commas and semicolons (and a final "and" after a comma). */
export function answerParts(answer: string): string[] {
  if (!hasListSeparator(answer)) return [answer];
  return answer
    .replace(/(\d),(\d)/g, '$1$2')
    .split(/[;,]|,?\s+and\s+(?=[^,;]*$)/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

interface DateParts {
  day?: number;
  month: number;
  year?: number;
}

/** A normalized answer that is a date ("7 may 2023", "may 7 2023", "2023 5 7", "june 2023", "may 7"). */
export function parseDateAnswer(normalized: string): DateParts | null {
  const words = normalized.split(' ');
  if (words.length < 2 || words.length > 3) return null;
  const kinds = words.map((w) => {
    const month = MONTHS.findIndex((m) => w.length >= 3 && m.startsWith(w));
    if (month >= 0) return { kind: 'month' as const, value: month };
    if (!/^\d{1,4}$/.test(w)) return null;
    const value = Number(w);
    return { kind: value > 999 ? ('year' as const) : value >= 1 && value <= 31 ? ('day' as const) : null, value };
  });
  if (kinds.some((k) => k === null || k.kind === null)) return null;
  const shape = kinds.map((k) => k?.kind).join(' ');
  const v = kinds.map((k) => k?.value ?? 0);
  const [a = 0, b = 0, c = 0] = v;
  switch (shape) {
    case 'day month year':
      return { day: a, month: b, year: c };
    case 'month day year':
      return { day: b, month: a, year: c };
    case 'year day day':
      return b <= 12 ? { day: c, month: b - 1, year: a } : null;
    case 'month year':
      return { month: a, year: b };
    case 'day month':
      return { day: a, month: b };
    case 'month day':
      return { day: b, month: a };
    default:
      return null;
  }
}

/** Every written form of a date the context may use, normalized. */
export function dateForms(date: DateParts): string[] {
  const name = MONTHS[date.month] ?? '';
  const short = name.slice(0, 3);
  const mm = String(date.month + 1);
  const forms: string[] = [];
  for (const m of [name, short]) {
    if (date.day !== undefined && date.year !== undefined) {
      forms.push(`${date.day} ${m} ${date.year}`, `${m} ${date.day} ${date.year}`);
    } else if (date.day !== undefined) {
      forms.push(`${date.day} ${m}`, `${m} ${date.day}`);
    } else if (date.year !== undefined) {
      forms.push(`${m} ${date.year}`);
    }
  }
  if (date.day !== undefined && date.year !== undefined) {
    forms.push(
      `${date.year} ${mm.padStart(2, '0')} ${String(date.day).padStart(2, '0')}`,
      `${date.year} ${mm} ${date.day}`,
    );
  }
  return [...new Set(forms)];
}

/** Leading articles say nothing about the answer ("The Four Seasons" is found as "four seasons"). */
function stripArticle(normalized: string): string {
  return normalized.replace(/^(the|a|an) (?=\S)/, '');
}

function containsWords(haystack: string, needle: string): boolean {
  return needle !== '' && ` ${haystack} `.includes(` ${needle} `);
}

/** One part of an answer in an already normalized text. */
function partInText(part: string, text: string): boolean {
  const normalized = stripArticle(normalizeForMatch(part));
  if (normalized === '') return false;
  const date = parseDateAnswer(normalized);
  if (date) return dateForms(date).some((f) => containsWords(text, f));
  return containsWords(text, normalized);
}

/** "30 days. 31 days (including the last day) is also acceptable." → the answer and what else is accepted. */
const ALSO_ACCEPTABLE = /^(.+?)(?<!\b(?:mr|mrs|ms|dr|st|jr|sr))\.\s+(.+?)\s+(?:is|are)\s+also\s+acceptable\.?\s*$/i;
/** "Answers ranging from 6 days to 8 days": every count between, in that unit. */
const RANGING = /^(?:answers?\s+)?ranging\s+from\s+(\d+)\s+(\S+)\s+to\s+(\d+)\s+(\S+)$/i;
/** The widest range of counts a "ranging from" answer is read as (a wider one is left as written). */
const MAX_RANGE = 31;

/**
 * The answers a gold answer accepts: LongMemEval writes a second accepted answer after the first ("30 days. 31 days
 * (including the last day) is also acceptable."; "One week. Answers ranging from 6 days to 8 days are also
 * acceptable."), which is read as the first answer or the second, its parenthesis left out (a range as each count in
 * it). Any other answer is itself alone. Pure.
 */
export function answerAlternatives(answer: string): string[] {
  const m = ALSO_ACCEPTABLE.exec(answer.trim());
  if (!m) return [answer];
  const first = (m[1] ?? '').trim();
  const second = (m[2] ?? '')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const range = RANGING.exec(second);
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[3])];
    if (to >= from && to - from <= MAX_RANGE) {
      const unit = range[4] ?? '';
      return [first, ...Array.from({ length: to - from + 1 }, (_, i) => `${from + i} ${unit}`)];
    }
  }
  return second === '' ? [first] : [first, second];
}

/**
 * Is the answer in the text (every part of a list answer, dates in any written form; any of the answers it
 * accepts, see answerAlternatives)?
 */
export function answerInText(answer: string, text: string): boolean {
  const normalizedText = normalizeForMatch(text);
  return answerAlternatives(answer).some((alternative) =>
    [answerParts(alternative), pairParts(alternative)].some(
      (parts) => parts !== null && parts.length > 0 && parts.every((p) => partInText(p, normalizedText)),
    ),
  );
}

/** A quantity ("an hour and a half", "1 year and 5 months"): its "and" joins one amount, not two answers. */
const QUANTITY = /\d|\b(?:half|quarter|hours?|minutes?|seconds?|days?|weeks?|months?|years?)\b/;

/**
 * The parts of an answer that joins things with "and" (or "&") but no comma — "clarinet and violin", "Fetch and
 * Frisbee" — each of which may be written apart (the violin in one turn, the clarinet in another), as a listed answer's
 * parts may. Null for an answer with a comma or semicolon (answerParts splits it), without "and", or that is a
 * quantity. Read beside the whole answer: "Pride and Prejudice" written whole is a hit either way. Pure.
 */
export function pairParts(answer: string): string[] | null {
  if (hasListSeparator(answer)) return null;
  if (QUANTITY.test(normalizeForMatch(answer))) return null;
  const parts = answer
    .split(/\s+(?:and|&)\s+/i)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.length > 1 ? parts : null;
}

/**
 * The part of a context a hit may come from. Left out: PIE's "Question:" header line (cut after 30 words) and the
 * question wherever else the context repeats it, so "which came first, A or B?" is not found in its own echo; the
 * question's phrases quoted in the "Time asked about" and "Time between/since" lines (the dates and spans stay); citation and chunk
 * numbers ("[3]", "[1, 4]"); and the conversations' titles (a dataset's labels, such as "session 3", not what anyone
 * said); and list items' numbers (LIST_NUMBER). Applied to every system alike.
 */
export function contextBody(text: string, input: { question: string; titles?: readonly string[] }): string {
  let body = text
    .replace(/^Question: .*$/m, ' ')
    .replace(/^Time asked about: .*$/m, (line) => line.replace(/"[^"]*" =/g, '='))
    .replace(/^Time (?:between|since) what the question names.*$/m, (line) => line.replace(/“[^”]*”/g, ' '));
  const question = input.question.trim();
  if (question !== '') body = body.replaceAll(question, ' ');
  const titles = [...new Set(input.titles ?? [])].filter((t) => t.trim() !== '').sort((a, b) => b.length - a.length);
  for (const title of titles) body = body.replaceAll(title, ' ');
  return body.replace(/\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]/g, ' ').replace(LIST_NUMBER, '$1 ');
}

/**
 * A list item's number ("2. **Honey**", "3) Rest", "… 4. Use search engines"): at a line's start or after a sentence's
 * end, followed by a space. It numbers an item and states no count, yet an assistant's numbered list holds every small
 * number, so "How many charity events did I join?" (4) was found in a list of event ideas.
 */
const LIST_NUMBER = /(^[ \t]*|[.!?:…][ \t]+)\d{1,3}[.)](?=\s)/gm;

/** Words of the answer's normal form: a "short" answer (≤ 6 words a part) is one a context can hold verbatim. */
export function isShortAnswer(answer: string, maxWords = 6): boolean {
  return answerAlternatives(answer).every((alternative) => {
    const parts = answerParts(alternative);
    return parts.length > 0 && parts.every((p) => normalizeForMatch(p).split(' ').filter(Boolean).length <= maxWords);
  });
}

/** An answer that is only a number up to 31 ("3", "two", "12th"): one most contexts hold by chance. */
export function isBareNumber(answer: string): boolean {
  const normalized = normalizeForMatch(answerAlternatives(answer)[0] ?? answer);
  return /^\d{1,2}$/.test(normalized) && Number(normalized) <= 31;
}
