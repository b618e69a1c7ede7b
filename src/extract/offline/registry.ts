/**
 * The registry of names the extractor knows for a batch: the preamble's entities (their canonical names win, so
 * names stay stable across batches), the gazetteer, and entities discovered in the batch itself. It finds mentions
 * of them in a sentence, longest match first, honouring case sensitivity and the ambiguity rule.
 */
import { escapeRegExp } from '../../domain/text-match.js';
import type { EntityState } from '../../domain/world.js';
import type { Preamble, PreambleEntity } from '../types.js';
import type { Mention, MentionOrigin } from './findings.js';
import { gazetteerEntries, isAnyGazetteerForm, isCaseSensitiveForm, type GazetteerCategory } from './gazetteer.js';
import { NOT_A_NAME, TECH_CONTEXT, TITLES } from './lexicon.js';

export interface RegistryEntry {
  name: string;
  type: string;
  origin: MentionOrigin;
  category: GazetteerCategory | null;
  ambiguous: boolean;
  /** Matches only in a technical context or once the episode has named it (see the gazetteer's flag 'n'). */
  needsContext: boolean;
  state: EntityState;
  /** Every alias, including those discovered in this batch. */
  aliases: string[];
  /** Aliases the preamble already knows (so they are not emitted again). */
  knownAliases: string[];
}

/** An entity found in the batch before mentions are matched (projects, people, organizations, places, aliases). */
export interface DiscoveredName {
  name: string;
  type: string;
  aliases: string[];
}

export interface Registry {
  /** The entry for a canonical name or any of its forms (case-insensitive). */
  get(name: string): RegistryEntry | undefined;
  /** Mentions in a sentence; `seen` holds canonical names already mentioned in the episode. */
  find(text: string, seen?: ReadonlySet<string>): Mention[];
  all(): RegistryEntry[];
}

/** Entity types whose names are statements, not names: never matched in text. */
const STATEMENT_TYPES = new Set(['belief', 'decision', 'preference', 'commitment', 'period', 'event']);
const ORIGIN_RANK: Record<MentionOrigin, number> = { known: 0, batch: 1, gazetteer: 2 };

interface Form {
  text: string;
  entry: RegistryEntry;
  caseSensitive: boolean;
}

function preambleEntities(preamble: Preamble): PreambleEntity[] {
  const seen = new Map<string, PreambleEntity>();
  for (const list of [preamble.mentionedEntities, preamble.activeProjects, preamble.recentEntities]) {
    for (const e of list) if (!seen.has(e.name.toLowerCase())) seen.set(e.name.toLowerCase(), e);
  }
  return [...seen.values()];
}

/** First and last names of multi-word person names, as extra forms when they are unique among people. */
function personNameParts(entries: RegistryEntry[]): Map<string, RegistryEntry | null> {
  const parts = new Map<string, RegistryEntry | null>();
  for (const entry of entries) {
    if (entry.type !== 'person') continue;
    const tokens = entry.name.split(/\s+/);
    if (tokens.length < 2) continue;
    for (const token of [tokens[0], tokens[tokens.length - 1]]) {
      if (token === undefined || token.length < 3 || !/^\p{Lu}\p{Ll}+$/u.test(token)) continue;
      if (NOT_A_NAME.has(token.toLowerCase()) || isAnyGazetteerForm(token) || TITLES[token.toLowerCase()]) continue;
      const prior = parts.get(token);
      parts.set(token, prior === undefined || prior === entry ? entry : null);
    }
  }
  return parts;
}

export function buildRegistry(input: { preamble: Preamble; discovered: DiscoveredName[] }): Registry {
  const byKey = new Map<string, RegistryEntry>();
  const formOwner = new Map<string, RegistryEntry>();
  const forms: Form[] = [];
  const addForm = (text: string, entry: RegistryEntry, exact = false): void => {
    const t = text.trim();
    if (t.length < 2 || STATEMENT_TYPES.has(entry.type)) return;
    const caseSensitive = exact || isCaseSensitiveForm(t, entry.ambiguous);
    const key = caseSensitive ? t : t.toLowerCase();
    if (formOwner.has(key)) return;
    formOwner.set(key, entry);
    forms.push({ text: t, entry, caseSensitive });
  };

  const register = (entry: RegistryEntry, names: string[]): void => {
    for (const n of names) if (!byKey.has(n.toLowerCase())) byKey.set(n.toLowerCase(), entry);
  };
  for (const e of preambleEntities(input.preamble)) {
    const entry: RegistryEntry = {
      name: e.name,
      type: e.type,
      origin: 'known',
      category: null,
      ambiguous: false,
      needsContext: false,
      state: e.state,
      aliases: [...e.aliases],
      knownAliases: [...e.aliases],
    };
    register(entry, [e.name, ...e.aliases]);
  }
  for (const d of input.discovered) {
    const existing = byKey.get(d.name.toLowerCase());
    if (existing) {
      const fresh = d.aliases.filter((a) => !byKey.has(a.toLowerCase()));
      existing.aliases.push(...fresh);
      register(existing, fresh);
      continue;
    }
    const entry: RegistryEntry = {
      ...d,
      aliases: [...d.aliases],
      knownAliases: [],
      origin: 'batch',
      category: null,
      ambiguous: false,
      needsContext: false,
      state: {},
    };
    register(entry, [d.name, ...d.aliases]);
  }
  // Known and batch names first, so their forms win over the gazetteer's.
  for (const entry of new Set(byKey.values())) {
    addForm(entry.name, entry);
    for (const a of entry.aliases) addForm(a, entry);
  }
  for (const g of gazetteerEntries()) {
    const known = g.forms.map((f) => byKey.get(f.toLowerCase())).find((e) => e !== undefined);
    const entry: RegistryEntry = known
      ? Object.assign(known, {
          category: known.category ?? g.category,
          ambiguous: g.ambiguous && known.origin !== 'known',
          needsContext: g.needsContext && known.origin !== 'known',
        })
      : {
          name: g.name,
          type: g.type,
          origin: 'gazetteer',
          category: g.category,
          ambiguous: g.ambiguous,
          needsContext: g.needsContext,
          state: {},
          aliases: [],
          knownAliases: [],
        };
    if (!known) byKey.set(g.name.toLowerCase(), entry);
    for (const f of g.forms) {
      addForm(f, entry);
      if (!byKey.has(f.toLowerCase())) byKey.set(f.toLowerCase(), entry);
    }
  }
  // A first or last name alone is the person's only as written, with its capital: "Rice" is Tim Rice, "jollof
  // rice" is not (nor "will", "rose" or "grace").
  for (const [part, entry] of personNameParts([...new Set(byKey.values())])) {
    if (entry && !byKey.has(part.toLowerCase())) addForm(part, entry, true);
  }

  const compile = (list: Form[], flags: string): RegExp | null => {
    if (list.length === 0) return null;
    const body = [...list]
      .sort((a, b) => b.text.length - a.text.length)
      .map((f) => escapeRegExp(f.text))
      .join('|');
    return new RegExp(`(?<![\\p{L}\\p{N}_@#./\\\\-])(?:${body})(?![\\p{L}\\p{N}_]|[.\\-/][\\p{L}\\p{N}])`, flags);
  };
  const sensitive = compile(
    forms.filter((f) => f.caseSensitive),
    'gu',
  );
  const insensitive = compile(
    forms.filter((f) => !f.caseSensitive),
    'giu',
  );

  const find = (text: string, seen: ReadonlySet<string> = new Set()): Mention[] => {
    const candidates: Mention[] = [];
    for (const [re, caseSensitive] of [
      [sensitive, true],
      [insensitive, false],
    ] as const) {
      if (!re) continue;
      re.lastIndex = 0;
      for (const m of text.matchAll(re)) {
        const entry = formOwner.get(caseSensitive ? m[0] : m[0].toLowerCase());
        if (!entry) continue;
        const start = m.index;
        candidates.push({
          start,
          end: start + m[0].length,
          surface: m[0],
          name: entry.name,
          type: entry.type,
          origin: entry.origin,
        });
      }
    }
    candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin]);
    const chosen: Mention[] = [];
    for (const c of candidates) if (!chosen.some((x) => c.start < x.end && x.start < c.end)) chosen.push(c);
    chosen.sort((a, b) => a.start - b.start);
    const hasContext =
      TECH_CONTEXT.test(text) ||
      chosen.some((m) => m.type === 'tool' && byKey.get(m.name.toLowerCase())?.ambiguous === false);
    return chosen.filter((m) => {
      const entry = byKey.get(m.name.toLowerCase());
      if (!entry?.ambiguous) return true;
      if (hasContext || seen.has(m.name)) return true;
      const firstWord = text.slice(0, m.start).replace(/["'(\s]/g, '') === '';
      return !firstWord && !entry.needsContext;
    });
  };

  return {
    get: (name) => byKey.get(name.trim().toLowerCase()),
    find,
    all: () => [...new Set(byKey.values())],
  };
}
