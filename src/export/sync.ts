import { createHash } from 'node:crypto';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../config/private-files.js';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { PieError, errorMessage } from '../domain/errors.js';

/** One file an export produces: a path relative to the export directory (with "/") and its full text. */
export interface ExportFile {
  path: string;
  content: string;
}

export interface SyncReport {
  dir: string;
  written: string[];
  unchanged: number;
  /** Files an earlier export wrote that this one no longer produces, deleted. */
  removed: string[];
  /** Files an earlier export wrote and someone edited since; no longer produced, but left in place. */
  kept: string[];
  /** Files this export produces that are already there with other content and that no PIE export wrote: left alone. */
  notOurs: string[];
}

/** The manifest in the export directory: the hash of every file the last export wrote. */
export const MANIFEST = '.pie-export.json';

const sha256 = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** Which export wrote a directory; one directory holds one kind, since each removes what it no longer produces. */
export type ExportKind = 'obsidian' | 'markdown';

function readManifest(path: string, kind: ExportKind): Record<string, string> {
  if (!existsSync(path)) return {};
  let value: { files?: Record<string, string>; kind?: unknown };
  try {
    value = JSON.parse(readFileSync(path, 'utf8')) as typeof value;
  } catch (error) {
    throw new PieError(
      'UNREADABLE_INPUT',
      `The export manifest ${path} is damaged (${errorMessage(error)}); delete it and export again.`,
    );
  }
  if (typeof value.kind === 'string' && value.kind !== kind) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${dirname(path)} holds a pie export ${value.kind}, which this ${kind} export would delete; export into another directory.`,
    );
  }
  return value.files ?? {};
}

/**
 * Writes `files` into `dir`, leaving files whose content is already there untouched (compared by content hash, so
 * a re-export of an unchanged world writes nothing), and deletes files the previous export wrote that are no longer
 * produced (unless edited since). Files it did not write are never touched. Each file is replaced atomically.
 */
export async function syncFiles(input: {
  dir: string;
  kind: ExportKind;
  files: AsyncIterable<ExportFile>;
}): Promise<SyncReport> {
  const dir = resolve(input.dir);
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new PieError('INVALID_ARGUMENT', `${dir} is a file, not a directory; choose a directory to export into.`);
  }
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const manifestPath = join(dir, MANIFEST);
  const previous = readManifest(manifestPath, input.kind);
  const next: Record<string, string> = {};
  const report: SyncReport = { dir, written: [], unchanged: 0, removed: [], kept: [], notOurs: [] };

  for await (const file of input.files) {
    if (next[file.path] !== undefined || report.notOurs.includes(file.path)) {
      throw new PieError('INTERNAL', `The export produced ${file.path} twice.`);
    }
    const target = resolve(dir, file.path);
    if (!target.startsWith(dir + sep)) throw new PieError('INTERNAL', `Export path ${file.path} leaves ${dir}.`);
    const hash = sha256(file.content);
    const there = existsSync(target) ? sha256(readFileSync(target)) : null;
    if (there !== null && there !== hash && previous[file.path] === undefined) {
      report.notOurs.push(file.path); // someone's own file under the same name: never overwritten, not in the manifest
      continue;
    }
    next[file.path] = hash;
    if (there === hash) {
      report.unchanged += 1;
      continue;
    }
    mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    const temp = `${target}.pie-tmp`;
    writeFileSync(temp, file.content, { mode: PRIVATE_FILE_MODE });
    renameSync(temp, target);
    report.written.push(file.path);
  }

  for (const [path, hash] of Object.entries(previous)) {
    if (next[path] !== undefined) continue;
    const target = resolve(dir, path);
    if (!target.startsWith(dir + sep) || !existsSync(target)) continue;
    if (sha256(readFileSync(target)) === hash) {
      rmSync(target);
      report.removed.push(path);
    } else {
      report.kept.push(path);
    }
  }
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const manifest = `${JSON.stringify({ generator: 'pie', kind: input.kind, files: sorted }, null, 1)}\n`;
  if (!existsSync(manifestPath) || readFileSync(manifestPath, 'utf8') !== manifest) {
    writeFileSync(manifestPath, manifest, { mode: PRIVATE_FILE_MODE });
  }
  return report;
}
