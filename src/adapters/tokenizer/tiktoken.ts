import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from '../../ports/tokenizer.js';

/** Runs of non-space characters longer than this are counted in pieces (see below). */
const MAX_RUN = 200;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`, 'g');

/**
 * Exact token counts for the o200k_base encoding (GPT-4o, GPT-5 families), computed offline.
 * Other providers tokenize differently; for them the count is an estimate, which is what `--dry-run` says.
 *
 * js-tiktoken's byte-pair merge is quadratic in the length of one pre-tokenized piece, so a long run without spaces
 * (base64, minified code, a pasted hash) can take seconds to minutes. Such runs are counted in pieces of MAX_RUN
 * characters; BPE merges never span more than a few characters, so the count stays within a token or two per piece
 * of the exact figure, and ordinary prose is counted exactly.
 */
export function createTiktokenTokenizer(): Tokenizer {
  const encoder = new Tiktoken(o200kBase);
  const encode = (text: string): number => (text.length === 0 ? 0 : encoder.encode(text, [], []).length);
  return {
    name: 'o200k_base',
    count(text: string): number {
      LONG_RUN.lastIndex = 0;
      if (!LONG_RUN.test(text)) return encode(text);
      let total = 0;
      let last = 0;
      LONG_RUN.lastIndex = 0;
      for (const match of text.matchAll(LONG_RUN)) {
        total += encode(text.slice(last, match.index));
        const run = match[0];
        for (let i = 0; i < run.length; i += MAX_RUN) total += encode(run.slice(i, i + MAX_RUN));
        last = match.index + run.length;
      }
      return total + encode(text.slice(last));
    },
  };
}
