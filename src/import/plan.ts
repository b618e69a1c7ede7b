/**
 * Resolving an import before reading it: which file (or zip entry, or folder), which format, and whether that
 * format fits. Every failure is a PieError with one sentence naming the file and what to do.
 */
import { IMPORT_FORMATS, type ImportFormat } from '../domain/conversation.js';
import { PieError } from '../domain/errors.js';
import { FORMAT_NAMES, KNOWN_FORMATS_SENTENCE, sniff, SNIFF_BYTES, type Sniff } from './detect.js';
import { readFileEnd, readSourceHead, resolveInput, type ByteSource, type ResolvedInput } from './input.js';
import { hasNotes } from './notes-files.js';
import type { ImportPlan } from './types.js';

export type JsonFormat = Exclude<ImportFormat, 'jsonl' | 'markdown'>;

export function isJsonFormat(format: ImportFormat): format is JsonFormat {
  return format !== 'jsonl' && format !== 'markdown';
}

export interface ResolvedPlan {
  plan: ImportPlan;
  input: ResolvedInput;
}

function unknownFormat(label: string): PieError {
  return new PieError(
    'UNKNOWN_FORMAT',
    `"${label}" is not in a format PIE recognizes; ${KNOWN_FORMATS_SENTENCE} — pass --format ${IMPORT_FORMATS.join('|')} if you know which it is.`,
  );
}

function mismatch(label: string, forced: ImportFormat, found: string, suggestion: string): PieError {
  return new PieError('UNKNOWN_FORMAT', `"${label}" ${found}, not a ${FORMAT_NAMES[forced]}; ${suggestion}`, {
    details: { forced },
  });
}

async function planNotesDir(
  input: { root: string; label: string },
  format: ImportFormat | 'auto',
): Promise<ImportFormat> {
  if (format !== 'auto' && format !== 'markdown') {
    throw mismatch(
      input.label,
      format,
      'is a folder without conversations.json',
      'pass the export file (or .zip) itself, or --format markdown for a folder of notes.',
    );
  }
  if (!(await hasNotes(input.root))) {
    throw new PieError(
      'UNKNOWN_FORMAT',
      `"${input.label}" has no conversations.json and no notes (.md, .markdown, .txt); pass an export file or a folder of notes.`,
    );
  }
  return 'markdown';
}

/** The format detected, or null when neither the name nor the content tells. */
function autoFormat(label: string, s: Sniff): ImportFormat | null {
  if (s.empty)
    throw new PieError('UNREADABLE_INPUT', `"${label}" is empty; pass the export file that contains the data.`);
  // A .txt/.md file that starts like a known JSON export is that export; otherwise the extension decides.
  const format = s.byName === 'markdown' && s.json !== null && s.byContent ? s.byContent : (s.byName ?? s.byContent);
  if (format) return format;
  if (s.json === null && /\.json$/i.test(label)) {
    throw new PieError(
      'UNREADABLE_INPUT',
      `"${label}" is not JSON (it starts with ${JSON.stringify(s.preview)}); download the export again.`,
    );
  }
  return null;
}

function checkForced(label: string, forced: ImportFormat, s: Sniff): ImportFormat {
  if (s.empty)
    throw new PieError('UNREADABLE_INPUT', `"${label}" is empty; pass the export file that contains the data.`);
  const other = s.byContent ?? s.byName;
  if (other !== null && other !== forced && !(forced === 'markdown' && s.byContent === null)) {
    throw mismatch(label, forced, `looks like a ${FORMAT_NAMES[other]}`, `use --format ${other} or --format auto.`);
  }
  if (isJsonFormat(forced) && s.json === null) {
    throw mismatch(label, forced, 'is not JSON', 'drop --format to detect the format, or pass the right file.');
  }
  if (forced === 'memorybank' && s.json !== 'object') {
    throw mismatch(label, forced, 'is a JSON array', 'a MemoryBank file is one object keyed by user name.');
  }
  if (forced === 'jsonl' && s.json !== 'object') {
    throw mismatch(label, forced, 'does not start with a JSON object line', 'write one JSON object per line.');
  }
  return forced;
}

/** A JSON export whose last character is not "]" or "}" was cut off; saying so now beats failing halfway. */
async function checkEnd(source: ByteSource): Promise<void> {
  if (source.filePath === null) return;
  const tail = (await readFileEnd(source.filePath, 256)).toString('latin1').trimEnd();
  const last = tail[tail.length - 1];
  if (last !== ']' && last !== '}') {
    throw new PieError(
      'UNREADABLE_INPUT',
      `"${source.label}" ends in the middle of a JSON value (truncated download?); download the export again.`,
    );
  }
}

export async function resolvePlan(opts: { path: string; format: ImportFormat | 'auto' }): Promise<ResolvedPlan> {
  const { format } = opts;
  if (format !== 'auto' && !IMPORT_FORMATS.includes(format)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `Unknown format "${String(format)}"; use --format auto or one of ${IMPORT_FORMATS.join(', ')}.`,
    );
  }
  const input = await resolveInput({ path: opts.path, preferNotes: format === 'markdown' });
  if (input.kind === 'notes-dir') {
    return { plan: { format: await planNotesDir(input, format), label: input.label }, input };
  }
  const { source } = input;
  const s = sniff({ head: await readSourceHead(source, SNIFF_BYTES), name: source.name });
  if (s.backup) {
    throw new PieError(
      'UNKNOWN_FORMAT',
      `"${source.label}" is a PIE backup (pie backup), not an export to import; restore it with pie restore (into an empty database, or --force to replace what one holds).`,
    );
  }
  const chosen = format === 'auto' ? autoFormat(source.label, s) : checkForced(source.label, format, s);
  if (chosen === null) {
    // JSON whose format is unknown may be a known export cut off before its telling fields: say that first.
    if (s.json !== null) await checkEnd(source);
    throw unknownFormat(source.label);
  }
  if (chosen === 'markdown' && source.filePath === null) {
    throw mismatch(source.label, chosen, 'is inside a zip', 'unzip it first.');
  }
  if (isJsonFormat(chosen)) {
    if (s.json === null) {
      throw new PieError('UNREADABLE_INPUT', `"${source.label}" is not JSON; download the export again.`);
    }
    await checkEnd(source);
  }
  return { plan: { format: chosen, label: source.label }, input };
}

/** Resolves and validates the input and its format without importing anything. Throws PieError. */
export async function planImport(opts: { path: string; format: ImportFormat | 'auto' }): Promise<ImportPlan> {
  return (await resolvePlan(opts)).plan;
}
