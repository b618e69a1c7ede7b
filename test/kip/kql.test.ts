import { describe, expect, it } from 'vitest';
import { drugWorld, expectError, useWorld } from './helpers.js';

const world = useWorld();

type Row = unknown[];

describe('KQL: concept patterns', () => {
  it('matches by type, by name, by type and name, and by id', async () => {
    const w = world();
    await drugWorld(w);
    expect(await w.ok('FIND(?d.name) WHERE { ?d {type: "Drug"} } ORDER BY ?d.name')).toEqual([
      'Aspirin',
      'Ibuprofen',
      'Morphine',
      'Paracetamol',
    ]);
    expect(await w.ok('FIND(?d.type) WHERE { ?d {name: "Fever"} }')).toEqual(['Symptom']);
    const [aspirin] = await w.ok<{ id: string; type: string; name: string; attributes: object }[]>(
      'FIND(?d) WHERE { ?d {type: "Drug", name: "Aspirin"} }',
    );
    expect(aspirin).toMatchObject({
      type: 'Drug',
      name: 'Aspirin',
      attributes: { risk_level: 2, aliases: ['ASA', 'acetylsalicylic acid'] },
    });
    expect(await w.ok('FIND(?d.name) WHERE { ?d {id: :id} }', { id: aspirin?.id ?? '' })).toEqual(['Aspirin']);
    expect(await w.ok('FIND(?d.name) WHERE { ?d {type: "Drug", name: "Nonexistent"} }')).toEqual([]);
  });

  it('an unknown or wrongly cased type is KIP_2001 with a suggestion', async () => {
    const w = world();
    await drugWorld(w);
    const e = await w.err('FIND(?d) WHERE { ?d {type: "drug"} }');
    expect(e.code).toBe('KIP_2001');
    expect(e.message).toContain("Did you mean 'Drug'?");
    expect(e.hint).toMatch(/DESCRIBE/);
    expect((await w.err('FIND(?d) WHERE { ?d {type: "Drugz"} }')).message).toContain("Did you mean 'Drug'?");
    expect((await w.err('FIND(?d) WHERE { (?d, "treat", ?s) }')).message).toContain("Did you mean 'treats'?");
  });

  it('an undefined variable in FIND or FILTER is KIP_3001', async () => {
    const w = world();
    await drugWorld(w);
    expect((await w.err('FIND(?x.name) WHERE { ?d {type: "Drug"} }')).code).toBe('KIP_3001');
    expect((await w.err('FIND(?d) WHERE { ?d {type: "Drug"} FILTER(?y.name == "a") }')).code).toBe('KIP_3001');
  });
});

describe('KQL: proposition patterns', () => {
  it('structural matches bind subject, object and the link', async () => {
    const w = world();
    await drugWorld(w);
    const rows = await w.ok<Row[]>(
      'FIND(?d.name, ?s.name, ?l.predicate) WHERE { ?d {type: "Drug"} ?l (?d, "treats", ?s) } ORDER BY ?d.name, ?s.name',
    );
    expect(rows).toEqual([
      ['Aspirin', 'Fever', 'treats'],
      ['Aspirin', 'Headache', 'treats'],
      ['Ibuprofen', 'Headache', 'treats'],
      ['Paracetamol', 'Fever', 'treats'],
      ['Paracetamol', 'Headache', 'treats'],
    ]);
  });

  it('matches from the object side, with both ends free, and by link id', async () => {
    const w = world();
    await drugWorld(w);
    expect(
      await w.ok('FIND(?d.name) WHERE { (?d, "treats", {type: "Symptom", name: "Fever"}) } ORDER BY ?d.name'),
    ).toEqual(['Aspirin', 'Paracetamol']);
    expect(await w.ok('FIND(COUNT(?l)) WHERE { ?l (?s, "treats", ?o) }')).toEqual([5]);
    const [id] = await w.ok<string[]>('FIND(?l.id) WHERE { ?l ({type: "Drug", name: "Ibuprofen"}, "treats", ?o) }');
    const [link] = await w.ok<{ subject: string; predicate: string; object: string }[]>(
      'FIND(?l) WHERE { ?l (id: :id) }',
      { id: id ?? '' },
    );
    expect(link?.predicate).toBe('treats');
    expect(await w.ok('FIND(?o.name) WHERE { ?l (id: :id) ?l (?s, "treats", ?o) }', { id: id ?? '' })).toEqual([
      'Headache',
    ]);
  });

  it('predicate variables bind the predicate name and unify across clauses (the ego graph)', async () => {
    const w = world();
    await drugWorld(w);
    const rows = await w.ok<Row[]>(`FIND(?pred, ?neighbor.name)
WHERE {
?link ({type: "Drug", name: "Aspirin"}, ?pred, ?neighbor)
FILTER(?pred != "belongs_to_class")
} ORDER BY ?pred, ?neighbor.name LIMIT 50`);
    expect(rows).toEqual([
      ['has_side_effect', 'Nausea'],
      ['treats', 'Fever'],
      ['treats', 'Headache'],
    ]);
    const same = await w.ok<Row[]>(
      'FIND(?a.name, ?b.name, ?p) WHERE { ?a {type: "Drug"} ?b {type: "Drug"} (?a, ?p, ?x) (?b, ?p, ?x) FILTER(?a.name < ?b.name && ?p == "belongs_to_class") }',
    );
    expect(same).toEqual([['Aspirin', 'Ibuprofen', 'belongs_to_class']]);
  });

  it('alternatives and hop ranges, including the zero-hop reflexive match', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok(`UPSERT {
      CONCEPT ?a { {type: "Symptom", name: "A"} }
      CONCEPT ?b { {type: "Symptom", name: "B"} SET PROPOSITIONS { ("causes", ?a) } }
      CONCEPT ?c { {type: "Symptom", name: "C"} SET PROPOSITIONS { ("causes", ?b) } }
      CONCEPT ?d { {type: "Symptom", name: "D"} SET PROPOSITIONS { ("causes", ?c) } }
    }`);
    const reach = (hops: string) =>
      w.ok(`FIND(?x.name) WHERE { ({type: "Symptom", name: "D"}, "causes"${hops}, ?x) } ORDER BY ?x.name`);
    expect(await reach('')).toEqual(['C']);
    expect(await reach('{1,2}')).toEqual(['B', 'C']);
    expect(await reach('{2,}')).toEqual(['A', 'B']);
    expect(await reach('{3}')).toEqual(['A']);
    expect(await reach('{0,1}')).toEqual(['C', 'D']);
    expect(
      await w.ok('FIND(?x.name) WHERE { (?x, "causes"{2,3}, {type: "Symptom", name: "A"}) } ORDER BY ?x.name'),
    ).toEqual(['C', 'D']);
    expect(
      await w.ok(
        'FIND(?x.name) WHERE { ({type: "Drug", name: "Aspirin"}, "has_side_effect" | "belongs_to_class", ?x) } ORDER BY ?x.name',
      ),
    ).toEqual(['NSAID', 'Nausea']);
    expect((await w.err('FIND(?l) WHERE { ?l (?a, "causes"{1,2}, ?b) }')).code).toBe('KIP_1001');
  });

  it('higher-order propositions: the specification example', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok(`UPSERT {
      PROPOSITION ?stmt { ({type: "Person", name: "John Doe"}, "stated", ({type: "Drug", name: "Aspirin"}, "treats", {type: "Symptom", name: "Headache"})) }
      WITH METADATA { confidence: 0.7 }
    }`);
    expect(
      await w.ok(`FIND(?statement.metadata.confidence)
WHERE {
?fact ({type: "Drug", name: "Aspirin"}, "treats", {type: "Symptom", name: "Headache"})
?statement ({type: "Person", name: "John Doe"}, "stated", ?fact)
}`),
    ).toEqual([0.7]);
    // The nested form binds the inner variables.
    expect(await w.ok('FIND(?s.name, ?o.name, ?p) WHERE { (?u, "stated", (?s, ?p, ?o)) }')).toEqual([
      ['Aspirin', 'Headache', 'treats'],
    ]);
    // A statement about a statement is not a concept.
    expect(
      await w.ok(
        'FIND(?x) WHERE { ({type: "Person", name: "John Doe"}, "stated", ?x) FILTER(IS_NOT_NULL(?x.subject)) }',
      ),
    ).toHaveLength(1);
  });
});

describe('KQL: FILTER', () => {
  it('comparison, logical, membership, null checks and string functions', async () => {
    const w = world();
    await drugWorld(w);
    const names = (f: string) => w.ok(`FIND(?d.name) WHERE { ?d {type: "Drug"} FILTER(${f}) } ORDER BY ?d.name`);
    expect(await names('?d.attributes.risk_level < 3')).toEqual(['Aspirin', 'Paracetamol']);
    expect(await names('?d.attributes.risk_level <= 2 && ?d.attributes.risk_level >= 2')).toEqual(['Aspirin']);
    expect(await names('?d.attributes.risk_level > 3 || ?d.name == "Aspirin"')).toEqual(['Aspirin', 'Morphine']);
    expect(await names('!(?d.attributes.risk_level != 3)')).toEqual(['Ibuprofen']);
    expect(await names('IN(?d.name, ["Morphine", "Paracetamol", "Nope"])')).toEqual(['Morphine', 'Paracetamol']);
    expect(await names('IS_NULL(?d.attributes.aliases)')).toEqual(['Ibuprofen', 'Morphine', 'Paracetamol']);
    expect(await names('IS_NOT_NULL(?d.attributes.aliases)')).toEqual(['Aspirin']);
    expect(await names('CONTAINS(?d.name, "pro")')).toEqual(['Ibuprofen']);
    expect(await names('CONTAINS(?d.attributes.aliases, "ASA")')).toEqual(['Aspirin']);
    expect(await names('STARTS_WITH(?d.name, "Mor") || ENDS_WITH(?d.name, "mol")')).toEqual([
      'Morphine',
      'Paracetamol',
    ]);
    expect(await names('REGEX(?d.name, "^[ai]", "i")')).toEqual(['Aspirin', 'Ibuprofen']);
    expect(await names('?d.metadata.created_at > "2000-01-01T00:00:00Z"')).toHaveLength(4);
    expect(await names('?d.attributes.risk_level < "3"')).toEqual([]);
  });

  it('a FILTER before the patterns that bind its variables still applies', async () => {
    const w = world();
    await drugWorld(w);
    expect(await w.ok('FIND(?d.name) WHERE { FILTER(?d.attributes.risk_level == 5) ?d {type: "Drug"} }')).toEqual([
      'Morphine',
    ]);
  });
});

describe('KQL: OPTIONAL, NOT, UNION and scope', () => {
  it('OPTIONAL keeps solutions without a match, with null (spec §2.4 first example)', async () => {
    const w = world();
    await drugWorld(w);
    const rows = await w.ok<Row[]>(`FIND(?drug.name, ?side_effect.name)
WHERE {
?drug {type: "Drug"}
OPTIONAL { (?drug, "has_side_effect", ?side_effect) }
FILTER(?drug.attributes.risk_level < 3)
} ORDER BY ?drug.name`);
    expect(rows).toEqual([
      ['Aspirin', 'Nausea'],
      ['Paracetamol', null],
    ]);
    expect(
      await w.ok(
        'FIND(?d.name) WHERE { ?d {type: "Drug"} OPTIONAL { (?d, "has_side_effect", ?s) } FILTER(IS_NULL(?s)) } ORDER BY ?d.name',
      ),
    ).toEqual(['Ibuprofen', 'Morphine', 'Paracetamol']);
  });

  it('NOT excludes, and its variables stay private (spec §2.4 second example)', async () => {
    const w = world();
    await drugWorld(w);
    const rows = await w.ok<Row[]>(`FIND(?drug.name, ?drug.attributes.risk_level)
WHERE {
?drug {type: "Drug"}
(?drug, "treats", {name: "Headache"})
NOT { (?drug, "belongs_to_class", {name: "NSAID"}) }
FILTER(?drug.attributes.risk_level < 4)
}
ORDER BY ?drug.attributes.risk_level ASC
LIMIT 20`);
    expect(rows).toEqual([['Paracetamol', 1]]);
    expect((await w.err('FIND(?c) WHERE { ?d {type: "Drug"} NOT { (?d, "belongs_to_class", ?c) } }')).code).toBe(
      'KIP_3001',
    );
  });

  it('UNION runs its branch independently, de-duplicates, and leaves absent variables null', async () => {
    const w = world();
    await drugWorld(w);
    const rows = await w.ok(`FIND(?drug.name)
WHERE {
?drug {type: "Drug"}
(?drug, "treats", {name: "Headache"})
UNION {
?drug {type: "Drug"}
(?drug, "treats", {name: "Fever"})
}
} ORDER BY ?drug.name`);
    expect(rows).toEqual(['Aspirin', 'Ibuprofen', 'Paracetamol']);
    const mixed = await w.ok<Row[]>(
      'FIND(?d.name, ?c.name) WHERE { ?d {type: "Drug", name: "Morphine"} UNION { ?c {type: "DrugClass"} } }',
    );
    expect(mixed).toEqual([
      ['Morphine', null],
      [null, 'NSAID'],
    ]);
    expect(
      (await w.err('FIND(?d) WHERE { ?d {type: "Drug"} UNION { ?x {type: "Drug"} FILTER(?x.name == ?d.name) } }')).code,
    ).toBe('KIP_3001');
  });
});

describe('KQL: aggregation, ORDER BY, LIMIT, CURSOR', () => {
  it('implicit GROUP BY, COUNT/COUNT DISTINCT/SUM/AVG/MIN/MAX, nulls ignored', async () => {
    const w = world();
    await drugWorld(w);
    expect(
      await w.ok(
        'FIND(?s.name, COUNT(?d)) WHERE { ?s {type: "Symptom"} OPTIONAL { (?d, "treats", ?s) } } ORDER BY COUNT(?d) DESC, ?s.name',
      ),
    ).toEqual([
      ['Headache', 3],
      ['Fever', 2],
      ['Nausea', 0],
    ]);
    expect(
      await w.ok(
        'FIND(COUNT(?d), COUNT(DISTINCT ?d), SUM(?d.attributes.risk_level), AVG(?d.attributes.risk_level), MIN(?d.attributes.risk_level), MAX(?d.name)) WHERE { ?d {type: "Drug"} (?d, "treats", ?s) }',
      ),
    ).toEqual([[5, 3, 2 + 2 + 3 + 1 + 1, 9 / 5, 1, 'Paracetamol']]);
    expect(await w.ok('FIND(COUNT(?d)) WHERE { ?d {type: "Drug", name: "None"} }')).toEqual([0]);
  });

  it('sorts by several keys with null last in both directions', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok('UPSERT { CONCEPT ?x { {type: "Drug", name: "Placebo"} } }');
    const asc = await w.ok('FIND(?d.name) WHERE { ?d {type: "Drug"} } ORDER BY ?d.attributes.risk_level ASC');
    const desc = await w.ok('FIND(?d.name) WHERE { ?d {type: "Drug"} } ORDER BY ?d.attributes.risk_level DESC');
    expect(asc).toEqual(['Paracetamol', 'Aspirin', 'Ibuprofen', 'Morphine', 'Placebo']);
    expect(desc).toEqual(['Morphine', 'Ibuprofen', 'Aspirin', 'Paracetamol', 'Placebo']);
  });

  it('pages with LIMIT and next_cursor; a cursor of another query is rejected', async () => {
    const w = world();
    await drugWorld(w);
    const q = 'FIND(?d.name) WHERE { ?d {type: "Drug"} } ORDER BY ?d.name LIMIT 3';
    const first = await w.kip(q);
    expect(first).toEqual({ result: ['Aspirin', 'Ibuprofen', 'Morphine'], next_cursor: expect.any(String) });
    const cursor = 'next_cursor' in first ? (first.next_cursor ?? '') : '';
    expect(await w.kip(`${q} CURSOR :c`, { c: cursor })).toEqual({ result: ['Paracetamol'] });
    expectError(
      await w.kip('FIND(?s.name) WHERE { ?s {type: "Symptom"} } LIMIT 3 CURSOR :c', { c: cursor }),
      'KIP_2003',
    );
    expectError(await w.kip(`${q} CURSOR "garbage"`), 'KIP_2003');
  });

  it('time and size limits are KIP_4001 and KIP_4002', async () => {
    const w = world();
    await drugWorld(w);
    expectError(
      await w.kip('FIND(?a, ?b) WHERE { ?a {type: "Drug"} ?b {type: "Drug"} }', {}, { maxSolutions: 10 }),
      'KIP_4002',
    );
    expectError(await w.kip('FIND(?a) WHERE { ?a {type: "Drug"} }', {}, { timeoutMs: -1 }), 'KIP_4001');
  });
});

describe('KQL: UNION at the start of a block, and inside OPTIONAL and NOT', () => {
  it('contributes only its own rows at the start of a block', async () => {
    const w = world();
    await drugWorld(w);
    expect(await w.ok('FIND(?c.name) WHERE { UNION { ?c {type: "DrugClass"} } }')).toEqual(['NSAID']);
  });

  it('joins its rows with the outer row inside NOT and OPTIONAL', async () => {
    const w = world();
    await drugWorld(w);
    // Drugs that neither treat Fever nor cause Nausea.
    expect(
      await w.ok(`FIND(?d.name) WHERE { ?d {type: "Drug"}
        NOT { (?d, "treats", {name: "Fever"}) UNION { (?d, "has_side_effect", {name: "Nausea"}) } } } ORDER BY ?d.name`),
    ).toEqual(['Ibuprofen', 'Morphine']);
    expect(
      await w.ok(`FIND(?d.name, ?x.name) WHERE { ?d {type: "Drug"} FILTER(?d.attributes.risk_level <= 2)
        OPTIONAL { (?d, "belongs_to_class", ?x) UNION { (?d, "has_side_effect", ?x) } } } ORDER BY ?d.name, ?x.name`),
    ).toEqual([
      ['Aspirin', 'NSAID'],
      ['Aspirin', 'Nausea'],
      ['Paracetamol', null],
    ]);
  });
});
