/**
 * What a path given to `pie ingest` points at: a file, the conversations.json inside an export zip, the
 * conversations.json of an unzipped export folder, or a folder of notes.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errorMessage, PieError } from '../domain/errors.js';
import { findZipEntry, readZipEntry } from './zip.js';

/** A stream of bytes that can be opened as many times as needed (format sniffing, then import). */
export interface ByteSource {
  /** The file (or `zip:entry`) named in messages. */
  label: string;
  /** Base name of the file or entry, for extension checks. */
  name: string;
  /** Modification time of the file (or of the zip), the fallback time for sources without dates. */
  mtimeMs: number;
  /** The path of a plain file, so that its end can be checked cheaply; null inside a zip. */
  filePath: string | null;
  open(): AsyncIterable<Buffer>;
}

export type ResolvedInput =
  | {
      kind: 'bytes';
      source: ByteSource;
      /** Another file of the same export (beside the file, or in the same zip folder), e.g. Claude's projects.json. */
      sibling: (baseName: string) => Promise<ByteSource | null>;
    }
  /** A folder of notes (markdown / text files). */
  | { kind: 'notes-dir'; root: string; label: string };

const CHUNK = 1 << 20;
const CONVERSATIONS = 'conversations.json';

function fileSource(path: string, mtimeMs: number): ByteSource {
  return {
    label: path,
    name: basename(path),
    mtimeMs,
    filePath: path,
    open: () => createReadStream(path, { highWaterMark: CHUNK }),
  };
}

async function statOrNull(path: string): Promise<Awaited<ReturnType<typeof stat>> | null> {
  try {
    return await stat(path);
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return null;
    throw new PieError(
      'UNREADABLE_INPUT',
      `"${path}" cannot be read (${errorMessage(error)}); check its permissions.`,
      {
        cause: error,
      },
    );
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** The first bytes of a file (fewer when it is shorter). */
export async function readFileStart(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The last bytes of a file. */
export async function readFileEnd(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const start = Math.max(0, size - length);
    const buffer = Buffer.alloc(size - start);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function isZipMagic(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05);
}

/** A file beside `path` with that base name, or null. */
function fileSibling(path: string): (baseName: string) => Promise<ByteSource | null> {
  return async (baseName) => {
    const other = join(dirname(path), baseName);
    const info = await statOrNull(other);
    return info?.isFile() ? fileSource(other, Number(info.mtimeMs)) : null;
  };
}

function zipEntrySource(zipPath: string, entryName: string, mtimeMs: number): ByteSource {
  return {
    label: `${zipPath}:${entryName}`,
    name: basename(entryName),
    mtimeMs,
    filePath: null,
    open: () => readZipEntry({ zipPath, entryName }),
  };
}

async function zipSource(zipPath: string, mtimeMs: number): Promise<ResolvedInput> {
  const entryName = await findZipEntry({ zipPath, baseName: CONVERSATIONS });
  if (entryName === null) {
    throw new PieError(
      'UNKNOWN_FORMAT',
      `"${zipPath}" contains no ${CONVERSATIONS}; pass the ChatGPT or Claude export zip, or unzip it and pass the file you want to import.`,
    );
  }
  const folder = entryName.slice(0, entryName.lastIndexOf('/') + 1);
  return {
    kind: 'bytes',
    source: zipEntrySource(zipPath, entryName, mtimeMs),
    sibling: async (baseName) => {
      const other = await findZipEntry({ zipPath, baseName });
      // Only a file of the same export: in the folder that holds conversations.json.
      return other !== null && other.slice(0, other.lastIndexOf('/') + 1) === folder
        ? zipEntrySource(zipPath, other, mtimeMs)
        : null;
    },
  };
}

/**
 * Resolves a path. A folder holding conversations.json is an unzipped export (unless `preferNotes`, when the user
 * asked for markdown); any other folder is a folder of notes. Throws FILE_NOT_FOUND or UNREADABLE_INPUT.
 */
export async function resolveInput(opts: { path: string; preferNotes: boolean }): Promise<ResolvedInput> {
  const path = resolve(opts.path);
  const info = await statOrNull(path);
  if (!info) throw new PieError('FILE_NOT_FOUND', `"${opts.path}" does not exist; check the path.`);
  if (info.isDirectory()) {
    const inner = join(path, CONVERSATIONS);
    const innerInfo = opts.preferNotes ? null : await statOrNull(inner);
    if (innerInfo?.isFile()) {
      return { kind: 'bytes', source: fileSource(inner, Number(innerInfo.mtimeMs)), sibling: fileSibling(inner) };
    }
    return { kind: 'notes-dir', root: path, label: path };
  }
  if (!info.isFile()) {
    throw new PieError('UNREADABLE_INPUT', `"${opts.path}" is not a regular file or folder; pass an export file.`);
  }
  const mtimeMs = Number(info.mtimeMs);
  const head = await readFileStart(path, 4).catch((error: unknown) => {
    throw new PieError(
      'UNREADABLE_INPUT',
      `"${opts.path}" cannot be read (${errorMessage(error)}); check its permissions.`,
      {
        cause: error,
      },
    );
  });
  if (isZipMagic(head)) return zipSource(path, mtimeMs);
  if (path.toLowerCase().endsWith('.zip')) {
    throw new PieError(
      'UNREADABLE_INPUT',
      `"${opts.path}" is named .zip but is not a zip file (damaged or incomplete download?); download the export again.`,
    );
  }
  return { kind: 'bytes', source: fileSource(path, mtimeMs), sibling: fileSibling(path) };
}

/** Up to `length` bytes from the start of a source (stops reading as soon as it has them). */
export async function readSourceHead(source: ByteSource, length: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of source.open()) {
    parts.push(chunk);
    total += chunk.length;
    if (total >= length) break;
  }
  const all = Buffer.concat(parts);
  return all.length > length ? all.subarray(0, length) : all;
}
