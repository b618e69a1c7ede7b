/**
 * Format detection from a file's name and its first bytes (about 64 KB). Pure: the caller reads the bytes.
 * JSON exports are recognized by keys that only their records have; when several match, the key seen first wins
 * (the outer record's keys come before anything nested in it).
 */
import { BACKUP_FORMAT, ENCRYPTED_BACKUP_MAGIC } from '../backup/format.js';
import type { ImportFormat } from '../domain/conversation.js';

export const SNIFF_BYTES = 64 * 1024;

export const FORMAT_NAMES: Record<ImportFormat, string> = {
  chatgpt: 'ChatGPT export',
  claude: 'Claude export',
  jsonl: 'JSON Lines chat log',
  markdown: 'markdown/text note',
  locomo: 'LoCoMo dataset',
  longmemeval: 'LongMemEval dataset',
  memorybank: 'MemoryBank dataset',
};

/** Completes "… is not in a format PIE recognizes; " in error messages. */
export const KNOWN_FORMATS_SENTENCE =
  'it reads ChatGPT and Claude exports (conversations.json or the export .zip), JSON Lines chat logs, folders of markdown/text notes, LoCoMo, LongMemEval and MemoryBank';

export type JsonShape = 'array' | 'object' | null;

export interface Sniff {
  /** The format the file name indicates (.jsonl, .md …), or null. */
  byName: ImportFormat | null;
  /** The format the content positively indicates, or null. */
  byContent: ImportFormat | null;
  /** Whether the content starts like a JSON array or object (after whitespace and a byte-order mark). */
  json: JsonShape;
  /** Whether the first line is a complete JSON object followed by another object line. */
  jsonLines: boolean;
  empty: boolean;
  /** Whether it is a `pie backup` file (plain or encrypted): something to restore, not to import. */
  backup: boolean;
  /** The first characters, for messages. */
  preview: string;
}

export function formatFromName(name: string): ImportFormat | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) return 'jsonl';
  if (lower.endsWith('.md') || lower.endsWith('.markdown') || lower.endsWith('.txt')) return 'markdown';
  return null;
}

/** A key as it appears in JSON (not inside an escaped string). */
function keyAt(text: string, key: string): number {
  const m = new RegExp(`(?<!\\\\)"${key}"\\s*:`).exec(text);
  return m ? m.index : -1;
}

function firstOf(text: string, keys: readonly string[]): number {
  const found = keys.map((k) => keyAt(text, k)).filter((i) => i >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

/** Where each JSON format's signature starts in `text`, or -1. */
function jsonSignals(text: string, shape: JsonShape): Array<[ImportFormat, number]> {
  const both = (a: number, b: number): number => (a >= 0 && b >= 0 ? Math.min(a, b) : -1);
  const memoryBank = /(?<!\\)"history"\s*:\s*\{\s*"\d{4}-\d{2}-\d{2}"\s*:\s*\[/.exec(text);
  return [
    ['chatgpt', both(keyAt(text, 'mapping'), firstOf(text, ['current_node', 'author', 'content_type']))],
    ['claude', keyAt(text, 'chat_messages')],
    [
      'longmemeval',
      both(keyAt(text, 'question_id'), firstOf(text, ['haystack_sessions', 'haystack_session_ids', 'haystack_dates'])),
    ],
    [
      'locomo',
      Math.max(
        firstOf(text, ['sample_id', 'dia_id', 'speaker_a']),
        both(keyAt(text, 'qa'), firstOf(text, ['evidence', 'category'])),
      ),
    ],
    ['memorybank', shape === 'object' && memoryBank ? memoryBank.index : -1],
  ];
}

function isJsonLines(text: string): boolean {
  const lines = text.split('\n').map((l) => l.trim());
  const first = lines.findIndex((l) => l !== '');
  const firstLine = lines[first];
  if (first < 0 || firstLine === undefined || !firstLine.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(firstLine);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  } catch {
    return false; // not a complete object on one line
  }
  const next = lines.slice(first + 1).find((l) => l !== '');
  return next !== undefined && next.startsWith('{');
}

/** A `pie backup` file: the encrypted magic, or a first line that is the backup header. */
function isPieBackup(text: string): boolean {
  if (text.startsWith(ENCRYPTED_BACKUP_MAGIC)) return true;
  const end = text.indexOf('\n');
  const firstLine = (end < 0 ? text : text.slice(0, end)).trim();
  if (!firstLine.startsWith('{')) return false;
  try {
    const value: unknown = JSON.parse(firstLine);
    return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === BACKUP_FORMAT;
  } catch {
    return false; // not a complete object on one line: not a backup header
  }
}

export function sniff(opts: { head: Buffer; name: string }): Sniff {
  const text = opts.head.toString('utf8').replace(/^\uFEFF/, '');
  const trimmed = text.trimStart();
  const c = trimmed[0];
  const json: JsonShape = c === '[' ? 'array' : c === '{' ? 'object' : null;
  const jsonLines = json === 'object' && isJsonLines(trimmed);
  const preview = trimmed.slice(0, 20).replace(/\s+/g, ' ');
  let byContent: ImportFormat | null = jsonLines ? 'jsonl' : null;
  if (byContent === null && json !== null) {
    const hits = jsonSignals(trimmed, json)
      .filter(([, at]) => at >= 0)
      .sort((a, b) => a[1] - b[1]);
    byContent = hits[0]?.[0] ?? null;
  }
  return {
    byName: formatFromName(opts.name),
    byContent,
    json,
    jsonLines,
    empty: trimmed === '',
    backup: isPieBackup(trimmed),
    preview,
  };
}
