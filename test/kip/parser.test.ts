import { describe, expect, it } from 'vitest';
import type {
  DeleteStatement,
  DescribeStatement,
  ExportStatement,
  FindStatement,
  MergeStatement,
  PropPattern,
  SearchStatement,
  Statement,
  UpdateStatement,
  UpsertStatement,
} from '../../src/kip/ast.js';
import { KipError } from '../../src/kip/errors.js';
import { parseKip } from '../../src/kip/parser/index.js';

/** Parses one statement and drops positions, for structural comparisons. */
function parse<T extends Statement>(source: string, params: Record<string, unknown> = {}): T {
  const statements = parseKip(source, params as never);
  expect(statements).toHaveLength(1);
  return strip(statements[0]) as T;
}

function strip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'pos' ? undefined : v)));
}

function where(fragment: string, params: Record<string, unknown> = {}): FindStatement {
  return parse<FindStatement>(`FIND(?x) WHERE { ${fragment}\n}`, params);
}

function kipError(fn: () => unknown): KipError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(KipError);
    return error as KipError;
  }
  throw new Error('expected a KipError');
}

describe('KIP parser: examples of the syntax reference, §1 (data model and lexical rules)', () => {
  it('§1.2 object literals accept quoted and unquoted keys alike', () => {
    const u = parse<UpsertStatement>(
      'UPSERT { CONCEPT ?a { {type: "Drug", name: "A"} SET ATTRIBUTES { risk_level: 2, "risk-note": "x", nested: {a: [1, true, null]} } } }',
    );
    expect(u.items[0]).toMatchObject({
      attributes: { risk_level: 2, 'risk-note': 'x', nested: { a: [1, true, null] } },
    });
  });

  it('§1.3 prefixes: ?variables, $meta types in strings, :parameters', () => {
    const f = where('?drug {type: "$ConceptType", name: :name}', { name: 'Drug' });
    expect(f.where[0]).toEqual({
      kind: 'conceptPattern',
      variable: 'drug',
      clause: { kind: 'concept', type: '$ConceptType', name: 'Drug' },
    });
  });

  it('§1.5 dot notation on concepts and propositions, whole-object projection', () => {
    const f = parse<FindStatement>(
      'FIND(?v.id, ?v.type, ?v.name, ?l.subject, ?l.predicate, ?l.object, ?v.attributes.risk_level, ?v.metadata.source, ?v.attributes, ?v.metadata) WHERE { ?v {type: "Drug"} ?l (?v, "treats", ?s) }',
    );
    expect(f.projections.map((p) => (p.kind === 'var' ? p.path.join('.') : '?'))).toEqual([
      'id',
      'type',
      'name',
      'subject',
      'predicate',
      'object',
      'attributes.risk_level',
      'metadata.source',
      'attributes',
      'metadata',
    ]);
  });

  it('§1.6 schema bootstrapping: registering a concept type and a predicate', () => {
    const u = parse<UpsertStatement>(
      'UPSERT { CONCEPT ?d { {type: "$ConceptType", name: "Drug"} } CONCEPT ?t { {type: "$PropositionType", name: "treats"} } }',
    );
    expect(u.items.map((i) => (i.kind === 'concept' ? [i.identity.type, i.identity.name] : null))).toEqual([
      ['$ConceptType', 'Drug'],
      ['$PropositionType', 'treats'],
    ]);
  });

  it('§1.7 expires_at filter idiom', () => {
    const f = where('?x {type: "Event"} FILTER(IS_NULL(?x.metadata.expires_at) || ?x.metadata.expires_at > :now)', {
      now: '2025-01-01T00:00:00Z',
    });
    expect(f.where[1]).toMatchObject({
      kind: 'filter',
      expr: {
        kind: 'binary',
        op: '||',
        left: { kind: 'call', name: 'IS_NULL' },
        right: { kind: 'binary', op: '>', right: { kind: 'literal', value: '2025-01-01T00:00:00Z', param: 'now' } },
      },
    });
  });

  it('§1.8 EXPECT VERSION right after the identity clause (0 = create-only)', () => {
    const u = parse<UpsertStatement>(
      'UPSERT { CONCEPT ?s { {type: "Person", name: "$system"} EXPECT VERSION 0 SET ATTRIBUTES { a: 1 } } PROPOSITION ?p { (id: "l1") EXPECT VERSION :v } }',
      { v: 3 },
    );
    expect(u.items.map((i) => i.expectVersion)).toEqual([0, 3]);
  });
});

describe('KIP parser: §2 KQL', () => {
  it('§2 skeleton: FIND … WHERE … ORDER BY … LIMIT … CURSOR', () => {
    const f = parse<FindStatement>('FIND(?a) WHERE { ?a {type: "Drug"} } ORDER BY ?a.name DESC LIMIT 10 CURSOR "tok"');
    expect(f).toMatchObject({ orderBy: [{ direction: 'DESC' }], limit: 10, cursor: 'tok' });
  });

  it('§2.1 FIND(?a, ?b.name, ?b.attributes.risk_level)', () => {
    const f = parse<FindStatement>(
      'FIND(?a, ?b.name, ?b.attributes.risk_level) WHERE { ?a {type: "Drug"} ?b {type: "Drug"} }',
    );
    expect(f.projections).toEqual([
      { kind: 'var', name: 'a', path: [] },
      { kind: 'var', name: 'b', path: ['name'] },
      { kind: 'var', name: 'b', path: ['attributes', 'risk_level'] },
    ]);
  });

  it('§2.1 aggregations COUNT(?v), COUNT(DISTINCT ?v), SUM, AVG, MIN, MAX', () => {
    const f = parse<FindStatement>(
      'FIND(?d.name, COUNT(?v), COUNT(DISTINCT ?v), SUM(?v.attributes.n), AVG(?v.attributes.n), MIN(?v.attributes.n), MAX(?v.attributes.n)) WHERE { ?d {type: "Domain"} ?v {type: "Drug"} }',
    );
    expect(
      f.projections.slice(1).map((p) => (p.kind === 'aggregate' ? `${p.fn}${p.distinct ? '*' : ''}` : '')),
    ).toEqual(['COUNT', 'COUNT*', 'SUM', 'AVG', 'MIN', 'MAX']);
  });

  it('§2.2.1 concept matches: by id, exact, broad by type, broad by name', () => {
    expect(where('?var {id: "<id>"}').where[0]).toMatchObject({ clause: { id: '<id>' } });
    expect(where('?var {type: "<Type>", name: "<name>"}').where[0]).toMatchObject({
      clause: { type: '<Type>', name: '<name>' },
    });
    expect(where('?var {type: "<Type>"}').where[0]).toMatchObject({ clause: { type: '<Type>' } });
    expect(where('?var {name: "<name>"}').where[0]).toMatchObject({ clause: { name: '<name>' } });
  });

  it('§2.2.1 an unnamed concept clause as an endpoint', () => {
    const f = where('(?p, "treats", {type: "Symptom", name: "Headache"})');
    expect((f.where[0] as PropPattern).clause.object).toEqual({ kind: 'concept', type: 'Symptom', name: 'Headache' });
  });

  it('§2.2.2 proposition matches: by id, structural, predicate variable, higher-order', () => {
    expect(where('?link (id: "<id>")').where[0]).toMatchObject({
      kind: 'propPattern',
      variable: 'link',
      clause: { id: '<id>' },
    });
    expect(where('?link (?subject, "<predicate>", ?object)').where[0]).toMatchObject({
      clause: {
        subject: { name: 'subject' },
        predicate: { kind: 'path', alternatives: [{ name: '<predicate>', min: 1, max: 1 }] },
      },
    });
    expect(where('?link (?subject, ?pred, ?object)').where[0]).toMatchObject({
      clause: { predicate: { kind: 'var', name: 'pred' } },
    });
    const ho = where('(?u, "stated", (?s, "<pred>", ?o))').where[0] as PropPattern;
    expect(ho.variable).toBeUndefined();
    expect(ho.clause.object).toMatchObject({ kind: 'prop', subject: { name: 's' }, object: { name: 'o' } });
  });

  it('§2.2.2 the ego-graph example', () => {
    const f = parse<FindStatement>(`FIND(?pred, ?neighbor)
WHERE {
?link ({type: "Person", name: "Alice"}, ?pred, ?neighbor)
FILTER(?pred != "belongs_to_domain")
} LIMIT 50`);
    expect(f.limit).toBe(50);
    expect(f.where.map((i) => i.kind)).toEqual(['propPattern', 'filter']);
  });

  it('§2.2.2 hop ranges {m,n}, {m,}, {n} and alternatives', () => {
    const hops = (p: string) => {
      const c = (where(`(?a, ${p}, ?b)`).where[0] as PropPattern).clause.predicate;
      return c?.kind === 'path' ? c.alternatives : [];
    };
    expect(hops('"<pred>"{1,3}')).toEqual([{ name: '<pred>', min: 1, max: 3 }]);
    expect(hops('"<pred>"{2,}')).toEqual([{ name: '<pred>', min: 2, max: null }]);
    expect(hops('"<pred>"{2}')).toEqual([{ name: '<pred>', min: 2, max: 2 }]);
    expect(hops('"<pred>"{0,1}')).toEqual([{ name: '<pred>', min: 0, max: 1 }]);
    expect(hops('"<p1>" | "<p2>" | "<p3>"').map((a) => a.name)).toEqual(['<p1>', '<p2>', '<p3>']);
  });

  it('§2.2.2 no quantifiers or alternatives on a predicate variable; no named embedded endpoints', () => {
    expect(kipError(() => where('(?a, ?p{1,3}, ?b)')).kipCode).toBe('KIP_1001');
    expect(kipError(() => where('(?a, ?p | "x", ?b)')).kipCode).toBe('KIP_1001');
    expect(kipError(() => where('(?a, "x", ?b {type: "Drug"})')).kipCode).toBe('KIP_1001');
  });

  it('§2.2.3 the FILTER examples', () => {
    const filters = [
      'FILTER(?drug.attributes.risk_level < 3 && CONTAINS(?drug.name, "acid"))',
      'FILTER(IN(?event.attributes.event_class, ["Conversation", "SelfReflection"]))',
      'FILTER(IS_NOT_NULL(?node.metadata.expires_at))',
      'FILTER(?event.attributes.start_time > "2025-01-01T00:00:00Z") // ISO-8601 string compare',
    ];
    const parsed = filters.map(
      (f) => where(`?drug {type: "Drug"} ?event {type: "Event"} ?node {type: "Event"} ${f}`).where[3],
    );
    expect(parsed.map((p) => (p?.kind === 'filter' ? p.expr.kind : ''))).toEqual(['binary', 'call', 'call', 'binary']);
    expect(parsed[1]).toMatchObject({
      expr: {
        name: 'IN',
        args: [{ kind: 'var' }, { kind: 'list', items: [{ value: 'Conversation' }, { value: 'SelfReflection' }] }],
      },
    });
  });

  it('§2.2.3 every operator and function', () => {
    const f = where(
      '?a {type: "X"} FILTER(!(?a.name == "x") && ?a.name != "y" || ?a.attributes.n <= 1 || ?a.attributes.n >= 2 || STARTS_WITH(?a.name, "a") || ENDS_WITH(?a.name, "b") || REGEX(?a.name, "^a.*", "i") || IS_NULL(?a.attributes.z))',
    );
    expect(JSON.stringify(f.where[1])).toMatch(/STARTS_WITH.*ENDS_WITH.*REGEX.*IS_NULL/);
    expect(kipError(() => where('?a {type: "X"} FILTER(FOO(?a.name))')).message).toMatch(/Unknown function FOO/);
  });

  it('§2.2.4 OPTIONAL example', () => {
    const f = where(
      '?drug {type: "Drug"}\nOPTIONAL { (?drug, "has_side_effect", ?side_effect) }\n// ?side_effect == null when none exists',
    );
    expect(f.where.map((i) => i.kind)).toEqual(['conceptPattern', 'optional']);
  });

  it('§2.2.5 NOT example', () => {
    const f = where('?drug {type: "Drug"}\nNOT { (?drug, "belongs_to_class", {name: "NSAID"}) }');
    expect(f.where[1]).toMatchObject({
      kind: 'not',
      items: [{ kind: 'propPattern', clause: { object: { name: 'NSAID' } } }],
    });
  });

  it('§2.2.6 UNION example', () => {
    const f = where(`?drug {type: "Drug"}
(?drug, "treats", {name: "Headache"})
UNION {
?drug {type: "Drug"}
(?drug, "treats", {name: "Fever"})
}`);
    expect(f.where.map((i) => i.kind)).toEqual(['conceptPattern', 'propPattern', 'union']);
  });

  it('§2.3 several sort keys, aggregation keys, LIMIT :param and CURSOR :param', () => {
    const f = parse<FindStatement>(
      'FIND(?e) WHERE { ?e {type: "Event"} } ORDER BY ?e.attributes.salience_score DESC, ?e.attributes.start_time DESC LIMIT :limit CURSOR :c',
      { limit: 5, c: 'tok' },
    );
    expect(f.orderBy.map((k) => k.direction)).toEqual(['DESC', 'DESC']);
    expect([f.limit, f.cursor]).toEqual([5, 'tok']);
    const g = parse<FindStatement>(
      'FIND(?d.name, COUNT(?n)) WHERE { ?d {type: "Domain"} OPTIONAL { (?n, "belongs_to_domain", ?d) } } ORDER BY COUNT(?n) ASC LIMIT 20',
    );
    expect(g.orderBy[0]).toMatchObject({ expr: { kind: 'aggregate', fn: 'COUNT' }, direction: 'ASC' });
  });

  it('§2.4 the three examples', () => {
    const a = parse<FindStatement>(`// Optional + filter
FIND(?drug.name, ?side_effect.name)
WHERE {
?drug {type: "Drug"}
OPTIONAL { (?drug, "has_side_effect", ?side_effect) }
FILTER(?drug.attributes.risk_level < 3)
}`);
    expect(a.where.map((i) => i.kind)).toEqual(['conceptPattern', 'optional', 'filter']);
    const b = parse<FindStatement>(`// Aggregation + NOT + ORDER BY + LIMIT
FIND(?drug.name, ?drug.attributes.risk_level)
WHERE {
?drug {type: "Drug"}
(?drug, "treats", {name: "Headache"})
NOT { (?drug, "belongs_to_class", {name: "NSAID"}) }
FILTER(?drug.attributes.risk_level < 4)
}
ORDER BY ?drug.attributes.risk_level ASC
LIMIT 20`);
    expect([b.where.length, b.limit, b.orderBy[0]?.direction]).toEqual([4, 20, 'ASC']);
    const c = parse<FindStatement>(`// Higher-order: confidence that a user stated a fact
FIND(?statement.metadata.confidence)
WHERE {
?fact ({type: "Drug", name: "Aspirin"}, "treats", {type: "Symptom", name: "Headache"})
?statement ({type: "Person", name: "John Doe"}, "stated", ?fact)
}`);
    expect(c.where.map((i) => (i.kind === 'propPattern' ? i.variable : ''))).toEqual(['fact', 'statement']);
  });
});

describe('KIP parser: §3 KML', () => {
  it('§3.1 the UPSERT template, with its placeholders filled in', () => {
    const u = parse<UpsertStatement>(`UPSERT {
CONCEPT ?handle {
{type: "Drug", name: "Aspirin"} // match-or-create
// OR {id: "<id>"} // match-only (must exist)
EXPECT VERSION 2 // optional CAS guard (see 1.8)
SET ATTRIBUTES { risk_level: 2, tags: ["a"] }
SET PROPOSITIONS {
("treats", ?other_handle)
("treats", ?other_handle) WITH METADATA { confidence: 0.5 }
("treats", {type: "Symptom", name: "Fever"}) // target must exist or KIP_3002
("treats", {id: "c-1"})
("cites", (id: "l-1"))
("stated", (?s, "treats", ?o)) // higher-order
}
}
WITH METADATA { source: "a" } // local metadata (concept block)
PROPOSITION ?prop_handle { // ?prop_handle is optional
(?subject, "treats", ?object) // endpoints: ?handle, {...}, or (...)
// OR (id: "<id>") // match-only
SET ATTRIBUTES { dose: "500mg" }
}
WITH METADATA { source: "b" } // local metadata (proposition block)
}
WITH METADATA { author: "$self" } // global default for all items`);
    const [concept, prop] = u.items;
    expect(concept).toMatchObject({ kind: 'concept', handle: 'handle', expectVersion: 2, metadata: { source: 'a' } });
    expect(concept?.kind === 'concept' ? concept.propositions.map((p) => p.target.kind) : []).toEqual([
      'var',
      'var',
      'concept',
      'concept',
      'prop',
      'prop',
    ]);
    expect(concept?.kind === 'concept' ? concept.propositions[1]?.metadata : null).toEqual({ confidence: 0.5 });
    expect(prop).toMatchObject({
      kind: 'proposition',
      handle: 'prop_handle',
      attributes: { dose: '500mg' },
      metadata: { source: 'b' },
    });
    expect(u.metadata).toEqual({ author: '$self' });
  });

  it('§3.1.2 the schema evolution example', () => {
    const u = parse<UpsertStatement>(`UPSERT {
CONCEPT ?prefers_def {
{type: "$PropositionType", name: "prefers"}
SET ATTRIBUTES {
description: "Subject indicates a stable preference for an object.",
subject_types: ["Person"],
object_types: ["*"]
}
SET PROPOSITIONS { ("belongs_to_domain", {type: "Domain", name: "CoreSchema"}) }
}
}
WITH METADATA { source: "SchemaEvolution", author: "$self", confidence: 0.9 }`);
    expect(u.items[0]).toMatchObject({
      attributes: { subject_types: ['Person'], object_types: ['*'] },
      propositions: [{ predicate: 'belongs_to_domain', target: { type: 'Domain', name: 'CoreSchema' } }],
    });
    expect(u.metadata).toEqual({ source: 'SchemaEvolution', author: '$self', confidence: 0.9 });
  });

  it('§3.2 the UPDATE template and its two examples', () => {
    const t = parse<UpdateStatement>(
      'UPDATE ?target SET ATTRIBUTES { n: ADD(?target.attributes.n, 1) } SET METADATA { reviewed: true } WHERE { ?target {type: "Drug"} } LIMIT 5',
    );
    expect([t.target, t.limit, Object.keys(t.attributes ?? {}), Object.keys(t.metadata ?? {})]).toEqual([
      'target',
      5,
      ['n'],
      ['reviewed'],
    ]);
    const decay = parse<UpdateStatement>(
      `// Confidence decay across all predicates, one command
UPDATE ?link
SET METADATA { confidence: CLAMP(MUL(?link.metadata.confidence, :factor), 0.0, 1.0), decay_applied_at: :now }
WHERE {
?link (?s, ?p, ?o)
FILTER(IS_NULL(?link.metadata.superseded) || ?link.metadata.superseded != true)
FILTER(?link.metadata.created_at < :threshold && ?link.metadata.confidence > 0.3)
} LIMIT 500`,
      { factor: 0.95, now: '2025-02-01T00:00:00Z', threshold: '2025-01-01T00:00:00Z' },
    );
    expect(decay.metadata?.['confidence']).toMatchObject({
      kind: 'call',
      name: 'CLAMP',
      args: [{ name: 'MUL' }, { value: 0 }, { value: 1 }],
    });
    expect(decay.limit).toBe(500);
    const reinforce = parse<UpdateStatement>(
      `// Reinforce without read-modify-write
UPDATE ?pref
SET ATTRIBUTES { evidence_count: ADD(COALESCE(?pref.attributes.evidence_count, 0), 1), last_observed: :now }
WHERE { ?pref {type: "Preference", name: :pref_name} }`,
      { now: 'n', pref_name: 'dark mode' },
    );
    expect(reinforce.attributes?.['evidence_count']).toMatchObject({
      name: 'ADD',
      args: [{ name: 'COALESCE' }, { value: 1 }],
    });
    expect(reinforce.where[0]).toMatchObject({ clause: { type: 'Preference', name: 'dark mode' } });
  });

  it('§3.3 MERGE', () => {
    const m = parse<MergeStatement>(
      'MERGE CONCEPT ?source INTO ?target\nWHERE { ?source {type: "Drug", name: "ASA"} ?target {type: "Drug", name: "Aspirin"} }',
    );
    expect([m.source, m.target, m.where.length]).toEqual(['source', 'target', 2]);
  });

  it('§3.4 the four DELETE examples', () => {
    const attrs = parse<DeleteStatement>(`// Attributes
DELETE ATTRIBUTES {"risk_category", "old_id"} FROM ?drug
WHERE { ?drug {type: "Drug", name: "Aspirin"} }`);
    expect([attrs.what, attrs.keys, attrs.target]).toEqual(['attributes', ['risk_category', 'old_id'], 'drug']);
    const meta = parse<DeleteStatement>(`// Metadata
DELETE METADATA {"old_source"} FROM ?drug
WHERE { ?drug {type: "Drug", name: "Aspirin"} }`);
    expect([meta.what, meta.keys]).toEqual(['metadata', ['old_source']]);
    const props = parse<DeleteStatement>(`// Propositions
DELETE PROPOSITIONS ?link
WHERE {
?link (?s, "treats", ?o)
FILTER(?link.metadata.source == "untrusted_source_v1")
}`);
    expect([props.what, props.target, props.where.length]).toEqual(['propositions', 'link', 2]);
    const concept = parse<DeleteStatement>(`// Concept (DETACH is mandatory; removes all incident links)
DELETE CONCEPT ?drug DETACH
WHERE { ?drug {type: "Drug", name: "OutdatedDrug"} }`);
    expect([concept.what, concept.target]).toEqual(['concept', 'drug']);
    expect(kipError(() => parseKip('DELETE CONCEPT ?drug WHERE { ?drug {type: "Drug"} }')).message).toMatch(
      /needs DETACH/,
    );
  });
});

describe('KIP parser: §4 META and SEARCH', () => {
  it('§4.1 every DESCRIBE form', () => {
    const d = (s: string, params = {}) => parse<DescribeStatement>(s, params);
    expect(d('DESCRIBE PRIMER').what).toBe('primer');
    expect(d('DESCRIBE DOMAINS').what).toBe('domains');
    expect(d('DESCRIBE CONCEPT TYPES LIMIT 10 CURSOR "t"')).toMatchObject({
      what: 'concept_types',
      limit: 10,
      cursor: 't',
    });
    expect(d('DESCRIBE CONCEPT TYPE "Drug"')).toMatchObject({ what: 'concept_type', name: 'Drug' });
    expect(d('DESCRIBE PROPOSITION TYPES LIMIT :n', { n: 3 })).toMatchObject({ what: 'proposition_types', limit: 3 });
    expect(d('DESCRIBE PROPOSITION TYPE "treats"')).toMatchObject({ what: 'proposition_type', name: 'treats' });
  });

  it('§4.2 SEARCH with every option, literal or parameter', () => {
    expect(
      parse<SearchStatement>('SEARCH CONCEPT "aspirin" WITH TYPE "Drug" MODE "semantic" THRESHOLD 0.85 LIMIT 10'),
    ).toMatchObject({ target: 'concept', term: 'aspirin', type: 'Drug', mode: 'semantic', threshold: 0.85, limit: 10 });
    expect(
      parse<SearchStatement>('SEARCH PROPOSITION :term WITH TYPE :type MODE :mode THRESHOLD :threshold LIMIT :limit', {
        term: 't',
        type: 'treats',
        mode: 'hybrid',
        threshold: 0.5,
        limit: 3,
      }),
    ).toMatchObject({ target: 'proposition', term: 't', type: 'treats', mode: 'hybrid', threshold: 0.5, limit: 3 });
    expect(kipError(() => parseKip('SEARCH CONCEPT "x" MODE "fuzzy"')).kipCode).toBe('KIP_2003');
    expect(kipError(() => parseKip('SEARCH CONCEPT "x" THRESHOLD 2')).kipCode).toBe('KIP_2003');
  });

  it('§4.3 EXPORT', () => {
    expect(parse<ExportStatement>('EXPORT ?target WHERE { ?target {type: "Drug"} } LIMIT 100')).toMatchObject({
      target: 'target',
      limit: 100,
    });
  });
});

describe('KIP parser: §5 parameters', () => {
  it('§5.3 a parameter fills a whole value position with its JSON value', () => {
    const f = parse<FindStatement>('FIND(?n) WHERE { ?n {name: :name} }', { name: 'Aspirin' });
    expect(f.where[0]).toMatchObject({ clause: { name: 'Aspirin' } });
    const u = parse<UpsertStatement>(
      'UPSERT { CONCEPT ?x { {type: "T", name: "n"} SET ATTRIBUTES { v: :val, o: :obj } } }',
      {
        val: 123,
        obj: { a: [1, 2] },
      },
    );
    expect(u.items[0]).toMatchObject({ attributes: { v: 123, o: { a: [1, 2] } } });
  });

  it('§5.2 a placeholder inside a string literal is text, not a parameter', () => {
    const f = parse<FindStatement>('FIND(?n) WHERE { ?n {name: "Hello :name"} }', { name: 'x' });
    expect(f.where[0]).toMatchObject({ clause: { name: 'Hello :name' } });
  });

  it('a missing parameter is KIP_3001; a parameter of the wrong JSON type is KIP_2003', () => {
    expect(kipError(() => parseKip('FIND(?n) WHERE { ?n {name: :name} }')).kipCode).toBe('KIP_3001');
    expect(kipError(() => parseKip('FIND(?n) WHERE { ?n {name: :name} }', { name: 3 })).kipCode).toBe('KIP_2003');
    expect(kipError(() => parseKip('FIND(?n) WHERE { ?n {type: "T"} } LIMIT :l', { l: -1 })).kipCode).toBe('KIP_2003');
  });
});

describe('KIP parser: §7 best-practice idioms and errors', () => {
  it('§7 higher-order with a predicate variable and the "what do I know about X" primitive', () => {
    const f = where('?u {type: "Person"} (?u, "stated", (?s, ?p, ?o)) (?seed, ?pred, ?neighbor)');
    expect((f.where[1] as PropPattern).clause.object).toMatchObject({ predicate: { kind: 'var', name: 'p' } });
    expect(
      parse<MergeStatement>('MERGE CONCEPT ?dup INTO ?canonical WHERE { ?dup {id: "a"} ?canonical {id: "b"} }').source,
    ).toBe('dup');
  });

  it('syntax errors are KIP_1001 with line and column', () => {
    const e = kipError(() => parseKip('FIND(?a)\nWHERE { ?a {type: "Drug"} \n  FILTER(?a.name == ) }'));
    expect(e.kipCode).toBe('KIP_1001');
    expect(e.message).toMatch(/line 3, column 21/);
    expect(kipError(() => parseKip('FETCH(?a)')).message).toMatch(/Expected FIND, UPSERT/);
    expect(kipError(() => parseKip('FIND(?a) WHERE { ?a {type: "X", color: "red"} }')).hint).toMatch(/FILTER/);
    expect(kipError(() => parseKip('FIND(?a.color) WHERE { ?a {type: "X"} }')).message).toMatch(/\?a.attributes.color/);
    expect(kipError(() => parseKip('FIND(?a) WHERE { ?a {type: "X"} }  "x"')).kipCode).toBe('KIP_1001');
    expect(kipError(() => parseKip('FIND(?a) WHERE { ?a {type: "unterminated} }')).message).toMatch(
      /Unterminated string/,
    );
  });

  it('illegal identifiers are KIP_1002', () => {
    expect(kipError(() => parseKip('FIND(?1a) WHERE { ?1a {type: "X"} }')).kipCode).toBe('KIP_1002');
    expect(kipError(() => parseKip('FIND(?) WHERE { }')).kipCode).toBe('KIP_1002');
  });

  it('keywords are case-insensitive, several statements run in order, comments are skipped', () => {
    const s = parseKip('find(?a) where { ?a {type: "X"} } /* block */ DESCRIBE primer; describe domains');
    expect(s.map((x) => x.kind)).toEqual(['find', 'describe', 'describe']);
  });
});
