/**
 * compromise, loaded lazily (its lexicon is built on import), behind the small surface the extractor uses:
 * tagged spans for people, organizations and places.
 */

export interface NlpTerm {
  text: string;
  tags: string[];
  start: number;
  length: number;
}

export interface NlpSpan {
  kind: 'person' | 'organization' | 'place';
  start: number;
  end: number;
  terms: NlpTerm[];
  /** The word right after the span, when only spaces stand between ("Pearl Izumi cycling gloves": "cycling"). */
  next?: NlpTerm;
}

/** A verb phrase compromise found, with where it is in the sentence. */
export interface NlpVerb {
  start: number;
  end: number;
  /** "sign up", "go", "paint". */
  infinitive: string;
  tense: 'past' | 'present' | 'future' | 'other';
  /** compromise's form: "simple-past", "present-progressive", "present-perfect" … ("" when it gives none). */
  form: string;
  copula: boolean;
  negative: boolean;
}

/** Tagged spans in a sentence, and what compromise's lexicon knows about a single word. */
export interface SpanTagger {
  spans(text: string): NlpSpan[];
  /** The verb phrases of a sentence (compromise's verbs()). */
  verbs(text: string): NlpVerb[];
  /** Tags of the lowercased word in compromise's lexicon; empty when the word is unknown to it. */
  lexicon(word: string): string[];
  /**
   * Whether a verb's past is written as the word itself ("quit", "set", "cut", "put"): compromise reads such a verb
   * after "I" as present ("I quit my job last Friday"), so only a time can tell its tense. By compromise's conjugation.
   */
  ownPast(infinitive: string): boolean;
}

interface CompromiseDoc {
  match(pattern: string): CompromiseDoc;
  verbs(): CompromiseDoc;
  json(options?: object): unknown;
}
interface Compromise {
  (text: string): CompromiseDoc;
  model(): unknown;
  methods(): unknown;
}

let loading: Promise<SpanTagger> | null = null;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function readTerm(raw: unknown): NlpTerm | null {
  if (!isRecord(raw) || typeof raw.text !== 'string' || !Array.isArray(raw.tags) || !isRecord(raw.offset)) return null;
  const { start, length } = raw.offset;
  if (typeof start !== 'number' || typeof length !== 'number') return null;
  return { text: raw.text, tags: raw.tags.filter((t): t is string => typeof t === 'string'), start, length };
}

/** Every term of compromise's json of a document, in order. */
function readTerms(json: unknown): NlpTerm[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((item) =>
    isRecord(item) && Array.isArray(item.terms) ? item.terms.map(readTerm).filter((t): t is NlpTerm => t !== null) : [],
  );
}

/** Punctuation after a term that ends a name: compromise runs a tag match across "Madrid, Barcelona, and …". */
const LIST_BREAK = /[,;/]/;

function readSpans(json: unknown, kind: NlpSpan['kind']): NlpSpan[] {
  if (!Array.isArray(json)) return [];
  const spans: NlpSpan[] = [];
  const push = (terms: readonly NlpTerm[]): void => {
    const first = terms[0];
    const last = terms[terms.length - 1];
    if (first && last) spans.push({ kind, start: first.start, end: last.start + last.length, terms: [...terms] });
  };
  for (const item of json) {
    if (!isRecord(item) || !Array.isArray(item.terms)) continue;
    // One span per listed name: a term followed by a comma (semicolon, slash) ends it.
    let run: NlpTerm[] = [];
    for (const raw of item.terms) {
      const term = readTerm(raw);
      if (term === null) continue;
      run.push(term);
      if (isRecord(raw) && typeof raw.post === 'string' && LIST_BREAK.test(raw.post)) {
        push(run);
        run = [];
      }
    }
    push(run);
  }
  return spans;
}

/** A particle compromise leaves as the root after an auxiliary "got" ("got back", "got up"). */
const GOT_PARTICLE = /^(?:back|up|out|off|away|down|over|around)$/;

function readVerb(raw: unknown, sentence: string): NlpVerb | null {
  if (!isRecord(raw) || !isRecord(raw.offset) || !isRecord(raw.verb) || typeof raw.text !== 'string') return null;
  const { length } = raw.offset;
  let { start } = raw.offset;
  // compromise counts offsets in its own normalization of contractions ("I'm" → "I am"): find the words near there.
  const surface = raw.text.trim().replace(/[.,!?;:]+$/, '');
  if (typeof start === 'number' && surface !== '') {
    const found = sentence.indexOf(surface, Math.max(0, start - 4));
    if (found >= 0 && found <= start + 4) start = found;
  }
  const { grammar, negative, auxiliary, infinitive: root } = raw.verb;
  if (typeof start !== 'number' || typeof length !== 'number' || typeof root !== 'string') return null;
  // compromise reads "got" before a particle as an auxiliary ("we just got back from camping": root "back", present
  // tense); it is the phrasal verb "get back", in the past.
  const got = typeof auxiliary === 'string' && /^got$/i.test(auxiliary.trim()) && GOT_PARTICLE.test(root);
  const infinitive = got ? `get ${root}` : root;
  const read = isRecord(grammar) ? grammar : {};
  const g = got ? { ...read, tense: 'PastTense', form: 'simple-past' } : read;
  const tense =
    g.tense === 'PastTense'
      ? 'past'
      : g.tense === 'PresentTense'
        ? 'present'
        : g.tense === 'FutureTense'
          ? 'future'
          : 'other';
  const form = typeof g.form === 'string' ? g.form : '';
  const end =
    typeof start === 'number' && surface !== '' && sentence.startsWith(surface, start)
      ? start + surface.length
      : start + length;
  return { start, end, infinitive, tense, form, copula: g.copula === true, negative: negative === true };
}

function lexiconOf(nlp: Compromise): Record<string, unknown> {
  const model = nlp.model();
  if (!isRecord(model) || !isRecord(model.one) || !isRecord(model.one.lexicon)) return {};
  return model.one.lexicon;
}

/** compromise's verb conjugation (infinitive → forms), or null when this version has none where expected. */
function conjugatorOf(nlp: Compromise): ((infinitive: string) => Record<string, unknown>) | null {
  const methods = nlp.methods();
  const model = nlp.model();
  if (!isRecord(methods) || !isRecord(methods.two) || !isRecord(methods.two.transform)) return null;
  const verb = methods.two.transform.verb;
  if (!isRecord(verb) || typeof verb.conjugate !== 'function') return null;
  const conjugate = verb.conjugate as (word: string, model: unknown) => unknown;
  return (infinitive) => {
    const forms = conjugate(infinitive, model);
    return isRecord(forms) ? forms : {};
  };
}

function taggerFrom(nlp: Compromise): SpanTagger {
  const options = { offset: true, terms: { offset: true } };
  const lexicon = lexiconOf(nlp);
  const conjugate = conjugatorOf(nlp);
  const ownPast = new Map<string, boolean>();
  return {
    spans(text) {
      const doc = nlp(text);
      const spans = [
        ...readSpans(doc.match('#Person+').json(options), 'person'),
        ...readSpans(doc.match('#Organization+').json(options), 'organization'),
        ...readSpans(doc.match('#Place+').json(options), 'place'),
      ];
      if (spans.length === 0) return spans;
      const terms = readTerms(doc.json(options));
      return spans.map((span) => {
        const next = terms.find((t) => t.start >= span.end);
        return next && /^\s+$/.test(text.slice(span.end, next.start)) ? { ...span, next } : span;
      });
    },
    verbs(text) {
      const out: NlpVerb[] = [];
      const items = nlp(text).verbs().json(options);
      if (!Array.isArray(items)) return out;
      for (const item of items) {
        const verb = readVerb(item, text);
        if (verb) out.push(verb);
      }
      return out;
    },
    lexicon(word) {
      const tags = lexicon[word.toLowerCase()];
      if (typeof tags === 'string') return [tags];
      return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [];
    },
    ownPast(infinitive) {
      const word = infinitive.toLowerCase();
      if (!/^[a-z]+$/.test(word) || conjugate === null) return false;
      let known = ownPast.get(word);
      if (known === undefined) {
        known = conjugate(word).PastTense === word;
        ownPast.set(word, known);
      }
      return known;
    },
  };
}

/** The compromise-backed tagger, loaded on first call. */
/** Tags compromise's lexicon gives a noun ("boots", "party", "advice"), for `SpanTagger.lexicon`. */
export const NOUN_TAGS: readonly string[] = ['Noun', 'Singular', 'Plural', 'Uncountable'];

export function loadSpanTagger(): Promise<SpanTagger> {
  loading ??= import('compromise').then((mod) => taggerFrom(mod.default as unknown as Compromise));
  return loading;
}
