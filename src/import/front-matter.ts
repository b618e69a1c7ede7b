/** YAML front matter at the top of a markdown note (between "---" lines), parsed with the `yaml` package. */
import { parse } from 'yaml';
import { errorMessage } from '../domain/errors.js';
import { isObject, type JsonObject } from './common.js';

export interface FrontMatter {
  /** The parsed mapping; empty when there is none or it is not a mapping. */
  data: JsonObject;
  /** The note without its front matter. */
  body: string;
  /** Why the front matter could not be read, when it could not. */
  error?: string;
}

const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export function splitFrontMatter(text: string): FrontMatter {
  const m = BLOCK.exec(text);
  if (!m) return { data: {}, body: text };
  const body = text.slice(m[0].length);
  try {
    const parsed: unknown = parse(m[1] ?? '');
    if (parsed === null || parsed === undefined) return { data: {}, body };
    if (!isObject(parsed)) return { data: {}, body, error: 'it is not a list of key: value pairs' };
    return { data: parsed, body };
  } catch (error) {
    return { data: {}, body, error: errorMessage(error).split('\n')[0] ?? 'invalid YAML' };
  }
}
