import { describe, expect, it } from 'vitest';
import {
  chooseCanonical,
  differingCore,
  findDuplicateCandidates,
  isContainedIn,
  withoutKeptApart,
  type DedupEntity,
  type DuplicateReason,
} from './duplicates.js';

const e = (id: string, type: string, name: string, aliases: string[] = []): DedupEntity => ({
  id,
  type,
  name,
  aliases,
});

describe('findDuplicateCandidates', () => {
  const cases: { title: string; entities: DedupEntity[]; want: [string, string, DuplicateReason][] }[] = [
    {
      title: 'same normalized name and type (case, accents, article, punctuation)',
      entities: [e('a', 'tool', 'Café-Notes'), e('b', 'tool', 'the cafe notes'), e('c', 'project', 'Cafe Notes')],
      want: [['a', 'b', 'exact']],
    },
    {
      title: "one's name is the other's alias",
      entities: [e('js1', 'tool', 'JavaScript', ['JS']), e('js2', 'tool', 'JS'), e('x', 'concept', 'JS')],
      want: [['js1', 'js2', 'alias']],
    },
    {
      title: 'an acronym of exactly one multi-word name of the same type',
      entities: [e('s', 'project', 'SRA'), e('l', 'project', 'Science Research Academy'), e('o', 'tool', 'SRA')],
      want: [['l', 's', 'acronym']],
    },
    {
      title: 'an acronym that fits two long names is ambiguous and matches neither',
      entities: [
        e('s', 'project', 'SRA'),
        e('l1', 'project', 'Science Research Academy'),
        e('l2', 'project', 'Solar Race Area'),
      ],
      want: [],
    },
    {
      title: 'high similarity (a typo) at or above the resolver threshold',
      entities: [
        e('a', 'person', 'Priyanka Raman'),
        e('b', 'person', 'Priyanka Ramen'),
        e('c', 'person', 'Priya Kumar'),
      ],
      want: [['a', 'b', 'fuzzy']],
    },
    {
      title: 'long names sharing most words are not alike when the word that differs is another word',
      entities: [
        e('a', 'decision', 'Stop annotation on weekends with Malik'),
        e('b', 'decision', 'Stop annotation on weekends with Mila'),
        e('c', 'decision', 'Stop annotation on weekends with Milla'),
        e('d', 'decision', 'Pause Heath Engine'),
        e('f', 'decision', 'Pause Hearth Engine'),
      ],
      want: [
        ['b', 'c', 'fuzzy'],
        ['d', 'f', 'fuzzy'],
      ],
    },
    {
      title: 'one name a run of whole words of the other',
      entities: [e('t1', 'project', 'Tidepool'), e('t2', 'project', 'Tidepool app'), e('t3', 'project', 'Tide')],
      want: [['t1', 't2', 'contained']],
    },
    {
      title: 'similar names of different types are never paired; short names are not compared fuzzily',
      entities: [e('a', 'project', 'Orion'), e('b', 'tool', 'Orion'), e('c', 'tool', 'Oreo'), e('d', 'tool', 'Oreos')],
      want: [],
    },
    {
      title: 'the strongest reason wins and each pair is reported once',
      entities: [e('a', 'tool', 'Obsidian', ['obsidian md']), e('b', 'tool', 'Obsidian MD')],
      want: [['a', 'b', 'alias']],
    },
    {
      title: 'three entities with one name pair up through the first',
      entities: [e('a', 'person', 'Maya Chen'), e('b', 'person', 'maya chen'), e('c', 'person', 'MAYA CHEN')],
      want: [
        ['a', 'b', 'exact'],
        ['a', 'c', 'exact'],
      ],
    },
  ];
  for (const c of cases) {
    it(c.title, () => {
      const got = findDuplicateCandidates(c.entities).candidates.map((p) => [p.a, p.b, p.reason]);
      expect(got).toEqual(c.want);
    });
  }

  it('skips blocks larger than the limit for similarity, but never exact names', () => {
    const many = Array.from({ length: 30 }, (_, i) => e(`p${String(i).padStart(2, '0')}`, 'project', `Apollo ${i}x`));
    const world = [
      ...many,
      e('z1', 'project', 'Apollo 3x'),
      e('y1', 'project', 'Zephyr Labs'),
      e('y2', 'project', 'Zephyr Lab'),
    ];
    const limited = findDuplicateCandidates(world, { maxBlock: 10 });
    expect(limited.skippedBlocks).toBeGreaterThan(0);
    expect(limited.candidates.map((p) => [p.a, p.b, p.reason])).toEqual([
      ['p03', 'z1', 'exact'],
      ['y1', 'y2', 'fuzzy'],
    ]);
    const full = findDuplicateCandidates(world, { maxBlock: 1000 });
    expect(full.skippedBlocks).toBe(0);
    expect(full.compared).toBeGreaterThan(limited.compared);
  });

  it('compares a pair that shares several blocks once, and only within blocks it is eligible for', () => {
    // "green harbor studio" and "green harbor studios" share the blocks green, harbor (and studio/studios differ).
    const world = [
      e('a', 'project', 'Green Harbor Studio'),
      e('b', 'project', 'Green Harbor Studios'),
      e('c', 'project', 'Harbor Lights'),
      e('d', 'tool', 'Green Harbor Studio'),
    ];
    const r = findDuplicateCandidates(world);
    // a–b (once, though they meet in two blocks), a–c and b–c (in "harbor"); d is another type.
    expect(r.compared).toBe(3);
    expect(r.candidates.map((p) => [p.a, p.b, p.reason])).toEqual([['a', 'b', 'fuzzy']]);
    // With "green" too large a block, a–b still meet in "harbor".
    const crowded = [...world, ...['x1', 'x2', 'x3'].map((id) => e(id, 'project', `Green ${id} Works`))];
    const limited = findDuplicateCandidates(crowded, { maxBlock: 4 });
    expect(limited.skippedBlocks).toBe(1);
    expect(limited.candidates.map((p) => [p.a, p.b, p.reason])).toEqual([['a', 'b', 'fuzzy']]);
  });

  it('does bounded work on a large world of distinct names', () => {
    const syllables = [
      'ba',
      'de',
      'fi',
      'go',
      'ku',
      'la',
      'me',
      'ni',
      'po',
      'ru',
      'sa',
      'te',
      'vi',
      'zo',
      'tra',
      'ste',
    ];
    const word = (n: number): string =>
      [n % 16, Math.floor(n / 16) % 16, Math.floor(n / 256) % 16, Math.floor(n / 4096) % 16]
        .map((k) => syllables[k])
        .join('');
    const world: DedupEntity[] = [];
    for (let i = 0; i < 20_000; i++) {
      world.push(
        e(
          `e${i}`,
          ['person', 'tool', 'project', 'concept'][i % 4] ?? 'tool',
          `${word(i)} ${word((i * 7919) % 65_536)}`,
        ),
      );
    }
    world.push(e('dup', 'tool', `${word(1)} ${word(7919)}`));
    const r = findDuplicateCandidates(world);
    expect(r.candidates.map((p) => [p.a, p.b, p.reason])).toContainEqual(['dup', 'e1', 'exact']);
    // Far from the 2·10⁸ pairs of an all-pairs scan.
    expect(r.compared).toBeLessThan(100_000);
  });

  it('never pairs names that differ in their numbers', () => {
    const got = findDuplicateCandidates([e('a', 'tool', 'iPhone 12 Pro'), e('b', 'tool', 'iPhone 13 Pro')]);
    expect(got.candidates).toEqual([]);
  });
});

describe('differingCore', () => {
  it.each([
    ['stop annotation with malik', 'stop annotation with mila', ['malik', 'mila']],
    ['pause heath engine', 'pause hearth engine', ['heath', 'hearth']],
    ['tidepool', 'tidepool app', null],
    ['obsidian', 'notion', ['obsidian', 'notion']],
  ])('%s / %s', (p, q, want) => {
    expect(differingCore(p, q)).toEqual(want);
  });
});

describe('isContainedIn', () => {
  it.each([
    ['tidepool', 'tidepool app', true],
    ['pool', 'tidepool app', false],
    ['app', 'tidepool app', true],
    ['tidepool app', 'tidepool app', false],
    ['app', 'app tidepool app', true],
    ['pp', 'app tidepool pp', true],
    ['', 'a  b', true],
    ['', 'a b', false],
  ])('%s in %s → %s', (short, long, want) => {
    expect(isContainedIn(short, long)).toBe(want);
  });

  it('is whether the padded name holds the padded shorter one, on random names', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const word = (n: number) => Array.from({ length: n }, () => 'ab '[Math.floor(next() * 3)]).join('');
    for (let k = 0; k < 5000; k++) {
      const long = word(Math.floor(next() * 12));
      const short = word(Math.floor(next() * 5));
      const padded = short.length < long.length && ` ${long} `.includes(` ${short} `);
      expect(isContainedIn(short, long)).toBe(padded);
    }
  });
});

describe('chooseCanonical', () => {
  const p = (id: string, transitions: number, importance: number, firstSeen: number) => ({
    id,
    transitions,
    importance,
    firstSeen,
  });
  it.each([
    ['more history wins', p('a', 2, 0.9, 1), p('b', 5, 0.1, 9), 'b'],
    ['then importance', p('a', 3, 0.4, 1), p('b', 3, 0.6, 9), 'b'],
    ['then the earlier first seen', p('a', 3, 0.5, 5), p('b', 3, 0.5, 2), 'b'],
    ['then the smaller id', p('b', 3, 0.5, 2), p('a', 3, 0.5, 2), 'a'],
  ])('%s', (_title, x, y, want) => {
    expect(chooseCanonical(x, y).canonical.id).toBe(want);
    expect(chooseCanonical(y, x).canonical.id).toBe(want);
  });

  const named = (id: string, name: string, type: string, transitions: number) => ({
    ...p(id, transitions, 0.5, 1),
    name,
    type,
  });
  it.each([
    // A person's fuller name stays, whatever the history: the first name alone was said first or more often.
    [
      'a first name goes into the full name',
      named('a', 'Maya', 'person', 9),
      named('b', 'Maya Chen', 'person', 1),
      'b',
    ],
    ['a last name too', named('a', 'Chen', 'person', 9), named('b', 'Maya Chen', 'person', 1), 'b'],
    // Not a run of the other's words: the history decides.
    ['another person', named('a', 'Maya', 'person', 9), named('b', 'Mayan Chen', 'person', 1), 'a'],
    // Not people: "Tidepool" stays, however "Tidepool app" is longer.
    ['not people', named('a', 'Tidepool', 'project', 9), named('b', 'Tidepool app', 'project', 1), 'a'],
  ])('%s', (_title, x, y, want) => {
    expect(chooseCanonical(x, y).canonical.id).toBe(want);
    expect(chooseCanonical(y, x).canonical.id).toBe(want);
  });
});

describe('withoutKeptApart', () => {
  const meta = (keptApart?: unknown) => ({ meta: keptApart === undefined ? {} : { keptApart } });
  it.each([
    ['no one kept them apart', meta(), meta(), 1],
    ['a kept apart from b', meta(['b']), meta(), 0],
    ['b kept apart from a', meta(), meta(['a']), 0],
    ['kept apart from someone else', meta(['c']), meta(), 1],
    ['a malformed meta is ignored', meta('b'), meta(), 1],
  ] as const)('%s', (_name, a, b, left) => {
    const byId = new Map([
      ['a', a],
      ['b', b],
    ]);
    expect(withoutKeptApart([{ a: 'a', b: 'b' }], byId)).toHaveLength(left);
  });
});
