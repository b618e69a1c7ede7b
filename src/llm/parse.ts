import type { z } from 'zod';

export type ParseOutcome<O> = { ok: true; value: O } | { ok: false; problem: string; issues?: z.core.$ZodIssue[] };

/**
 * The JSON text inside a model answer: fenced code blocks (```json … ```) are unwrapped, and prose around a single
 * top-level object is cut away ("Here is the JSON: {…}").
 */
export function extractJsonText(text: string): string {
  const trimmed = text.trim();
  const fence = /^```[a-zA-Z0-9_-]*\s*\n?([\s\S]*?)\n?\s*```$/.exec(trimmed);
  if (fence?.[1] !== undefined) return fence[1].trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return trimmed;
  const first = trimmed.indexOf('{');
  const last = trimmed.lastIndexOf('}');
  return first >= 0 && last > first ? trimmed.slice(first, last + 1) : trimmed;
}

/** At most `limit` issues as "path: message", joined for one line of an error message. */
export function summarizeIssues(input: { issues: readonly z.core.$ZodIssue[]; limit?: number }): string {
  const { issues, limit = 8 } = input;
  const shown = issues.slice(0, limit).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${path}: ${issue.message}`;
  });
  const more = issues.length > limit ? `; and ${issues.length - limit} more` : '';
  return shown.join('; ') + more;
}

/** Parse a model's answer as JSON and validate it; never throws. */
export function parseModelJson<O>(input: { text: string; schema: z.ZodType<O> }): ParseOutcome<O> {
  const jsonText = extractJsonText(input.text);
  if (jsonText === '') return { ok: false, problem: 'the answer was empty' };
  let value: unknown;
  try {
    value = JSON.parse(jsonText);
  } catch (error) {
    return {
      ok: false,
      problem: `the answer is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
    };
  }
  const result = input.schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problem: `the JSON does not match the schema: ${summarizeIssues({ issues: result.error.issues })}`,
    issues: result.error.issues,
  };
}
