/**
 * The gazetteer: known tools, technologies, products, companies and universities (tables in ./gazetteer-data*.ts).
 * Looks names up by any of their forms; builds its index lazily on first use.
 */
import { ORGANIZATION_ROWS, PLACE_ROWS, PRODUCT_ROWS } from './gazetteer-data-2.js';
import { TOOL_ROWS, type GazetteerCategory, type GazetteerRow } from './gazetteer-data.js';

export type { GazetteerCategory } from './gazetteer-data.js';

export interface GazetteerEntry {
  name: string;
  type: 'tool' | 'organization' | 'place';
  category: GazetteerCategory;
  /** Every form, the canonical name first. */
  forms: string[];
  /** A common word or first name: matches only with exact capitalization, mid-sentence or in a tech context. */
  ambiguous: boolean;
  /** Also a common name or word outside technology: matches only in a tech context or after an earlier mention. */
  needsContext: boolean;
}

/** Categories of tools a person uses for themselves rather than for a project they build. */
export const PERSONAL_CATEGORIES: ReadonlySet<GazetteerCategory> = new Set([
  'notes',
  'productivity',
  'communication',
  'design',
  'os',
  'editor',
  'ai-product',
  'platform',
]);

interface GazetteerIndex {
  entries: GazetteerEntry[];
  /** Lowercased form → entries (for case-insensitive forms). */
  byLowerForm: Map<string, GazetteerEntry>;
  /** Exact form → entry (for case-sensitive forms). */
  byExactForm: Map<string, GazetteerEntry>;
  /** Every form, lowercased. */
  anyForm: Set<string>;
}

let index: GazetteerIndex | null = null;

function toEntry(row: GazetteerRow): GazetteerEntry {
  const [name, category, aliases = [], flag] = row;
  const forms = [name, ...aliases.filter((a) => a !== name)];
  const type =
    category === 'company' || category === 'university' ? 'organization' : category === 'place' ? 'place' : 'tool';
  return { name, type, category, forms, ambiguous: flag === 'a' || flag === 'n', needsContext: flag === 'n' };
}

/** A form that must match with its exact capitalization. */
export function isCaseSensitiveForm(form: string, ambiguous: boolean): boolean {
  return ambiguous || form.length <= 3 || /^[A-Z0-9]{2,6}$/.test(form);
}

function buildIndex(): GazetteerIndex {
  const entries = [...TOOL_ROWS, ...PRODUCT_ROWS, ...ORGANIZATION_ROWS, ...PLACE_ROWS].map(toEntry);
  const byLowerForm = new Map<string, GazetteerEntry>();
  const byExactForm = new Map<string, GazetteerEntry>();
  const anyForm = new Set<string>();
  for (const entry of entries) {
    for (const form of entry.forms) {
      anyForm.add(form.toLowerCase());
      if (isCaseSensitiveForm(form, entry.ambiguous)) {
        if (!byExactForm.has(form)) byExactForm.set(form, entry);
      } else if (!byLowerForm.has(form.toLowerCase())) {
        byLowerForm.set(form.toLowerCase(), entry);
      }
    }
  }
  return { entries, byLowerForm, byExactForm, anyForm };
}

function getIndex(): GazetteerIndex {
  index ??= buildIndex();
  return index;
}

export function gazetteerEntries(): readonly GazetteerEntry[] {
  return getIndex().entries;
}

/** The entry a piece of text names, honouring case sensitivity; null when the text is not a known form. */
export function lookupGazetteer(text: string): GazetteerEntry | null {
  const { byExactForm, byLowerForm } = getIndex();
  const trimmed = text.trim();
  return byExactForm.get(trimmed) ?? byLowerForm.get(trimmed.toLowerCase()) ?? null;
}

/** True when the text, in any capitalization, is a form of a gazetteer entry (used to reject junk names). */
export function isAnyGazetteerForm(text: string): boolean {
  return getIndex().anyForm.has(text.trim().toLowerCase());
}
