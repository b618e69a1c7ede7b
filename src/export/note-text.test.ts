import { describe, expect, it } from 'vitest';
import { linkAlias, noteText, oneLine } from './note-text.js';

describe('note text', () => {
  it('keeps a name on one line whatever it holds', () => {
    expect(oneLine('Tide\u0000Pool\n# Injected\r\n\u2028x')).toBe('Tide Pool # Injected x');
  });

  it('escapes what would make a name a link, a cell, a heading or HTML', () => {
    expect(noteText('# not a heading')).toBe('\\# not a heading');
    expect(noteText('a [[link]] | cell <b>')).toBe('a \\[\\[link\\]\\] \\| cell \\<b\\>');
    expect(noteText('plain name 2024')).toBe('plain name 2024');
  });

  it('link aliases lose the characters that end a wikilink', () => {
    expect(linkAlias('Maya [[x]] | y\nz')).toBe('Maya x y z');
  });
});
