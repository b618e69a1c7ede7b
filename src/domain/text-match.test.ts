import { describe, expect, it } from 'vitest';
import { escapeRegExp } from './text-match.js';

describe('escapeRegExp', () => {
  it.each(['C++', 'a.b', 'Dr. (Jo)', '[x]', 'What?', 'a|b', '$5^2', 'back\\slash', 'x{2}'])(
    '%s matches itself, and only itself',
    (text) => {
      const re = new RegExp(`^${escapeRegExp(text)}$`);
      expect(re.test(text)).toBe(true);
      expect(re.test(`${text}x`)).toBe(false);
    },
  );
});
