import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from '../../ports/tokenizer.js';

/**
 * Exact token counts for the o200k_base encoding (GPT-4o, GPT-5 families), computed offline.
 * Other providers tokenize differently; for them the count is an estimate, which is what `--dry-run` says.
 */
export function createTiktokenTokenizer(): Tokenizer {
  const encoder = new Tiktoken(o200kBase);
  return {
    name: 'o200k_base',
    count(text: string): number {
      if (text.length === 0) return 0;
      return encoder.encode(text, [], []).length;
    },
  };
}
