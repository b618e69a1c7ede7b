import { isObject } from '../../import/common.js';
import { pythonToJson, type TotValue } from './items.js';

/**
 * Test of Time arithmetic is scored by exact match of the answer fields the question asks for (no LLM judge): the
 * response's JSON object (the last `{…}` in it; Python-style quotes accepted) must give every labelled field the
 * labelled value — numbers compared as numbers ("2.0" = 2), `unordered_list` as a set, `ordered_list` in order, text
 * without case and surrounding spaces. Two traps of the data are handled: some questions ask for a key the label
 * names differently ("age" vs "answer", "unorered_list" vs "unordered_list"), so a one-field label also accepts the
 * response's only non-explanation field; and a missing or unreadable JSON object scores wrong.
 */
export function scoreTotAnswer(label: Record<string, TotValue>, response: string): boolean {
  const answer = lastJsonObject(response);
  if (!answer) return false;
  const fields = Object.keys(label).filter((k) => k !== 'explanation');
  const others = Object.keys(answer).filter((k) => k !== 'explanation');
  return fields.every((key) => {
    const given =
      key in answer ? answer[key] : fields.length === 1 && others.length === 1 ? answer[others[0] ?? ''] : undefined;
    return given !== undefined && same(label[key] ?? null, given as TotValue, key);
  });
}

function same(gold: TotValue, given: TotValue, key: string): boolean {
  if (Array.isArray(gold)) {
    if (!Array.isArray(given) || given.length !== gold.length) return false;
    const a = gold.map(text);
    const b = given.map(text);
    if (key === 'ordered_list') return a.every((v, i) => v === b[i]);
    return [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
  }
  if (Array.isArray(given)) return given.length === 1 && same(gold, given[0] ?? null, key);
  const x = numberOf(gold);
  const y = numberOf(given);
  if (x !== null && y !== null) return x === y;
  return text(gold) === text(given);
}

function numberOf(value: TotValue): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*[+-]?\d+(?:\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

function text(value: TotValue): string {
  return String(value)
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s"'.]+|[\s"'.]+$/g, '');
}

/** The last parseable `{…}` object in a text (a model often writes reasoning before its JSON). */
export function lastJsonObject(response: string): Record<string, unknown> | null {
  const starts: number[] = [];
  for (let i = 0; i < response.length; i++) if (response[i] === '{') starts.push(i);
  const end = response.lastIndexOf('}');
  for (const start of starts) {
    if (start > end) break;
    const candidate = response.slice(start, end + 1);
    for (const spelling of [candidate, pythonToJson(candidate)]) {
      try {
        const value: unknown = JSON.parse(spelling);
        if (isObject(value)) return value;
      } catch {
        // Try the next spelling or the next opening brace.
      }
    }
  }
  return null;
}
