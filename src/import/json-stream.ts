/**
 * Streaming reader for big JSON exports: yields the items of the top-level array (or the entries of the top-level
 * object) one at a time, without ever holding the whole file. It scans BYTES (json-scanner.ts) and holds only the
 * current item plus one chunk.
 */
import { JsonScanner, type JsonItem } from './json-scanner.js';

export type { JsonItem } from './json-scanner.js';

export interface JsonStreamOptions {
  /** The bytes, in chunks of any size (a file or zip-entry read stream). */
  chunks: AsyncIterable<Uint8Array>;
  /** The file name used in error messages. */
  label: string;
  /**
   * When the top level is an object: `entries` yields each [key, value] entry (MemoryBank);
   * `single` yields the whole object as one item (a single conversation). A top-level array always yields its elements.
   */
  objectMode: 'entries' | 'single';
}

/** Yields each item of the top-level JSON array or object; throws PieError UNREADABLE_INPUT on broken framing. */
export async function* streamJsonItems(opts: JsonStreamOptions): AsyncGenerator<JsonItem> {
  const scanner = new JsonScanner({ label: opts.label, objectMode: opts.objectMode });
  for await (const chunk of opts.chunks) {
    const items = scanner.feed(chunk);
    for (const item of items) yield item;
  }
  scanner.end();
}
