import { isObject, stringField } from '../../import/common.js';
import { PieError } from '../../domain/errors.js';

/** The Test of Time arithmetic categories (question_type), in the order the tables list them. */
export const TOT_CATEGORIES = [
  'add_subtract',
  'compare',
  'duration',
  'multi_op',
  'schedule',
  'timezone',
  'trick',
] as const;

export type TotValue = string | number | boolean | null | TotValue[];

/** One ToT-arithmetic question, split into what a memory would hold and what is asked. */
export interface TotItem {
  key: string;
  category: string;
  /** The whole question as the benchmark gives it (facts, question, answer-format instruction). */
  question: string;
  /** The problem statement: everything before the answer-format instruction (what the world is built from). */
  statement: string;
  /** The asking sentence of the statement (what PIE is queried with). */
  ask: string;
  /** The answer-format instruction ("Format your answer as a JSON …"). */
  instruction: string;
  /** The gold answer fields (label), e.g. {answer: "352 BC"} or {H: 2, M: 13, S: 30}. */
  label: Record<string, TotValue>;
  /** The quantities the statement states (numbers, dates, times, eras, entity ids): what an answer depends on. */
  facts: string[];
}

/**
 * The label is a Python dict literal in most items (`{'answer': '352 BC'}`) and JSON in others
 * (`{"H": 2.0, "M": 13.0}`): both are read; null when it is neither.
 */
export function parseTotLabel(text: string): Record<string, TotValue> | null {
  for (const candidate of [text, pythonToJson(text)]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (isObject(value)) return value as Record<string, TotValue>;
    } catch {
      // Not this spelling; the next candidate (or null) follows.
    }
  }
  return null;
}

/** A Python literal (single-quoted strings, True/False/None) rewritten as JSON; apostrophes inside words are kept. */
export function pythonToJson(text: string): string {
  let out = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quote === null) {
      if (c === "'" || c === '"') {
        quote = c;
        out += '"';
      } else out += c;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) {
      out += c + (text[i + 1] ?? '');
      i += 1;
    } else if (c === quote) {
      quote = null;
      out += '"';
    } else if (c === '"') out += '\\"';
    else out += c;
  }
  return out
    .replace(/\bTrue\b/g, 'true')
    .replace(/\bFalse\b/g, 'false')
    .replace(/\bNone\b/g, 'null');
}

const SENTENCE = /(?<=[.?!])\s+(?=["'(]?[A-Z0-9])/;
const IMPERATIVE = /^(?:find|calculate|compute|arrange|report|which|what|who|when|how|whose)\b/i;

/** Splits a ToT question into statement, ask and instruction (see TotItem). Pure. */
export function splitTotQuestion(question: string): { statement: string; ask: string; instruction: string } {
  const sentences = question
    .replace(/\s+/g, ' ')
    .trim()
    .split(SENTENCE)
    .filter((s) => s !== '');
  let cut = sentences.findIndex((s) => /json/i.test(s));
  if (cut < 0) cut = sentences.length;
  // A question whose first sentence already names the JSON format keeps that sentence as its statement.
  const statementParts = sentences.slice(0, Math.max(cut, 1));
  const instruction = sentences.slice(Math.max(cut, 1)).join(' ');
  const ask =
    [...statementParts].reverse().find((s) => s.includes('?')) ??
    statementParts.find((s) => IMPERATIVE.test(s.replace(/^(?:if|given)\b[^,]*,\s*/i, ''))) ??
    statementParts[statementParts.length - 1] ??
    '';
  return { statement: statementParts.join(' '), ask, instruction };
}

const NAMED_TIME =
  /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|noon|midnight)\b/g;

/** The quantities a statement states: "360 BC", "2:50:00", "2043-08-24", "E18", "+0530", "11". Pure. */
export function totFacts(statement: string): string[] {
  const numbers = statement.match(/[A-Za-z]*[+-]?\d[\w:/-]*(?:\s(?:BC|AD|AM|PM)\b)?/g) ?? [];
  const names = statement.match(NAMED_TIME) ?? [];
  return [...new Set([...numbers, ...names].map((f) => f.replace(/[.,;:)]+$/, '')))];
}

/** Reads the ToT-arithmetic file's items; an item without question, category or a readable label is counted, not fatal. */
export function readTotItems(raws: readonly unknown[]): { items: TotItem[]; unreadable: number } {
  const items: TotItem[] = [];
  let unreadable = 0;
  const seen = new Map<string, number>();
  for (const raw of raws) {
    const question = isObject(raw) ? stringField(raw, 'question') : undefined;
    const category = isObject(raw) ? stringField(raw, 'question_type') : undefined;
    const labelText = isObject(raw) ? raw.label : undefined;
    const label =
      typeof labelText === 'string'
        ? parseTotLabel(labelText)
        : isObject(labelText)
          ? (labelText as TotItem['label'])
          : null;
    if (!question || !category || !label) {
      unreadable += 1;
      continue;
    }
    const n = seen.get(category) ?? 0;
    seen.set(category, n + 1);
    const parts = splitTotQuestion(question);
    items.push({
      key: `${category}#${n}`,
      category,
      question: question.trim(),
      ...parts,
      label,
      facts: totFacts(parts.statement),
    });
  }
  if (items.length === 0 && raws.length > 0) {
    throw new PieError(
      'UNKNOWN_FORMAT',
      'No Test of Time item could be read (each needs question, question_type and label); is it the right file?',
    );
  }
  return { items, unreadable };
}

/** The first `perCategory` items of each category (all of them without a limit), in file order. */
export function firstPerCategory(items: readonly TotItem[], perCategory: number | undefined): TotItem[] {
  if (perCategory === undefined) return [...items];
  const taken = new Map<string, number>();
  return items.filter((item) => {
    const n = taken.get(item.category) ?? 0;
    taken.set(item.category, n + 1);
    return n < perCategory;
  });
}
