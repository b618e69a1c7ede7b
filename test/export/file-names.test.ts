import { describe, expect, it } from 'vitest';
import { assignFileNames, safeFileName } from '../../src/export/file-names.js';

describe('safeFileName', () => {
  it.each([
    ['PIE', 'PIE'],
    ['a/b\\c:d*e?f"g<h>i|j', 'a-b-c-d-e-f-g-h-i-j'],
    ['C#  [draft] ^1', 'C- -draft- -1'],
    ['  spaced   out  ', 'spaced out'],
    ['ends with dots...', 'ends with dots'],
    ['.hidden', 'hidden'],
    ['CON', 'CON_'],
    ['lpt1.txt', 'lpt1.txt_'],
    ['', 'untitled'],
    ['///', 'untitled'],
    ['tab\there\nnewline', 'tab here newline'],
    ['x'.repeat(200), 'x'.repeat(120)],
    ['café', 'café'],
  ])('%j → %j', (input, expected) => {
    expect(safeFileName(input)).toBe(expected);
  });
});

describe('assignFileNames', () => {
  const names = (items: { id: string; name: string; kind: string }[], reserved: string[] = []) =>
    Object.fromEntries(assignFileNames(items, reserved));

  it.each([
    [
      'distinct names stay plain',
      [
        { id: 'a', name: 'PIE', kind: 'project' },
        { id: 'b', name: 'Maya', kind: 'person' },
      ],
      { a: 'PIE', b: 'Maya' },
    ],
    [
      'a case-insensitive collision: the smaller id keeps the name, the other gets its kind',
      [
        { id: 'b', name: 'pie', kind: 'concept' },
        { id: 'a', name: 'PIE', kind: 'project' },
      ],
      { a: 'PIE', b: 'pie (concept)' },
    ],
    [
      'same name and kind: then an id prefix',
      [
        { id: 'x1', name: 'Sam', kind: 'person' },
        { id: 'x2', name: 'Sam', kind: 'person' },
        { id: 'x3', name: 'Sam', kind: 'person' },
      ],
      { x1: 'Sam', x2: 'Sam (person)', x3: 'Sam (person x3)' },
    ],
    [
      'names that differ only in forbidden characters collide after cleaning',
      [
        { id: 'a', name: 'A/B', kind: 'tool' },
        { id: 'b', name: 'A:B', kind: 'tool' },
      ],
      { a: 'A-B', b: 'A-B (tool)' },
    ],
  ])('%s', (_label, items, expected) => {
    expect(names(items)).toEqual(expected);
    // Whatever the input order.
    expect(names([...items].reverse())).toEqual(expected);
  });

  it('never gives out a reserved name', () => {
    expect(names([{ id: 'a', name: 'PIE World', kind: 'project' }], ['pie world'])).toEqual({
      a: 'PIE World (project)',
    });
  });
});
