/** Reading one entry of a zip file (the ChatGPT / Claude export download) as a byte stream, via yauzl. */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { errorMessage, PieError } from '../domain/errors.js';

/** yauzl's messages can run to several sentences; ours must stay one. */
function firstSentence(text: string): string {
  return (text.split(/\.(?:\s|$)/)[0] ?? text).trim();
}

function unreadable(zipPath: string, error: unknown): PieError {
  if (error instanceof PieError) return error;
  return new PieError(
    'UNREADABLE_INPUT',
    `"${zipPath}" is not a readable zip file (${firstSentence(errorMessage(error))}); download the export again or unzip it and pass conversations.json.`,
    { cause: error },
  );
}

function openZip(zipPath: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipPath, { lazyEntries: true, autoClose: false }, (error, zipfile) => {
      if (error) reject(unreadable(zipPath, error));
      else resolve(zipfile);
    });
  });
}

function nextEntry(zipfile: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      zipfile.off('entry', onEntry);
      zipfile.off('end', onEnd);
      zipfile.off('error', onError);
    };
    const onEntry = (entry: Entry): void => {
      cleanup();
      resolve(entry);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(null);
    };
    const onError = (error: unknown): void => {
      cleanup();
      reject(error);
    };
    zipfile.on('entry', onEntry);
    zipfile.on('end', onEnd);
    zipfile.on('error', onError);
    zipfile.readEntry();
  });
}

async function* entries(zipfile: ZipFile): AsyncGenerator<Entry> {
  for (let entry = await nextEntry(zipfile); entry; entry = await nextEntry(zipfile)) yield entry;
}

function openStream(zipfile: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zipfile.openReadStream(entry, (error, stream) => {
      if (error) reject(error);
      else resolve(stream);
    });
  });
}

function depth(name: string): number {
  return name.split('/').length;
}

/**
 * The entry whose base name is `baseName` (case-insensitive), at any depth; the shallowest wins. Directory entries
 * and macOS resource forks (__MACOSX/) are ignored. Null when there is none.
 */
export async function findZipEntry(opts: { zipPath: string; baseName: string }): Promise<string | null> {
  const zipfile = await openZip(opts.zipPath);
  const wanted = opts.baseName.toLowerCase();
  let best: string | null = null;
  try {
    for await (const entry of entries(zipfile)) {
      const name = entry.fileName;
      if (name.endsWith('/') || name.startsWith('__MACOSX/')) continue;
      const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
      if (base !== wanted) continue;
      if (best === null || depth(name) < depth(best) || (depth(name) === depth(best) && name < best)) best = name;
    }
  } catch (error) {
    throw unreadable(opts.zipPath, error);
  } finally {
    zipfile.close();
  }
  return best;
}

/** The bytes of one entry. Truncated or corrupt data surfaces as PieError UNREADABLE_INPUT. */
export async function* readZipEntry(opts: { zipPath: string; entryName: string }): AsyncGenerator<Buffer> {
  const zipfile = await openZip(opts.zipPath);
  let stream: Readable | null = null;
  try {
    let found: Entry | null = null;
    for await (const entry of entries(zipfile)) {
      if (entry.fileName === opts.entryName) {
        found = entry;
        break;
      }
    }
    if (!found) {
      throw new PieError('UNREADABLE_INPUT', `"${opts.zipPath}" no longer contains ${opts.entryName}; check the file.`);
    }
    if (found.isEncrypted()) {
      throw new PieError(
        'UNREADABLE_INPUT',
        `"${opts.zipPath}" is encrypted; unzip it with its password and pass conversations.json.`,
      );
    }
    stream = await openStream(zipfile, found);
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw unreadable(opts.zipPath, error);
  } finally {
    stream?.destroy();
    zipfile.close();
  }
}
