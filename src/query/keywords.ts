/**
 * The searchable words of a question: question words, auxiliaries, pronouns and other stop words removed, so that
 * BM25 ranks by what the question is about ("How has my thinking about knowledge graphs evolved?" → "thinking
 * knowledge graphs evolved"). Pure.
 */
const STOP = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each few for from further had has have having he her here hers ' +
    'herself him himself his how i if in into is it its itself just let me more most my myself no nor not now of off ' +
    'on once only or other our ours ourselves out over own same she should so some such than that the their theirs ' +
    'them themselves then there these they this those through to too under until up very was we were what when where ' +
    'which while who whom why will with would you your yours yourself yourselves tell think thought know knew ' +
    'ever still really also much many get got going go went way things thing something anything lot ' +
    // Words that say what kind of question it is (intent, time) rather than what it is about: the planner reads
    // them, and as search words they match a large part of any history.
    'current currently state status usually typically normally changed change changes evolved evolve evolution ' +
    'connected connection related relationship happened happen ago recently lately last ' +
    // What is left of contractions once the apostrophe splits them ("I've" → "ve", "don't" → "don").
    've ll re don didn doesn isn aren wasn weren won wouldn couldn shouldn haven hasn hadn'
  ).split(' '),
);

export function questionKeywords(question: string, exclude: readonly string[] = []): string[] {
  let text = question;
  // Time references ("last spring", a period's name) are the temporal lane's job, not words to match.
  for (const span of exclude) if (span) text = text.split(span).join(' ');
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’']s\b/g, '')
    .split(/[^\p{L}\p{N}+#]+/u)
    .filter((w) => w.length > 1 || /\d/.test(w));
  const out: string[] = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    if (STOP.has(lower) || out.some((w) => w.toLowerCase() === lower)) continue;
    out.push(word);
  }
  return out;
}

/** The keywords as search text, or null when nothing is left to search for. */
export function keywordText(question: string, exclude: readonly string[] = []): string | null {
  const words = questionKeywords(question, exclude);
  return words.length > 0 ? words.join(' ') : null;
}

/**
 * A word's match key: lower case, accents dropped, its first five letters (a crude stem that makes "collecting",
 * "collection" and "collected" one key, as the full-text index's Porter stemmer would roughly do). Pure.
 */
export function matchKey(word: string): string {
  return keyForm(word).slice(0, 5);
}

/** The distinct match keys of the words, in order, those of two letters or more (the ones worth matching). Pure. */
export function matchKeys(words: readonly string[]): string[] {
  return [...new Set(words.map(matchKey).filter((k) => k.length >= 2))];
}

/** A text as match keys read it: accents dropped, lower case (matchKey then keeps a word's first five letters). */
function keyForm(text: string): string {
  // ASCII has no decompositions and no combining marks: normalizing it (the costly part) changes nothing.
  if (isAscii(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The match keys of a text's words (see matchKey). Pure. */
export function textKeys(text: string): Set<string> {
  return new Set(
    keyForm(text)
      .split(/[^\p{L}\p{N}]+/u)
      .map((w) => w.slice(0, 5)),
  );
}

/**
 * The keys the text's words have: the same as keys.filter((k) => textKeys(text).has(k)), without splitting the text
 * into a set of all its words (a question has a few keys, a turn some fifty words). In ASCII a key is found where it
 * starts a word and, unless it is a whole five-letter key (a longer word's stem), ends it. Pure.
 */
export function keysPresent(text: string, keys: readonly string[]): Set<string> {
  const form = keyForm(text);
  if (!isAscii(form) || !keys.every(isAsciiKey)) {
    const all = new Set(form.split(/[^\p{L}\p{N}]+/u).map((w) => w.slice(0, 5)));
    return new Set(keys.filter((k) => all.has(k)));
  }
  return new Set(keys.filter((k) => startsWord(form, k)));
}

const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/** One to five characters, each a-z or 0-9: a key an ASCII text's words can have. */
function isAsciiKey(key: string): boolean {
  if (key.length === 0 || key.length > 5) return false;
  for (let i = 0; i < key.length; i++) if (!isWordChar(key.charCodeAt(i))) return false;
  return true;
}

/** Whether some word of a lower-case ASCII text, cut to five characters, is the key (see isAsciiKey). */
function startsWord(form: string, key: string): boolean {
  for (let at = form.indexOf(key); at >= 0; at = form.indexOf(key, at + 1)) {
    const end = at + key.length;
    if (at > 0 && isWordChar(form.charCodeAt(at - 1))) continue;
    if (key.length === 5 || end === form.length || !isWordChar(form.charCodeAt(end))) return true;
  }
  return false;
}

/**
 * The share (0…1) of the keys that some word of the text has, each key counted by its weight (1 without weights:
 * see keyWeights). Pure.
 */
export function keyCoverage(text: string, keys: readonly string[], weights?: ReadonlyMap<string, number>): number {
  return keys.length === 0 ? 0 : presentCoverage(keysPresent(text, keys), keys, weights);
}

/** keyCoverage of a text whose keys are known (`present`: its textKeys). Pure. */
export function presentCoverage(
  present: ReadonlySet<string>,
  keys: readonly string[],
  weights?: ReadonlyMap<string, number>,
): number {
  if (keys.length === 0) return 0;
  const weight = (k: string) => weights?.get(k) ?? 1;
  const total = keys.reduce((n, k) => n + weight(k), 0);
  return total === 0 ? 0 : keys.filter((k) => present.has(k)).reduce((n, k) => n + weight(k), 0) / total;
}

/**
 * How much each key says about a turn: its inverse document frequency over the given turns (ln(N / df), at least
 * a tenth of the largest), so a word said in every other turn ("like", a speaker's name) counts less than the one
 * the question is about ("animal"). Pure.
 */
export function keyWeights(
  keys: readonly string[],
  texts: readonly string[],
  /** The texts' keys (textKeys), when the caller has them already. */
  keysOf: (text: string) => ReadonlySet<string> = textKeys,
): Map<string, number> {
  const df = new Map(keys.map((k) => [k, 0]));
  for (const text of texts) {
    // A key is the start of one of the text's words, so a text that does not contain any key has none, and its
    // words need not be read (most turns of a conversation have none of the question's words).
    const form = keyForm(text);
    if (!keys.some((k) => form.includes(k))) continue;
    const present = keysOf(text);
    for (const k of keys) if (present.has(k)) df.set(k, (df.get(k) ?? 0) + 1);
  }
  const n = Math.max(1, texts.length);
  const idf = new Map(keys.map((k) => [k, Math.log((n + 1) / ((df.get(k) ?? 0) + 0.5))]));
  const top = Math.max(1e-9, ...idf.values());
  return new Map([...idf].map(([k, v]) => [k, Math.max(v, top / 10)]));
}
