import o200kBase from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from '../../ports/tokenizer.js';
import { countPiece, parseRanks, utf8Bytes } from './bpe.js';
import { pieceEnd } from './pieces.js';

/** Pieces longer than this are counted in parts (see below). */
const MAX_RUN = 200;
/** Distinct pieces whose counts are remembered before the memory starts over. */
const MEMO_SIZE = 100_000;

/**
 * Exact token counts for the o200k_base encoding (GPT-4o, GPT-5 families), computed offline.
 * Other providers tokenize differently; for them the count is an estimate, which is what `--dry-run` says.
 *
 * Byte-pair encoding works on the pieces the encoding's pattern splits a text into (words with their leading space,
 * number groups, punctuation runs, whitespace; found by pieces.ts), each on its own, so a text's count is the sum of its pieces' counts:
 * each distinct piece is encoded once and remembered. Compiling a context counts hundreds of overlapping lines; most
 * of their words repeat.
 *
 * The ranks are js-tiktoken's; the byte-pair counting is bpe.ts (js-tiktoken's encoder took about a second to
 * build, on every `pie ask`). Byte-pair merging is quadratic in the length of one piece, so a long piece (base64,
 * minified code, a pasted hash) could take seconds to minutes. Such pieces are counted in parts of MAX_RUN
 * characters, each split by the pattern again as the encoder would split it; merges never span more than a few
 * characters, so the count stays within a token or two per part of the exact figure, and ordinary prose is counted
 * exactly.
 */
export function createTiktokenTokenizer(): Tokenizer {
  const ranks = parseRanks(o200kBase.bpe_ranks);
  const memo = new Map<string, number>();
  const exact = (piece: string): number => countPiece(utf8Bytes(piece), ranks);
  const piece = (text: string): number => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    let n = 0;
    if (text.length <= MAX_RUN) n = exact(text);
    else for (let i = 0; i < text.length; i += MAX_RUN) n += sumOfPieces(text.slice(i, i + MAX_RUN), exact);
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(text, n);
    return n;
  };
  return { name: 'o200k_base', count: (text) => sumOfPieces(text, piece) };
}

/** The sum of `count` over the pieces the encoding's pattern splits a text into (pieces.ts follows it). */
function sumOfPieces(text: string, count: (piece: string) => number): number {
  let total = 0;
  for (let i = 0; i < text.length;) {
    const end = pieceEnd(text, i);
    total += count(text.slice(i, end));
    i = end;
  }
  return total;
}
