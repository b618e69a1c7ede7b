import { describe, expect, it } from 'vitest';
import type { Embedder } from '../ports/embedder.js';
import { NameIndex, type IndexedEntity } from './name-index.js';
import { isAcronymOf, normalizeName } from './normalize.js';
import { fullNameOfFirstName, Resolver, type MatchVerifier } from './resolver.js';
import { jaroWinkler } from './similarity.js';

const WORLD: IndexedEntity[] = [
  { id: 'sra', type: 'project', name: 'Science Research Academy', aliases: ['scifair.tech'] },
  { id: 'tp', type: 'project', name: 'Tidepool', aliases: ['TP'] },
  { id: 'maya', type: 'person', name: 'Maya Chen', aliases: [] },
  { id: 'pg', type: 'tool', name: 'PostgreSQL', aliases: ['Postgres'] },
  { id: 'umd', type: 'organization', name: 'University of Maryland', aliases: ['UMD'] },
  { id: 'nlp', type: 'concept', name: 'NLP', aliases: [] },
  { id: 'arjun-a', type: 'person', name: 'Arjun Rao', aliases: [] },
  { id: 'arjun-b', type: 'person', name: 'Arjun Mehta', aliases: [] },
  { id: 'langchain', type: 'tool', name: 'LangChain', aliases: [] },
  { id: 'joanna-childhood', type: 'period', name: "Joanna's childhood", aliases: [] },
];

function resolver(extra: Partial<ConstructorParameters<typeof Resolver>[0]> = {}): Resolver {
  const index = new NameIndex();
  for (const e of WORLD) index.add(e);
  return new Resolver({ index, ...extra });
}

describe('normalization', () => {
  it.each([
    ['  The Science  Research Academy ', 'science research academy'],
    ['Café Müller', 'cafe muller'],
    ["Maya's notes", 'mayas notes'],
    ['C++', 'c++'],
    ['scifair.tech', 'scifair tech'],
  ])('%j → %j', (input, expected) => expect(normalizeName(input)).toBe(expected));

  it.each([
    ['SRA', 'Science Research Academy', true],
    ['UOM', 'University of Maryland', true],
    ['UM', 'University of Maryland', true],
    ['UMD', 'University of Maryland', false],
    ['SR', 'Science Research Academy', false],
    ['sra', 'Science Research Academy', false],
    ['TP', 'Tidepool', false],
  ])('isAcronymOf(%j, %j) = %s', (short, long, expected) => expect(isAcronymOf(short, long)).toBe(expected));
});

describe('resolution layers', () => {
  it.each([
    // [mention, type hint, expected id, layer]
    ['Science Research Academy', 'project', 'sra', 'exact'],
    ['the science research academy', 'project', 'sra', 'exact'],
    ['TP', 'project', 'tp', 'alias'],
    ['postgres', 'tool', 'pg', 'alias'],
    ['UMD', 'organization', 'umd', 'alias'],
    ['SRA', 'project', 'sra', 'acronym'],
    ['Natural Language Processing', 'concept', 'nlp', 'acronym'],
    ['Postgre SQL', 'tool', 'pg', 'fuzzy'],
    ['Langchain', 'tool', 'langchain', 'exact'],
    ['Lang-Chain', 'tool', 'langchain', 'fuzzy'],
    ['Maya', 'person', 'maya', 'fuzzy'],
    // A typo in the words two names do not share.
    ["Joanna's childhod", 'period', 'joanna-childhood', 'fuzzy'],
  ] as const)('%j (%s) → %s by %s', async (name, type, id, layer) => {
    const r = await resolver().resolve({ name, type });
    expect([r.entityId, r.layer]).toEqual([id, layer]);
  });

  it.each([
    ['Arjun', 'person'], // two Arjuns: ambiguous first name stays new
    ['Tidepools Inc', 'organization'], // incompatible type
    ['Maya', 'project'], // first-name rule is for people only
    ['SRA', 'person'],
    ['Supabase', 'tool'],
    // Another person's childhood: the names differ in a word that is no near spelling (LoCoMo 1-5 in one memory).
    ["Jon's childhood", 'period'],
  ] as const)('%j (%s) is new', async (name, type) => {
    const r = await resolver().resolve({ name, type });
    expect(r.entityId).toBeNull();
    expect(r.layer).toBe('new');
  });

  it('leaves a near miss for review: a name whose differing word is nearly the same spelling (0.92)', async () => {
    const r = await resolver().resolve({ name: "Jonna's childhood", type: 'period' });
    expect([r.entityId, r.layer, r.ambiguous.map((c) => c.id)]).toEqual([null, 'new', ['joanna-childhood']]);
    // Of another length, but the same letters written apart: a review too.
    const compound = await resolver().resolve({ name: 'Tide Pool Notes', type: 'project' });
    expect([compound.entityId, compound.ambiguous.map((c) => c.id)]).toEqual([null, ['tp']]);
  });

  it.each([
    // The shared part is what Jaro–Winkler rewards; the words that tell the two apart are no near spelling.
    ["Jon's childhood", 'period'],
    ['University of Michigan', 'organization'],
    // Different lengths: a shared beginning, not a near spelling ("universal" / "university of maryland" is 0.88).
    ['Universal', 'organization'],
    ['Universal Studios', 'organization'],
  ] as const)('%j (%s) is new and left for no review', async (name, type) => {
    const r = await resolver().resolve({ name, type });
    expect([r.entityId, r.ambiguous]).toEqual([null, []]);
  });

  it('sends ambiguous fuzzy candidates to the verifier and accepts its yes', async () => {
    const asked: string[] = [];
    const verifier: MatchVerifier = async ({ name, candidate }) => {
      asked.push(`${name} ~ ${candidate.name}`);
      return candidate.id === 'sra';
    };
    expect(jaroWinkler('science research academia', 'science research academy')).toBeGreaterThan(0.86);
    const r = await resolver({ verifier, fuzzyAccept: 0.99 }).resolve({
      name: 'Science Research Academia',
      type: 'project',
    });
    expect(asked).toEqual(['Science Research Academia ~ Science Research Academy']);
    expect([r.entityId, r.layer]).toEqual(['sra', 'llm']);
  });

  it('without a verifier, ambiguous candidates are reported and the mention stays new', async () => {
    const r = await resolver({ fuzzyAccept: 0.99 }).resolve({ name: 'Science Research Academia', type: 'project' });
    expect(r.entityId).toBeNull();
    expect(r.ambiguous.map((c) => c.id)).toEqual(['sra']);
  });

  it('a verifier that fails leaves the mention new, with the candidates and the reason kept', async () => {
    const verifier: MatchVerifier = async () => {
      throw new Error('model unreachable');
    };
    const r = await resolver({ verifier, fuzzyAccept: 0.99 }).resolve({
      name: 'Science Research Academia',
      type: 'project',
    });
    expect([r.entityId, r.layer, r.verifierError]).toEqual([null, 'new', 'model unreachable']);
    expect(r.ambiguous.map((c) => c.id)).toEqual(['sra']);
  });

  it('uses embedding similarity ≥ 0.88 within the same type when an embedder is configured', async () => {
    // A deterministic embedder that knows "Mom" and "Maya Chen" mean the same person in this test world.
    const groups = [['Mom', 'Maya Chen']];
    const embedder: Embedder = {
      model: 'test',
      dimensions: 3,
      embed: async (texts) =>
        texts.map((t) => (groups[0]?.includes(t) ? [1, 0, 0] : t.startsWith('Arjun') ? [0, 1, 0] : [0, 0, 1])),
    };
    const r = await resolver({ embedder }).resolve({ name: 'Mom', type: 'person' });
    expect([r.entityId, r.layer]).toEqual(['maya', 'embedding']);
    const none = await resolver({ embedder }).resolve({ name: 'Mom', type: 'tool' });
    expect(none.entityId).toBeNull();
  });

  it('aliases added later resolve at the alias layer', async () => {
    const index = new NameIndex();
    for (const e of WORLD) index.add(e);
    index.addAlias('tp', 'the notes app');
    const r = await new Resolver({ index }).resolve({ name: 'The notes app', type: 'project' });
    expect([r.entityId, r.layer]).toEqual(['tp', 'alias']);
  });
});

describe('a full name of a person known by the first name alone', () => {
  const people = (...list: [string, string, string[]?][]): IndexedEntity[] =>
    list.map(([id, name, aliases]) => ({ id, type: 'person', name, aliases: aliases ?? [] }));

  it.each([
    // [mention, known people, expected id or null]
    ['Maya Chen', people(['maya', 'Maya']), 'maya'],
    ['Maya Chen-Li', people(['maya', 'Maya']), 'maya'],
    ["Liam O'Brien", people(['liam', 'Liam']), 'liam'],
    ['Maya Li Chen', people(['maya', 'Maya']), 'maya'],
    // Only with its capital, as the extractor's registry holds a first name: "maya" is not the person "Maya".
    ['Maya Chen', people(['maya', 'maya']), null],
    ['maya chen', people(['maya', 'Maya']), null],
    ['Maya chen', people(['maya', 'Maya']), null],
    // Another person with that first name makes it ambiguous (a name or an alias).
    ['Maya Chen', people(['maya', 'Maya'], ['mp', 'Maya Patel']), null],
    ['Maya Chen', people(['maya', 'Maya'], ['mp', 'M. Patel', ['Maya']]), null],
    // A "Maya" already known by another full name is another Maya.
    ['Maya Chen', people(['maya', 'Maya', ['Maya Patel']]), null],
    // The user's own entity and protected ones keep their names.
    ['User Research', people(['self', 'User']).map((e) => ({ ...e, fixedName: true })), null],
    // The first word only, and a name of two or three words.
    ['Chen Maya', people(['maya', 'Maya']), null],
    ['Maya', people(['maya', 'Maya']), null],
    ['Maya Chen Li Wu', people(['maya', 'Maya']), null],
    // Not a first name: "Jon" is not "Joanna", "Joanna" not "Jon".
    ['Joanna Smith', people(['jon', 'Jon']), null],
    ['Jon Smith', people(['joanna', 'Joanna']), null],
  ] as const)('%j among %j → %s', (name, list, expected) => {
    expect(fullNameOfFirstName({ name, people: list })?.id ?? null).toBe(expected);
  });

  it('resolves "Maya Chen" to the person "Maya" and says it becomes the canonical name', async () => {
    const index = new NameIndex();
    index.add({ id: 'maya', type: 'person', name: 'Maya', aliases: [] });
    index.add({ id: 'mall', type: 'place', name: 'Maya Mall', aliases: [] });
    const r = await new Resolver({ index }).resolve({ name: 'Maya Chen', type: 'person' });
    expect([r.entityId, r.layer, r.canonicalName]).toEqual(['maya', 'fuzzy', 'Maya Chen']);
    // For people only: a place or an untyped mention named so stays new.
    expect((await new Resolver({ index }).resolve({ name: 'Maya Chen', type: undefined })).entityId).toBeNull();
    expect((await new Resolver({ index }).resolve({ name: 'Maya Gardens', type: 'place' })).entityId).toBeNull();
  });

  it('after the rename the full name is the name and the first name an alias: both resolve, exactly', async () => {
    const index = new NameIndex();
    index.add({ id: 'maya', type: 'person', name: 'Maya', aliases: [] });
    index.rename('maya', 'Maya Chen');
    const resolver = new Resolver({ index });
    const full = await resolver.resolve({ name: 'Maya Chen', type: 'person' });
    const first = await resolver.resolve({ name: 'Maya', type: 'person' });
    expect([full.entityId, full.layer, full.canonicalName]).toEqual(['maya', 'exact', undefined]);
    expect([first.entityId, first.layer]).toEqual(['maya', 'alias']);
    expect(index.entities.get('maya')).toMatchObject({ name: 'Maya Chen', aliases: ['Maya'] });
    // The new name's words block: "Chen" alone finds it as a candidate.
    expect(index.candidates('chen').map((e) => e.id)).toEqual(['maya']);
  });
});
