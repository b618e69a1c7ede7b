import { describe, expect, it } from 'vitest';
import type { Embedder } from '../ports/embedder.js';
import { NameIndex, type IndexedEntity } from './name-index.js';
import { isAcronymOf, normalizeName } from './normalize.js';
import { Resolver, type MatchVerifier } from './resolver.js';
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

  it('leaves a close name that differs in a whole word for review rather than taking it', async () => {
    const r = await resolver().resolve({ name: "Jon's childhood", type: 'period' });
    expect([r.entityId, r.layer, r.ambiguous.map((c) => c.id)]).toEqual([null, 'new', ['joanna-childhood']]);
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
