import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { PieError, errorMessage } from '../domain/errors.js';
import { decryptingStream, encryptingStream, isEncryptedBackup } from './cipher.js';
import type { LineSink } from './write.js';
import { PRIVATE_FILE_MODE } from '../config/private-files.js';

const gzipped = (file: string): boolean => file.endsWith('.gz');

/**
 * Writes a file through a temporary sibling that replaces `file` only when `fill` succeeded, so a failed backup
 * never leaves a half-written file under the final name. A `.gz` name is gzip-compressed; with a `key` the bytes are
 * encrypted (./cipher.ts), after compression.
 */
export async function writeFileAtomically<T>(
  file: string,
  fill: (sink: LineSink) => Promise<T>,
  options: { key?: string | undefined } = {},
): Promise<T> {
  const target = resolve(file);
  if (!existsSync(dirname(target))) {
    throw new PieError('FILE_NOT_FOUND', `The directory ${dirname(target)} does not exist; create it first.`);
  }
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  const out = createWriteStream(temp, { mode: PRIVATE_FILE_MODE });
  let failure: unknown;
  const onError = (error: unknown): void => {
    failure ??= error;
  };
  out.on('error', onError);
  let head: Writable = out;
  for (const stage of [
    options.key === undefined ? null : encryptingStream(options.key),
    gzipped(target) ? createGzip() : null,
  ]) {
    if (!stage) continue;
    stage.on('error', onError);
    stage.pipe(head);
    head = stage;
  }
  const sink: LineSink = {
    async write(text) {
      if (failure !== undefined) throw failure;
      if (head.write(text)) return;
      // Wait for the buffer to drain, or for the file to fail; both listeners are removed afterwards.
      const done = new AbortController();
      try {
        await Promise.race([once(head, 'drain', { signal: done.signal }), once(out, 'error', { signal: done.signal })]);
      } finally {
        done.abort();
      }
    },
  };
  try {
    const result = await fill(sink);
    head.end();
    await once(out, 'close');
    if (failure !== undefined) throw failure;
    renameSync(temp, target);
    return result;
  } catch (error) {
    out.destroy();
    rmSync(temp, { force: true });
    if (error instanceof PieError) throw error;
    throw new PieError('DB_ERROR', `Cannot write ${target} (${errorMessage(error)}); check the path and free space.`, {
      cause: error,
    });
  }
}

/**
 * The lines of a (possibly gzip-compressed, possibly encrypted) text file, read as a stream; read errors surface as
 * PieErrors. An encrypted file needs the `key` it was written with.
 */
export async function* readLines(file: string, key?: string): AsyncGenerator<string> {
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new PieError('FILE_NOT_FOUND', `There is no backup file at ${path}.`);
  }
  const src: Readable = isEncryptedBackup(path) ? decryptingStream(path, key) : createReadStream(path);
  let input: Readable = src;
  if (gzipped(path)) {
    const gunzip = createGunzip();
    src.on('error', (error) => gunzip.destroy(error));
    input = src.pipe(gunzip);
  }
  input.setEncoding('utf8');
  let rest = '';
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      rest += chunk;
      let start = 0;
      let at = rest.indexOf('\n');
      while (at !== -1) {
        yield rest.slice(start, at).replace(/\r$/, '');
        start = at + 1;
        at = rest.indexOf('\n', start);
      }
      rest = rest.slice(start);
    }
  } catch (error) {
    throw new PieError('UNREADABLE_INPUT', `Cannot read ${path} (${errorMessage(error)}); is it a complete backup?`, {
      cause: error,
    });
  } finally {
    input.destroy();
  }
  if (rest !== '') yield rest;
}
