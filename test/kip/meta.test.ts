import { describe, expect, it } from 'vitest';
import { createFakeEmbedder } from '../../src/adapters/embed/fake.js';
import type { JsonValue } from '../../src/kip/ast.js';
import { parseKip } from '../../src/kip/parser/index.js';
import { drugWorld, expectError, openWorld, useWorld, type KipWorld } from './helpers.js';

const world = useWorld();

interface Node {
  id: string;
  type?: string;
  name?: string;
  subject?: string;
  predicate?: string;
  object?: string;
  attributes: Record<string, JsonValue>;
  metadata: Record<string, JsonValue>;
}

describe('DESCRIBE', () => {
  it('PRIMER: identity, domain map with member counts, schema and world sizes', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok(
      'UPSERT { CONCEPT ?x { {type: "Drug", name: "Aspirin"} SET PROPOSITIONS { ("belongs_to_domain", {type: "Domain", name: "Unsorted"}) } } }',
    );
    await w.store.entities.insert({
      id: 'self',
      type: 'person',
      name: 'User',
      state: {},
      firstSeen: 0,
      lastSeen: 0,
      createdFrom: null,
      recordedAt: 0,
    });
    const primer = await w.ok<{
      identity: Node;
      user: Node;
      domain_map: { name: string; description: string; members: number }[];
      schema: { concept_types: number; proposition_types: number };
      world: { entities: number };
    }>('DESCRIBE PRIMER');
    expect(primer.identity).toMatchObject({ type: 'Person', name: '$self', attributes: { person_class: 'AI' } });
    expect(primer.user).toMatchObject({ id: 'self', type: 'Person', name: 'User' });
    const unsorted = primer.domain_map.find((d) => d.name === 'Unsorted');
    expect(unsorted).toEqual({ name: 'Unsorted', description: 'Holding area for uncategorized items.', members: 1 });
    expect(primer.domain_map.map((d) => d.name)).toEqual(['Archived', 'CoreSchema', 'Unsorted']);
    expect(primer.domain_map.find((d) => d.name === 'CoreSchema')?.members).toBeGreaterThan(20);
    expect(primer.schema.concept_types).toBeGreaterThanOrEqual(20);
    expect(primer.world.entities).toBeGreaterThan(40);
  });

  it('DOMAINS, CONCEPT TYPES (paged), CONCEPT TYPE, PROPOSITION TYPES, PROPOSITION TYPE', async () => {
    const w = world();
    await drugWorld(w);
    expect((await w.ok<Node[]>('DESCRIBE DOMAINS')).map((d) => d.name)).toEqual(['Archived', 'CoreSchema', 'Unsorted']);
    const page1 = await w.kip('DESCRIBE CONCEPT TYPES LIMIT 4');
    expect(page1).toEqual({
      result: ['$ConceptType', '$PropositionType', 'Belief', 'Commitment'],
      next_cursor: expect.any(String),
    });
    const all = await w.ok<string[]>('DESCRIBE CONCEPT TYPES');
    expect(all).toEqual(
      expect.arrayContaining(['Drug', 'Symptom', 'Person', 'Event', 'SleepTask', 'Domain', 'Project']),
    );
    const page2 = await w.ok<string[]>('DESCRIBE CONCEPT TYPES LIMIT 4 CURSOR :c', {
      c: 'next_cursor' in page1 ? (page1.next_cursor ?? '') : '',
    });
    expect(page2).toEqual(all.slice(4, 8));
    expect(await w.ok('DESCRIBE CONCEPT TYPE "Drug"')).toMatchObject({
      type: '$ConceptType',
      name: 'Drug',
      attributes: { description: 'A medicine.' },
      instances: 4,
    });
    expect(await w.ok<string[]>('DESCRIBE PROPOSITION TYPES')).toEqual(
      expect.arrayContaining(['treats', 'belongs_to_domain', 'works_on']),
    );
    expect(await w.ok('DESCRIBE PROPOSITION TYPE "treats"')).toMatchObject({
      attributes: { subject_types: ['Drug'], object_types: ['Symptom'] },
    });
    const e = await w.err('DESCRIBE CONCEPT TYPE "drug"');
    expect([e.code, e.message.includes("Did you mean 'Drug'?")]).toEqual(['KIP_2001', true]);
  });
});

describe('SEARCH', () => {
  it('keyword: names and aliases score 1, WITH TYPE filters, THRESHOLD drops weak hits, LIMIT caps', async () => {
    const w = world();
    await drugWorld(w);
    const asa = await w.ok<Node[]>('SEARCH CONCEPT "ASA"');
    expect(asa[0]).toMatchObject({ name: 'Aspirin', metadata: { _score: 1 } });
    const fever = await w.ok<Node[]>('SEARCH CONCEPT "fever" WITH TYPE "Symptom" MODE "keyword"');
    expect(fever.map((n) => n.name)).toEqual(['Fever']);
    expect(await w.ok('SEARCH CONCEPT "fever" WITH TYPE "Drug"')).toEqual([]);
    const loose = await w.ok<Node[]>('SEARCH CONCEPT "acid"');
    expect(loose.map((n) => n.name)).toEqual(['Aspirin']);
    expect(Number(loose[0]?.metadata['_score'])).toBeLessThan(1);
    expect(await w.ok('SEARCH CONCEPT "acid" THRESHOLD 0.99')).toEqual([]);
    expect(await w.ok<Node[]>('SEARCH CONCEPT :t LIMIT :n', { t: 'Aspirin Ibuprofen Paracetamol', n: 2 })).toHaveLength(
      2,
    );
    expectError(await w.kip('SEARCH CONCEPT "  "'), 'KIP_2003');
  });

  it('semantic degrades to keyword without an embedder; with one, it finds meanings', async () => {
    const w = world();
    await drugWorld(w);
    expect(await w.ok('SEARCH CONCEPT "ASA" MODE "semantic"')).toEqual(
      await w.ok('SEARCH CONCEPT "ASA" MODE "keyword"'),
    );
    const embedder = createFakeEmbedder({ synonyms: [['painkiller', 'Aspirin']] });
    const drugs = await w.store.entities.list({ type: 'drug' });
    const vectors = await embedder.embed(drugs.map((d) => d.name));
    for (const [i, d] of drugs.entries()) {
      await w.store.embeddings.put({
        ownerKind: 'entity',
        ownerId: d.id,
        model: embedder.model,
        vector: Float32Array.from(vectors[i] ?? []),
        createdAt: 0,
      });
    }
    expect(await w.ok('SEARCH CONCEPT "painkiller" MODE "keyword"')).toEqual([]);
    const r = await w.kip('SEARCH CONCEPT "painkiller" MODE "semantic" THRESHOLD 0.9', {}, { embedder });
    expect('result' in r ? (r.result as unknown as Node[]).map((n) => [n.name, n.metadata['_score']]) : r).toEqual([
      ['Aspirin', 1],
    ]);
    const hybrid = await w.kip('SEARCH CONCEPT "painkiller" THRESHOLD 0.9', {}, { embedder });
    expect('result' in hybrid ? (hybrid.result as unknown as Node[]).map((n) => n.name) : hybrid).toEqual(['Aspirin']);
  });

  it('propositions through their endpoints and predicate', async () => {
    const w = world();
    await drugWorld(w);
    const hits = await w.ok<Node[]>('SEARCH PROPOSITION "Fever" WITH TYPE "treats"');
    expect(hits).toHaveLength(2);
    expect(hits.every((h) => h.predicate === 'treats' && Number(h.metadata['_score']) > 0.5)).toBe(true);
    expect(await w.ok<Node[]>('SEARCH PROPOSITION "has side effect"')).toHaveLength(1);
  });
});

/** The graph as comparable data: concepts by type/name and links by endpoint names, reserved metadata left out. */
async function graphOf(w: KipWorld): Promise<unknown> {
  const concepts = await w.ok<Node[]>(
    'FIND(?c) WHERE { ?c {type: "Drug"} UNION { ?c {type: "Symptom"} } UNION { ?c {type: "DrugClass"} } UNION { ?c {type: "Person", name: "John Doe"} } }',
  );
  const names = new Map(concepts.map((c) => [c.id, `${c.type}:${c.name}`]));
  const clean = (m: Record<string, JsonValue>) =>
    Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('_')));
  const links = await w.ok<Node[]>('FIND(?l) WHERE { ?l (?s, ?p, ?o) FILTER(?p != "belongs_to_domain") }');
  const linkNames = new Map<string, string>();
  const describe = (l: Node): string =>
    `(${names.get(l.subject ?? '') ?? linkNames.get(l.subject ?? '')} ${l.predicate} ${names.get(l.object ?? '') ?? linkNames.get(l.object ?? '')})`;
  for (let pass = 0; pass < 3; pass++) for (const l of links) linkNames.set(l.id, describe(l));
  return {
    concepts: concepts
      .map((c) => ({ key: names.get(c.id), attributes: c.attributes, metadata: clean(c.metadata) }))
      .sort((a, b) => String(a.key).localeCompare(String(b.key))),
    links: links
      .map((l) => ({ key: describe(l), attributes: l.attributes, metadata: clean(l.metadata) }))
      .sort((a, b) => a.key.localeCompare(b.key)),
  };
}

describe('EXPORT', () => {
  it('round trip: EXPORT → fresh database → import gives the same graph, and re-importing changes nothing', async () => {
    const a = world();
    await drugWorld(a);
    await a.ok(`UPSERT {
      PROPOSITION ?fact { ({type: "Drug", name: "Aspirin"}, "treats", {type: "Symptom", name: "Headache"}) SET ATTRIBUTES { evidence: {trials: 3, notes: ["a", "b"]} } }
      PROPOSITION ?said { ({type: "Person", name: "John Doe"}, "stated", ?fact) } WITH METADATA { confidence: 0.7 }
    } WITH METADATA { source: "interview", author: "$system" }`);
    const schema = await a.ok<{ capsule: string; concepts: number }>(
      'EXPORT ?t WHERE { ?t {type: "$ConceptType"} UNION { ?t {type: "$PropositionType"} } }',
    );
    const data = await a.ok<{ capsule: string; concepts: number; propositions: number }>(
      'EXPORT ?x WHERE { ?x {type: "Drug"} UNION { ?x {type: "Symptom"} } UNION { ?x {type: "DrugClass"} } UNION { ?x {type: "Person", name: "John Doe"} } UNION { ?x (?s, ?p, ?o) FILTER(?p != "belongs_to_domain") } }',
    );
    expect([data.concepts, data.propositions]).toEqual([9, 9]);
    expect(data.capsule).not.toMatch(/_version|_updated_at/);
    expect(parseKip(data.capsule)).toHaveLength(1);

    const b = await openWorld();
    try {
      await b.ok(schema.capsule);
      const imported = await b.ok<{ concepts: { status: string }[]; propositions: { status: string }[] }>(data.capsule);
      expect(imported.propositions.every((p) => p.status === 'created')).toBe(true);
      expect(await graphOf(b)).toEqual(await graphOf(a));
      const again = await b.ok<{ concepts: { status: string }[]; propositions: { status: string }[] }>(data.capsule);
      expect([...again.concepts, ...again.propositions].every((x) => x.status === 'unchanged')).toBe(true);
      const intoSource = await a.ok<{ concepts: { status: string }[]; propositions: { status: string }[] }>(
        data.capsule,
      );
      expect([...intoSource.concepts, ...intoSource.propositions].every((x) => x.status === 'unchanged')).toBe(true);
    } finally {
      await b.close();
    }
  });

  it('endpoints outside the export become {type, name} references that must exist on import', async () => {
    const w = world();
    await drugWorld(w);
    const r = await w.ok<{ capsule: string; concepts: number; propositions: number }>(
      'EXPORT ?l WHERE { ?l ({type: "Drug", name: "Ibuprofen"}, ?p, ?o) } LIMIT 1',
    );
    expect(r.propositions).toBe(1);
    expect(r.capsule).toContain('({type: "Drug", name: "Ibuprofen"}, ');
    const b = await openWorld();
    try {
      await b.ok(
        (
          await w.ok<{ capsule: string }>(
            'EXPORT ?t WHERE { ?t {type: "$ConceptType"} UNION { ?t {type: "$PropositionType"} } }',
          )
        ).capsule,
      );
      expectError(await b.kip(r.capsule), 'KIP_3002');
    } finally {
      await b.close();
    }
  });
});
