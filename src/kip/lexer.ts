import { KipError } from './errors.js';
import type { Pos } from './ast.js';

export type TokenKind =
  | 'ident' // keywords, keys, function names (keywords are matched case-insensitively by the parser)
  | 'var' // ?name
  | 'param' // :name
  | 'string'
  | 'number'
  | 'punct'
  | 'eof';

export interface Token {
  kind: TokenKind;
  /** ident/var/param: the name (without ? or :); string: the decoded text; number: the source text; punct: itself. */
  text: string;
  pos: Pos;
  /** Offset just past the token (for source slices). */
  end: number;
}

const PUNCT = [
  ';',
  '&&',
  '||',
  '==',
  '!=',
  '<=',
  '>=',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ',',
  ':',
  '.',
  '|',
  '!',
  '<',
  '>',
];
const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[A-Za-z0-9_$]/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Splits KIP source into tokens; `//` and block comments are skipped. Positions are 1-based line and column. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const lines = lineStarts(source);
  const pos = (offset: number): Pos => positionOf(lines, offset);
  let i = 0;
  while (i < source.length) {
    const ch = source[i] ?? '';
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (source.startsWith('/*', i)) {
      const close = source.indexOf('*/', i + 2);
      if (close < 0) throw new KipError('KIP_1001', `Unclosed block comment at ${where(pos(i))}.`);
      i = close + 2;
      continue;
    }
    const start = i;
    if (ch === '"' || ch === "'") {
      const { text, end } = readString(source, i, pos);
      tokens.push({ kind: 'string', text, pos: pos(start), end });
      i = end;
      continue;
    }
    if (/[0-9]/.test(ch) || (ch === '-' && /[0-9.]/.test(source[i + 1] ?? ''))) {
      const match = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i));
      const text = match?.[0] ?? ch;
      tokens.push({ kind: 'number', text, pos: pos(start), end: i + text.length });
      i += text.length;
      continue;
    }
    if (ch === '?' || (ch === ':' && IDENT_START.test(source[i + 1] ?? '') && source[i + 1] !== '$')) {
      let j = i + 1;
      while (j < source.length && IDENT_PART.test(source[j] ?? '')) j++;
      const name = source.slice(i + 1, j);
      if (!NAME.test(name)) {
        const shown = name || (source[i + 1] ?? 'end of input');
        throw new KipError(
          'KIP_1002',
          `"${ch}${name}" at ${where(pos(start))} is not a valid ${ch === '?' ? 'variable' : 'parameter'} name (after "${ch}": ${shown}).`,
        );
      }
      tokens.push({ kind: ch === '?' ? 'var' : 'param', text: name, pos: pos(start), end: j });
      i = j;
      continue;
    }
    if (IDENT_START.test(ch)) {
      let j = i + 1;
      while (j < source.length && IDENT_PART.test(source[j] ?? '')) j++;
      tokens.push({ kind: 'ident', text: source.slice(i, j), pos: pos(start), end: j });
      i = j;
      continue;
    }
    const punct = PUNCT.find((p) => source.startsWith(p, i));
    if (!punct) throw new KipError('KIP_1001', `Unexpected character "${ch}" at ${where(pos(start))}.`);
    tokens.push({ kind: 'punct', text: punct, pos: pos(start), end: i + punct.length });
    i += punct.length;
  }
  tokens.push({ kind: 'eof', text: '', pos: pos(source.length), end: source.length });
  return tokens;
}

function readString(source: string, start: number, pos: (o: number) => Pos): { text: string; end: number } {
  const quote = source[start];
  let out = '';
  let i = start + 1;
  while (i < source.length) {
    const ch = source[i] ?? '';
    if (ch === quote) return { text: out, end: i + 1 };
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', "'": "'" };
      if (next === 'u') {
        const hex = source.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new KipError('KIP_1001', `Bad \\u escape at ${where(pos(i))}.`);
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
        continue;
      }
      out += simple[next] ?? next;
      i += 2;
      continue;
    }
    out += ch;
    i++;
  }
  throw new KipError('KIP_1001', `Unterminated string starting at ${where(pos(start))}.`);
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') starts.push(i + 1);
  return starts;
}

function positionOf(starts: number[], offset: number): Pos {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { offset, line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

export function where(p: Pos): string {
  return `line ${p.line}, column ${p.column}`;
}
