import type { JsonValue, Pos } from '../ast.js';
import { KipError } from '../errors.js';
import { where, type Token } from '../lexer.js';

/** A token stream with the helpers every parser file uses; keywords compare case-insensitively. */
export class TokenCursor {
  private i = 0;

  constructor(
    private readonly tokens: readonly Token[],
    readonly params: Readonly<Record<string, JsonValue>>,
  ) {}

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)] as Token;
  }

  next(): Token {
    const t = this.peek();
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  get pos(): Pos {
    return this.peek().pos;
  }

  atEnd(): boolean {
    return this.peek().kind === 'eof';
  }

  isKeyword(word: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'ident' && t.text.toUpperCase() === word;
  }

  isPunct(p: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'punct' && t.text === p;
  }

  acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.i++;
    return true;
  }

  acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.i++;
    return true;
  }

  expectKeyword(word: string, context?: string): Token {
    if (!this.isKeyword(word)) this.fail(`${word}${context ? ` ${context}` : ''}`);
    return this.next();
  }

  expectPunct(p: string, context?: string): Token {
    if (!this.isPunct(p)) this.fail(`"${p}"${context ? ` ${context}` : ''}`);
    return this.next();
  }

  expectVar(context: string): Token {
    if (this.peek().kind !== 'var') this.fail(`a ?variable ${context}`);
    return this.next();
  }

  /** A parameter's value; a missing parameter is a reference error. */
  param(token: Token): JsonValue {
    if (!Object.prototype.hasOwnProperty.call(this.params, token.text)) {
      throw new KipError('KIP_3001', `The parameter :${token.text} at ${where(token.pos)} has no value.`, {
        hint: `Pass "${token.text}" in "parameters" (on the command line: --params '{"${token.text}": …}').`,
      });
    }
    return this.params[token.text] ?? null;
  }

  fail(expected: string): never {
    const t = this.peek();
    throw new KipError('KIP_1001', `Expected ${expected} at ${where(t.pos)}, found ${describe(t)}.`);
  }
}

export function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'the end of the command';
    case 'string':
      return `the string "${t.text}"`;
    case 'var':
      return `?${t.text}`;
    case 'param':
      return `:${t.text}`;
    default:
      return `"${t.text}"`;
  }
}
