/**
 * The byte-level state machine behind streamJsonItems: tracks depth, in-string and escape across chunks, and
 * only decodes and JSON.parses the byte range of one item. Multi-byte UTF-8 characters need no care: every byte of
 * them is >= 0x80 and so never looks like JSON structure. Synchronous and allocation-light; see json-stream.ts.
 */
import { PieError } from '../domain/errors.js';

export type JsonItem =
  | { kind: 'item'; index: number; key: string | null; value: unknown }
  /** The framing is sound but this item is not valid JSON; the stream continues with the next item. */
  | { kind: 'invalid'; index: number; key: string | null; reason: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;

const BOM = [0xef, 0xbb, 0xbf];

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function endsPrimitive(c: number): boolean {
  return c === COMMA || c === RBRACKET || c === RBRACE || isWhitespace(c);
}

/**
 * Scanner states. Arr…/Obj…: between the items of the top-level array/object — First: after the opening bracket
 * (an item or the close), Next: after "," (an item), After: after an item ("," or the close); ObjColon: after a key.
 * InKey/InValue: inside the bytes of a key or an item (or of the single top-level object).
 */
const enum S {
  Start,
  ArrFirst,
  ArrNext,
  ArrAfter,
  ObjFirst,
  ObjNext,
  InKey,
  ObjColon,
  ObjValue,
  ObjAfter,
  InValue,
  Done,
}

/** One pass over the bytes; `feed` returns the items completed in that chunk. */
export class JsonScanner {
  private state = S.Start;
  private index = 0;
  private offset = 0; // bytes consumed before the current chunk
  private skip = 0; // bytes of the next chunk still owed to an escape started at the end of the previous one
  // Value scanning.
  private depth = 0;
  private inString = false;
  private primitive = false;
  private readonly stack: number[] = [];
  private single = false; // the value being scanned is the whole top-level object
  // Capture of the bytes of the current key or value.
  private captureStart = -1;
  private parts: Uint8Array[] = [];
  private key: string | null = null;
  private sawContent = false;
  /** Position of the next backslash in the current chunk at or after the scan position (n when none), -1 unknown. */
  private nextBackslash = -1;
  /** The same for the next quote. */
  private nextQuote = -1;

  private readonly label: string;
  private readonly objectMode: 'entries' | 'single';

  constructor(opts: { label: string; objectMode: 'entries' | 'single' }) {
    this.label = opts.label;
    this.objectMode = opts.objectMode;
  }

  feed(bytes: Uint8Array): JsonItem[] {
    const chunk = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const out: JsonItem[] = [];
    this.nextBackslash = -1;
    this.nextQuote = -1;
    const n = chunk.length;
    let i = this.skip;
    this.skip = 0;
    if (this.captureStart >= 0) this.captureStart = 0;
    while (i < n) {
      if (this.state === S.InValue || this.state === S.InKey) {
        i = this.scanValue(chunk, i, out);
        continue;
      }
      const c = chunk[i] as number;
      if (isWhitespace(c)) {
        i++;
        continue;
      }
      this.structural(c, i);
      if ((this.state as S) === S.InValue || (this.state as S) === S.InKey) continue; // the byte opens a value
      i++;
    }
    if (i > n) this.skip = i - n;
    if (this.captureStart >= 0) this.parts.push(chunk.subarray(this.captureStart));
    this.offset += n;
    return out;
  }

  /** A byte between items (never whitespace). Either moves the state or starts a key/value at `i` (not consumed). */
  private structural(c: number, i: number): void {
    switch (this.state) {
      case S.Start:
        if (this.offset + i < 3 && c === BOM[this.offset + i]) return; // UTF-8 byte-order mark
        this.sawContent = true;
        if (c === LBRACKET) this.state = S.ArrFirst;
        else if (c === LBRACE && this.objectMode === 'entries') this.state = S.ObjFirst;
        else if (c === LBRACE) {
          this.single = true;
          this.begin(i, S.InValue);
        } else this.fail(i, c, 'a JSON array or object');
        return;
      case S.ArrFirst:
      case S.ArrNext:
        if (c === RBRACKET && this.state === S.ArrFirst) this.state = S.Done;
        else if (c === COMMA || c === RBRACKET || c === RBRACE || c === COLON) this.fail(i, c, 'a value');
        else this.begin(i, S.InValue);
        return;
      case S.ArrAfter:
        if (c === COMMA) this.state = S.ArrNext;
        else if (c === RBRACKET) this.state = S.Done;
        else this.fail(i, c, '"," or "]"');
        return;
      case S.ObjFirst:
      case S.ObjNext:
        if (c === RBRACE && this.state === S.ObjFirst) this.state = S.Done;
        else if (c === QUOTE) this.begin(i, S.InKey);
        else this.fail(i, c, 'a quoted key');
        return;
      case S.ObjColon:
        if (c === COLON) this.state = S.ObjValue;
        else this.fail(i, c, '":"');
        return;
      case S.ObjValue:
        if (c === COMMA || c === RBRACKET || c === RBRACE || c === COLON) this.fail(i, c, 'a value');
        else this.begin(i, S.InValue);
        return;
      case S.ObjAfter:
        if (c === COMMA) this.state = S.ObjNext;
        else if (c === RBRACE) this.state = S.Done;
        else this.fail(i, c, '"," or "}"');
        return;
      case S.Done:
        throw new PieError(
          'UNREADABLE_INPUT',
          `"${this.label}" has unexpected content after the end of its JSON at byte ${this.offset + i}; the file is damaged or is not one JSON document.`,
        );
      default:
        return;
    }
  }

  /** Starts capturing a key or value whose first byte is at `i`. */
  private begin(i: number, state: S.InKey | S.InValue): void {
    this.state = state;
    this.captureStart = i;
    this.parts = [];
    this.depth = 0;
    this.inString = false;
    this.primitive = false;
    this.stack.length = 0;
  }

  /** Scans inside a key or value from `i`; returns the next index (possibly n+1 when an escape crosses the chunk). */
  private scanValue(buf: Buffer, start: number, out: JsonItem[]): number {
    const n = buf.length;
    let i = start;
    if (this.primitive) {
      while (i < n && !endsPrimitive(buf[i] as number)) i++;
      if (i < n) this.finish(buf, i, out);
      return i;
    }
    if (this.depth === 0 && !this.inString) {
      // The first byte of the key or value.
      const c = buf[i] as number;
      if (c === QUOTE) this.inString = true;
      else if (c === LBRACE || c === LBRACKET) {
        this.stack.push(c);
        this.depth = 1;
      } else {
        this.primitive = true;
        return i;
      }
      i++;
    }
    while (i < n) {
      if (this.inString) {
        // Native memchr-speed search for the closing quote; a backslash before it escapes the next byte.
        if (this.nextQuote < i) {
          const q = buf.indexOf(QUOTE, i);
          this.nextQuote = q === -1 ? n : q;
        }
        if (this.nextBackslash < i) {
          const b = buf.indexOf(BACKSLASH, i);
          this.nextBackslash = b === -1 ? n : b;
        }
        const quote = this.nextQuote;
        if (this.nextBackslash < quote) {
          i = this.nextBackslash + 2;
          continue;
        }
        if (quote === n) return n;
        this.inString = false;
        i = quote + 1;
        if (this.depth === 0) {
          this.finish(buf, i, out);
          return i;
        }
        continue;
      }
      // Skip to the next quote or bracket: c | 0x20 maps "[" onto "{" and "]" onto "}".
      let c = buf[i] as number;
      while (c !== QUOTE && (c | 0x20) !== LBRACE && (c | 0x20) !== RBRACE) {
        if (++i === n) return n;
        c = buf[i] as number;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === LBRACE || c === LBRACKET) {
        this.stack.push(c);
        this.depth++;
      } else if (c === RBRACE || c === RBRACKET) {
        const open = this.stack.pop();
        if ((c === RBRACE && open !== LBRACE) || (c === RBRACKET && open !== LBRACKET)) {
          this.fail(i, c, 'a matching bracket');
        }
        if (--this.depth === 0) {
          this.finish(buf, i + 1, out);
          return i + 1;
        }
      }
      i++;
    }
    return i;
  }

  /** The key or value ends just before `end`. */
  private finish(buf: Buffer, end: number, out: JsonItem[]): void {
    const text = this.takeCapture(buf, end);
    this.inString = false;
    this.primitive = false;
    if (this.state === S.InKey) {
      this.key = parseKey(text);
      this.state = S.ObjColon;
      return;
    }
    const index = this.index++;
    const key = this.key;
    this.key = null;
    try {
      out.push({ kind: 'item', index, key, value: JSON.parse(text) as unknown });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      out.push({ kind: 'invalid', index, key, reason: `not valid JSON (${why})` });
    }
    if (this.single) this.state = S.Done;
    else this.state = key === null ? S.ArrAfter : S.ObjAfter;
  }

  private takeCapture(buf: Buffer, end: number): string {
    const start = this.captureStart;
    this.captureStart = -1;
    if (this.parts.length === 0) return buf.toString('utf8', start, end);
    const all = Buffer.concat([...this.parts, buf.subarray(start, end)]);
    this.parts = [];
    return all.toString('utf8');
  }

  private fail(i: number, c: number, expected: string): never {
    const found = c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16)}`;
    throw new PieError(
      'UNREADABLE_INPUT',
      `"${this.label}" is not valid JSON at byte ${this.offset + i} (expected ${expected}, found ${found}); the file is damaged or is not a JSON export.`,
      { details: { offset: this.offset + i } },
    );
  }

  end(): void {
    if (this.state === S.Done) return;
    if (!this.sawContent) {
      throw new PieError('UNREADABLE_INPUT', `"${this.label}" is empty; pass the export file that contains the data.`);
    }
    throw new PieError(
      'UNREADABLE_INPUT',
      `"${this.label}" ends in the middle of a JSON value (truncated download?); download the export again.`,
      { details: { offset: this.offset } },
    );
  }
}

function parseKey(literal: string): string {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1); // a key with a bad escape: keep its raw characters
  }
}
