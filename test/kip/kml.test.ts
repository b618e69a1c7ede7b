import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { drugWorld, expectError, T0, useWorld, type KipWorld } from './helpers.js';

const world = useWorld();

interface Concept {
  id: string;
  type: string;
  name: string;
  attributes: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** Every row of every data table (search indexes and the audit tables left out), sorted, as JSON. */
function tableRows(path: string): Record<string, string[]> {
  const conn = new Database(path, { readonly: true });
  try {
    const names = (conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
      .map((r) => r.name)
      .filter((n) => !/_fts|^sqlite_|^journal$|^maintenance_log$/.test(n));
    const out: Record<string, string[]> = {};
    for (const t of names)
      out[t] = conn
        .prepare(`SELECT * FROM ${t}`)
        .all()
        .map((r) => JSON.stringify(r))
        .sort();
    return out;
  } finally {
    conn.close();
  }
}

async function concept(w: KipWorld, type: string, name: string): Promise<Concept> {
  const [c] = await w.ok<Concept[]>('FIND(?c) WHERE { ?c {type: :type, name: :name} }', { type, name });
  if (!c) throw new Error(`no ${type} ${name}`);
  return c;
}

describe('UPSERT', () => {
  it('creates with handles, is idempotent, and shallow-merges attributes and metadata', async () => {
    const w = world();
    await drugWorld(w);
    const again = await w.ok<{ concepts: { status: string }[]; propositions: { status: string }[] }>(
      `UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} SET ATTRIBUTES { risk_level: 2 } SET PROPOSITIONS { ("treats", {type: "Symptom", name: "Fever"}) } } }
       WITH METADATA { source: "test", author: "$self", confidence: 0.9 }`,
    );
    expect(again.concepts.map((c) => c.status)).toEqual(['unchanged']);
    expect(again.propositions.map((p) => p.status)).toEqual(['unchanged']);
    const before = await concept(w, 'Drug', 'Aspirin');
    await w.ok(
      'UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} SET ATTRIBUTES { dosage: ["500mg"] } } } WITH METADATA { reviewer: "x" }',
    );
    const after = await concept(w, 'Drug', 'Aspirin');
    expect(after.attributes).toEqual({ ...before.attributes, dosage: ['500mg'] });
    expect(after.metadata).toMatchObject({
      source: 'test',
      confidence: 0.9,
      reviewer: 'x',
      _version: Number(before.metadata['_version']) + 1,
    });
    // Arrays and objects are replaced at the key, not merged.
    await w.ok('UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} SET ATTRIBUTES { dosage: ["100mg"] } } }');
    expect((await concept(w, 'Drug', 'Aspirin')).attributes['dosage']).toEqual(['100mg']);
  });

  it('moves _updated_at to the time of each write of a concept or a proposition, not of an unchanged upsert', async () => {
    const w = world();
    await drugWorld(w);
    // The fixed clock advances one second per call (reads too): each write is stamped with its own call's time.
    const write = async (command: string): Promise<string> => {
      await w.ok(command);
      return new Date(w.now()).toISOString();
    };
    const stamp = async () => String((await concept(w, 'Drug', 'Aspirin')).metadata['_updated_at']);
    const before = await stamp();
    await write('UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} } }');
    expect(await stamp()).toBe(before);
    const upserted = await write(
      'UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} SET ATTRIBUTES { risk_level: 3 } } }',
    );
    expect(upserted).not.toBe(before);
    expect(await stamp()).toBe(upserted);
    const updated = await write(
      'UPDATE ?d SET METADATA { reviewed: true } WHERE { ?d {type: "Drug", name: "Aspirin"} }',
    );
    expect(await stamp()).toBe(updated);

    const link = 'FIND(?l.metadata._updated_at) WHERE { ?l ({type: "Drug", name: "Morphine"}, "treats", ?s) }';
    const dose = (d: string) =>
      `UPSERT { PROPOSITION ?p { ({type: "Drug", name: "Morphine"}, "treats", {type: "Symptom", name: "Headache"}) SET ATTRIBUTES { dose: "${d}" } } }`;
    const created = await write(dose('low'));
    expect(await w.ok(link)).toEqual([created]);
    const changed = await write(dose('high'));
    expect(changed).not.toBe(created);
    expect(await w.ok(link)).toEqual([changed]);
  });

  it('applies metadata precedence: item over block over global, a specified null still overrides', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok(`UPSERT {
      CONCEPT ?d { {type: "Drug", name: "Naproxen"}
        SET PROPOSITIONS {
          ("treats", {type: "Symptom", name: "Headache"}) WITH METADATA { confidence: 0.4, note: null }
          ("treats", {type: "Symptom", name: "Fever"})
        }
      }
      WITH METADATA { author: "block", note: "n" }
    }
    WITH METADATA { source: "global", author: "global", confidence: 0.8 }`);
    const rows = await w.ok<[string, Record<string, unknown>][]>(
      'FIND(?s.name, ?l.metadata) WHERE { ?l ({type: "Drug", name: "Naproxen"}, "treats", ?s) } ORDER BY ?s.name',
    );
    expect(rows[0]?.[0]).toBe('Fever');
    expect(rows[0]?.[1]).toMatchObject({ source: 'global', author: 'block', confidence: 0.8, note: 'n' });
    expect(rows[1]?.[1]).toMatchObject({ source: 'global', author: 'block', confidence: 0.4, note: null });
    expect((await concept(w, 'Drug', 'Naproxen')).metadata).toMatchObject({
      source: 'global',
      author: 'block',
      confidence: 0.8,
    });
  });

  it('a PROPOSITION block creates or updates one link per (subject, predicate, object), keeping its id across versions', async () => {
    const w = world();
    await drugWorld(w);
    const r1 = await w.ok<{ propositions: { id: string; status: string }[] }>(
      'UPSERT { PROPOSITION ?p { ({type: "Drug", name: "Morphine"}, "treats", {type: "Symptom", name: "Headache"}) SET ATTRIBUTES { dose: "low" } } }',
    );
    const r2 = await w.ok<{ propositions: { id: string; status: string }[] }>(
      'UPSERT { PROPOSITION ?p { ({type: "Drug", name: "Morphine"}, "treats", {type: "Symptom", name: "Headache"}) SET ATTRIBUTES { dose: "high" } } }',
    );
    expect(r1.propositions[0]?.status).toBe('created');
    expect(r2.propositions[0]).toEqual({ ...r1.propositions[0], status: 'updated' });
    const rows = await w.ok(
      'FIND(?l.attributes.dose, ?l.metadata._version) WHERE { ?l ({type: "Drug", name: "Morphine"}, "treats", ?s) }',
    );
    expect(rows).toEqual([['high', 2]]);
    // History: the first version is closed, not overwritten.
    const morphine = await concept(w, 'Drug', 'Morphine');
    const all = await w.store.relationships.forEntity(morphine.id, { includeEnded: true });
    expect(all.map((r) => [r.properties['dose'], r.validTo === null])).toEqual([
      ['low', false],
      ['high', true],
    ]);
  });

  it('PIE history: a changed attribute supersedes its fact and adds one transition', async () => {
    const w = world();
    await drugWorld(w);
    const aspirin = await concept(w, 'Drug', 'Aspirin');
    await w.ok(
      'UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} SET ATTRIBUTES { risk_level: 4, note: "revised" } } }',
    );
    const facts = await w.store.facts.history(aspirin.id, 'risk_level');
    expect(facts.map((f) => [f.value, f.validTo === null])).toEqual(
      [
        ['2', false],
        ['4', true],
      ].map(([v, open]) => [Number(v), open]),
    );
    expect(facts[0]?.supersededBy).toBe(facts[1]?.id);
    const transitions = await w.store.transitions.forEntity(aspirin.id);
    expect(transitions.map((t) => t.kind)).toEqual(['creation', 'update']);
    expect(transitions[1]).toMatchObject({
      fromState: { risk_level: 2, note: null },
      toState: { risk_level: 4, note: 'revised' },
    });
    expect(transitions[1]?.summary).toBe('risk_level: 2 → 4; note: revised');
  });

  it('writes are journaled under a run id that pie undo can revert', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok('UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} SET ATTRIBUTES { risk_level: 4 } } }');
    const [run] = await w.store.maintenance.list(1);
    expect(run).toMatchObject({ kind: 'kip', status: 'completed', report: { statements: ['upsert'] } });
    const journal = await w.store.journal.forRun(run?.id ?? '');
    expect(journal.map((j) => j.table).sort()).toEqual(['entities', 'facts', 'facts', 'transitions']);
    const { undoRun } = await import('../../src/metabolism/undo.js');
    await undoRun({ store: w.store, runId: run?.id ?? '', now: w.now() });
    expect((await concept(w, 'Drug', 'Aspirin')).attributes['risk_level']).toBe(2);
  });

  it('EXPECT VERSION guards a block; a mismatch aborts the whole UPSERT with KIP_3005', async () => {
    const w = world();
    await drugWorld(w);
    const v = Number((await concept(w, 'Drug', 'Aspirin')).metadata['_version']);
    const stale = await w.kip(
      'UPSERT { CONCEPT ?n { {type: "Drug", name: "NewOne"} } CONCEPT ?a { {type: "Drug", name: "Aspirin"} EXPECT VERSION :v SET ATTRIBUTES { risk_level: 9 } } }',
      { v: v - 1 },
    );
    expectError(stale, 'KIP_3005');
    expect(await w.ok('FIND(?d) WHERE { ?d {type: "Drug", name: "NewOne"} }')).toEqual([]);
    await w.ok(
      'UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} EXPECT VERSION :v SET ATTRIBUTES { risk_level: 9 } } }',
      { v },
    );
    expect((await concept(w, 'Drug', 'Aspirin')).attributes['risk_level']).toBe(9);
    expectError(await w.kip('UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} EXPECT VERSION 0 } }'), 'KIP_3005');
    await w.ok('UPSERT { CONCEPT ?a { {type: "Drug", name: "Brand new"} EXPECT VERSION 0 } }');
  });

  it('targets must exist (KIP_3002), handles must be defined first (KIP_3001), reserved keys are KIP_2002', async () => {
    const w = world();
    await drugWorld(w);
    expectError(
      await w.kip(
        'UPSERT { CONCEPT ?a { {type: "Drug", name: "X"} SET PROPOSITIONS { ("treats", {type: "Symptom", name: "Nope"}) } } }',
      ),
      'KIP_3002',
    );
    expectError(await w.kip('UPSERT { CONCEPT ?a { {id: "no-such-id"} } }'), 'KIP_3002');
    expectError(await w.kip('UPSERT { PROPOSITION ?p { (id: "no-such-link") } }'), 'KIP_3002');
    expectError(
      await w.kip(
        'UPSERT { CONCEPT ?a { {type: "Drug", name: "X"} SET PROPOSITIONS { ("treats", ?later) } } CONCEPT ?later { {type: "Symptom", name: "L"} } }',
      ),
      'KIP_3001',
    );
    expectError(
      await w.kip('UPSERT { CONCEPT ?a { {type: "Drug", name: "X"} } } WITH METADATA { _version: 3 }'),
      'KIP_2002',
    );
    expect(await w.ok('FIND(?d) WHERE { ?d {type: "Drug", name: "X"} }')).toEqual([]);
  });

  it('checks predicate domains (KIP_2002), type registration (KIP_2001) and naming (KIP_2001), and JSON types (KIP_2003)', async () => {
    const w = world();
    await drugWorld(w);
    const wrongEnd = await w.err(
      'UPSERT { PROPOSITION ?p { ({type: "Symptom", name: "Fever"}, "treats", {type: "Symptom", name: "Nausea"}) } }',
    );
    expect(wrongEnd.code).toBe('KIP_2002');
    expect(wrongEnd.message).toMatch(/takes subjects of type "Drug"/);
    expectError(await w.kip('UPSERT { CONCEPT ?a { {type: "Vaccine", name: "X"} } }'), 'KIP_2001');
    expectError(await w.kip('UPSERT { CONCEPT ?a { {type: "$ConceptType", name: "vaccine"} } }'), 'KIP_2001');
    expectError(await w.kip('UPSERT { CONCEPT ?a { {type: "$PropositionType", name: "Cures"} } }'), 'KIP_2001');
    expectError(
      await w.kip('UPSERT { CONCEPT ?a { {type: "Drug", name: "X"} SET ATTRIBUTES { aliases: "ASA" } } }'),
      'KIP_2003',
    );
    await w.ok(
      'UPSERT { CONCEPT ?v { {type: "$ConceptType", name: "Vaccine"} } CONCEPT ?a { {type: "Vaccine", name: "X"} } }',
    );
    expect(await w.ok('FIND(?v.name) WHERE { ?v {type: "Vaccine"} }')).toEqual(['X']);
  });

  it('core_directives of $self are immutable once set (KIP_3004); other $self attributes evolve', async () => {
    const w = world();
    await w.ok(
      'UPSERT { CONCEPT ?s { {type: "Person", name: "$self"} SET ATTRIBUTES { core_directives: ["be kind"], persona: "calm" } } }',
    );
    await w.ok(
      'UPSERT { CONCEPT ?s { {type: "Person", name: "$self"} SET ATTRIBUTES { core_directives: ["be kind"], persona: "curious" } } }',
    );
    expectError(
      await w.kip(
        'UPSERT { CONCEPT ?s { {type: "Person", name: "$self"} SET ATTRIBUTES { core_directives: ["obey"] } } }',
      ),
      'KIP_3004',
    );
    expectError(
      await w.kip('DELETE ATTRIBUTES {"core_directives"} FROM ?s WHERE { ?s {type: "Person", name: "$self"} }'),
      'KIP_3004',
    );
    expect((await concept(w, 'Person', '$self')).attributes).toMatchObject({
      persona: 'curious',
      core_directives: ['be kind'],
    });
  });
});

describe('UPDATE', () => {
  it('computes ADD, MUL, CLAMP and COALESCE per element and skips null results', async () => {
    const w = world();
    await drugWorld(w);
    const r = await w.ok(
      'UPDATE ?d SET ATTRIBUTES { risk_level: CLAMP(MUL(?d.attributes.risk_level, 2), 0, 6), seen: ADD(COALESCE(?d.attributes.seen, 0), 1), bad: ADD(?d.attributes.missing, 1) } SET METADATA { reviewed: :now } WHERE { ?d {type: "Drug"} }',
      { now: '2025-02-01' },
    );
    expect(r).toEqual({ updated: 4 });
    const rows = await w.ok(
      'FIND(?d.name, ?d.attributes.risk_level, ?d.attributes.seen, ?d.attributes.bad, ?d.metadata.reviewed) WHERE { ?d {type: "Drug"} } ORDER BY ?d.name',
    );
    expect(rows).toEqual([
      ['Aspirin', 4, 1, null, '2025-02-01'],
      ['Ibuprofen', 6, 1, null, '2025-02-01'],
      ['Morphine', 6, 1, null, '2025-02-01'],
      ['Paracetamol', 2, 1, null, '2025-02-01'],
    ]);
    await w.ok(
      'UPDATE ?d SET ATTRIBUTES { seen: ADD(COALESCE(?d.attributes.seen, 0), 1) } WHERE { ?d {type: "Drug", name: "Aspirin"} }',
    );
    expect((await concept(w, 'Drug', 'Aspirin')).attributes['seen']).toBe(2);
  });

  it('decays link confidence with LIMIT as the blast-radius cap (spec §3.2 example)', async () => {
    const w = world();
    await drugWorld(w);
    const r = await w.ok<{ updated: number }>(
      `UPDATE ?link
SET METADATA { confidence: CLAMP(MUL(?link.metadata.confidence, :factor), 0.0, 1.0), decay_applied_at: :now }
WHERE {
?link (?s, ?p, ?o)
FILTER(?p == "treats")
FILTER(IS_NULL(?link.metadata.superseded) || ?link.metadata.superseded != true)
FILTER(?link.metadata.created_at < :threshold && ?link.metadata.confidence > 0.3)
} LIMIT 3`,
      { factor: 0.5, now: '2030-01-01T00:00:00Z', threshold: '2030-01-01T00:00:00Z' },
    );
    expect(r).toEqual({ updated: 3 });
    expect(
      await w.ok('FIND(?l.metadata.confidence) WHERE { ?l (?s, "treats", ?o) } ORDER BY ?l.metadata.confidence'),
    ).toEqual([0.45, 0.9]);
    expect(
      await w.ok('FIND(COUNT(?l)) WHERE { ?l (?s, "treats", ?o) FILTER(?l.metadata.confidence == 0.45) }'),
    ).toEqual([3]);
  });

  it('reads only the target: another variable in a value is KIP_3001', async () => {
    const w = world();
    await drugWorld(w);
    expectError(
      await w.kip('UPDATE ?d SET ATTRIBUTES { x: ?s.name } WHERE { ?d {type: "Drug"} ?s {type: "Symptom"} }'),
      'KIP_3001',
    );
    expectError(await w.kip('UPDATE ?d SET METADATA { _score: 1 } WHERE { ?d {type: "Drug"} }'), 'KIP_2002');
  });
});

describe('MERGE', () => {
  it('moves links (ids kept), fills attributes, unions aliases, records _merged_from, archives the source', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok(`UPSERT { CONCEPT ?dup { {type: "Drug", name: "Aspirin (dup)"} SET ATTRIBUTES { risk_level: 7, brand: "Bayer" }
      SET PROPOSITIONS { ("treats", {type: "Symptom", name: "Nausea"}) ("treats", {type: "Symptom", name: "Fever"}) } }
      WITH METADATA { extra: "from dup" } }`);
    const [dupLink] = await w.ok<string[]>(
      'FIND(?l.id) WHERE { ?l ({type: "Drug", name: "Aspirin (dup)"}, "treats", {type: "Symptom", name: "Nausea"}) }',
    );
    const r = await w.ok<{ merged: Record<string, unknown> }>(
      'MERGE CONCEPT ?dup INTO ?canonical WHERE { ?dup {type: "Drug", name: "Aspirin (dup)"} ?canonical {type: "Drug", name: "Aspirin"} }',
    );
    expect(r.merged).toMatchObject({ propositions_repointed: 1, propositions_merged: 1, attributes_filled: ['brand'] });
    const aspirin = await concept(w, 'Drug', 'Aspirin');
    expect(aspirin.attributes).toMatchObject({
      risk_level: 2,
      brand: 'Bayer',
      aliases: ['ASA', 'acetylsalicylic acid', 'Aspirin (dup)'],
    });
    expect(aspirin.metadata).toMatchObject({ _merged_from: ['Drug:Aspirin (dup)'], extra: 'from dup' });
    expect(
      await w.ok(
        'FIND(?l.id) WHERE { ?l ({type: "Drug", name: "Aspirin"}, "treats", {type: "Symptom", name: "Nausea"}) }',
      ),
    ).toEqual([dupLink]);
    expect(await w.ok('FIND(COUNT(?l)) WHERE { ?l ({type: "Drug", name: "Aspirin"}, "treats", ?s) }')).toEqual([3]);
    expect(await w.ok('FIND(?d) WHERE { ?d {type: "Drug", name: "Aspirin (dup)"} }')).toEqual([]);
    // History stays: the source entity is archived, not erased.
    const archived = (await w.store.entities.list({ type: 'drug' })).find((e) => e.name === 'Aspirin (dup)');
    expect(archived?.tier).toBe('archived');
    // Running it again: the source is gone.
    const again = await w.err(
      'MERGE CONCEPT ?dup INTO ?canonical WHERE { ?dup {type: "Drug", name: "Aspirin (dup)"} ?canonical {type: "Drug", name: "Aspirin"} }',
    );
    expect(again.code).toBe('KIP_3002');
    expect(again.message).toMatch(/merged before/);
  });

  it('is exactly undoable: moved aliases and mentions are journaled, pie undo restores every row', async () => {
    const w = world();
    await drugWorld(w);
    const { id: episode } = await w.store.episodes.upsert({
      conversation: {
        source: 'chatgpt',
        externalId: 'c-asa',
        title: 'ASA',
        createdAt: T0,
        updatedAt: T0,
        model: null,
        turns: [{ role: 'user', text: 'ASA again', time: T0 }],
      },
      contentHash: 'h',
      recordedAt: T0,
    });
    await w.ok(
      `UPSERT { CONCEPT ?dup { {type: "Drug", name: "Aspirin (dup)"} SET ATTRIBUTES { aliases: ["Aspro"], brand: "Bayer" } } }
       WITH METADATA { source: :ep }`,
      { ep: episode },
    );
    const before = tableRows(w.path);
    await w.ok(
      'MERGE CONCEPT ?dup INTO ?canonical WHERE { ?dup {type: "Drug", name: "Aspirin (dup)"} ?canonical {type: "Drug", name: "Aspirin"} }',
    );
    const [run] = await w.store.maintenance.list(1);
    const journal = await w.store.journal.forRun(run?.id ?? '');
    const tables = new Set(journal.map((j) => j.table));
    expect(tables.has('entity_aliases')).toBe(true);
    expect(tables.has('entity_mentions')).toBe(true);
    const aspirin = await concept(w, 'Drug', 'Aspirin');
    expect(aspirin.attributes['aliases']).toEqual(expect.arrayContaining(['Aspirin (dup)', 'Aspro']));
    expect((await w.store.mentions.forEpisode(episode)).map((m) => m.entityId)).toContain(aspirin.id);
    const { undoRun } = await import('../../src/metabolism/undo.js');
    await undoRun({ store: w.store, runId: run?.id ?? '', now: w.now() });
    expect(tableRows(w.path)).toEqual(before);
  });

  it('needs exactly one node per side of the same type, and never merges protected nodes', async () => {
    const w = world();
    await drugWorld(w);
    expectError(
      await w.kip('MERGE CONCEPT ?a INTO ?b WHERE { ?a {type: "Drug"} ?b {type: "Drug", name: "Aspirin"} }'),
      'KIP_3003',
    );
    expectError(
      await w.kip(
        'MERGE CONCEPT ?a INTO ?b WHERE { ?a {type: "Symptom", name: "Fever"} ?b {type: "Drug", name: "Aspirin"} }',
      ),
      'KIP_2002',
    );
    expectError(
      await w.kip(
        'MERGE CONCEPT ?a INTO ?b WHERE { ?a {type: "Person", name: "$system"} ?b {type: "Person", name: "John Doe"} }',
      ),
      'KIP_3004',
    );
  });
});

describe('DELETE', () => {
  it('removes attributes and metadata, closing their facts', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok(
      'UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} } WITH METADATA { old_source: "x", expires_at: "2020" } }',
    );
    expect(
      await w.ok(
        'DELETE ATTRIBUTES {"risk_level", "absent"} FROM ?drug WHERE { ?drug {type: "Drug", name: "Aspirin"} }',
      ),
    ).toEqual({ deleted: 1 });
    expect(
      await w.ok(
        'DELETE METADATA {"old_source", "created_at"} FROM ?drug WHERE { ?drug {type: "Drug", name: "Aspirin"} }',
      ),
    ).toEqual({ deleted: 1 });
    const a = await concept(w, 'Drug', 'Aspirin');
    expect(a.attributes['risk_level']).toBeUndefined();
    expect(a.metadata).not.toHaveProperty('old_source');
    expect(a.metadata).not.toHaveProperty('created_at');
    expect(a.metadata['expires_at']).toBe('2020');
    const facts = await w.store.facts.history(a.id, 'risk_level');
    expect(facts.every((f) => f.validTo !== null)).toBe(true);
    expectError(await w.kip('DELETE METADATA {"_version"} FROM ?d WHERE { ?d {type: "Drug"} }'), 'KIP_2002');
  });

  it('ends propositions (and the statements about them)', async () => {
    const w = world();
    await drugWorld(w);
    await w.ok(
      'UPSERT { PROPOSITION ?s { ({type: "Person", name: "John Doe"}, "stated", ({type: "Drug", name: "Aspirin"}, "treats", {type: "Symptom", name: "Fever"})) } }',
    );
    const r = await w.ok(
      'DELETE PROPOSITIONS ?link WHERE { ?link ({type: "Drug", name: "Aspirin"}, "treats", ?o) FILTER(?o.name == "Fever") }',
    );
    expect(r).toEqual({ deleted: 2 });
    expect(await w.ok('FIND(?o.name) WHERE { ({type: "Drug", name: "Aspirin"}, "treats", ?o) }')).toEqual(['Headache']);
    expect(await w.ok('FIND(?x) WHERE { ({type: "Person", name: "John Doe"}, "stated", ?x) }')).toEqual([]);
  });

  it('DELETE CONCEPT … DETACH archives the concept with all its links; protected nodes are KIP_3004', async () => {
    const w = world();
    await drugWorld(w);
    const r = await w.ok('DELETE CONCEPT ?drug DETACH WHERE { ?drug {type: "Drug", name: "Aspirin"} }');
    expect(r).toEqual({ deleted: 1, propositions: 4 });
    expect(await w.ok('FIND(?d.name) WHERE { ?d {type: "Drug"} } ORDER BY ?d.name')).toEqual([
      'Ibuprofen',
      'Morphine',
      'Paracetamol',
    ]);
    expect(await w.ok('FIND(COUNT(?d)) WHERE { (?d, "treats", {type: "Symptom", name: "Fever"}) }')).toEqual([1]);
    // Re-creating the identity starts a fresh concept (history kept underneath).
    await w.ok('UPSERT { CONCEPT ?a { {type: "Drug", name: "Aspirin"} SET ATTRIBUTES { risk_level: 1 } } }');
    expect((await concept(w, 'Drug', 'Aspirin')).attributes).toEqual({
      risk_level: 1,
      aliases: ['ASA', 'acetylsalicylic acid'],
    });
    for (const target of [
      '{type: "Person", name: "$self"}',
      '{type: "Domain", name: "CoreSchema"}',
      '{type: "$ConceptType", name: "Domain"}',
      '{type: "$PropositionType", name: "belongs_to_domain"}',
    ]) {
      expectError(await w.kip(`DELETE CONCEPT ?x DETACH WHERE { ?x ${target} }`), 'KIP_3004');
    }
    expectError(
      await w.kip(
        'DELETE PROPOSITIONS ?l WHERE { ?l ({type: "$ConceptType", name: "Domain"}, "belongs_to_domain", ?d) }',
      ),
      'KIP_3004',
    );
  });
});
