import { createTiktokenTokenizer } from '../src/adapters/tokenizer/tiktoken.js';
import { createRng, pick } from './generate/prng.js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('');
const WORDS = 'the project memory graph model data build plan search entity should would paper week'.split(' ');

export interface ProbeRow {
  text: string;
  tokens: number;
  ms: number;
}

function repeatTo(unit: string, chars: number): string {
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

function samples(chars: number): Record<string, string> {
  const rng = createRng(3);
  let prose = '';
  while (prose.length < chars) prose += `${pick(rng, WORDS)} `;
  return {
    'prose (words and spaces)': prose.slice(0, chars),
    'pseudo-random base64': Array.from({ length: chars }, () => pick(rng, BASE64)).join(''),
    'a repeated hex hash': repeatTo('9f86d081884c7d659a2feaa0c55ad015', chars),
    'words without spaces': repeatTo('projectmemorygraphmodel', chars),
    'one repeated letter': repeatTo('a', chars),
  };
}

/**
 * The known risk of js-tiktoken: byte-pair merging is quadratic in the length of one piece, so long runs without
 * spaces (base64, hashes, minified code) are slow. Counts `chars` characters of several kinds of text with the
 * project's tokenizer (src/adapters/tokenizer/tiktoken.ts), in-process.
 */
export function probeTokenizer(input: { chars: number }): ProbeRow[] {
  const tokenizer = createTiktokenTokenizer();
  const kinds = samples(input.chars);
  // Warm up the encoder and the JIT on prose first, so the prose figure is not mostly start-up.
  for (let i = 0; i < 3; i++) tokenizer.count(Object.values(kinds)[0] ?? '');
  return Object.entries(kinds).map(([text, sample]) => {
    const started = performance.now();
    const tokens = tokenizer.count(sample);
    return { text, tokens, ms: performance.now() - started };
  });
}
