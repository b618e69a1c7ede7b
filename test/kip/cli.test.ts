import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, tempDir } from '../helpers/cli.js';

/** One day of a chat history as PIE's extractor would report it: a person on a project, a custom type and edge. */
const EXTRACTION = {
  batch: { id: '2024-03-15', date: '2024-03-15T14:00:00Z', episodeIds: ['conv-1'] },
  entities: [
    { name: 'Pranay', type: 'person', state: { role: 'student' } },
    { name: 'Science Research Academy', type: 'project', aliases: ['SRA'], state: { stage: 'launched' } },
    { name: 'Morning run', type: 'habit', state: { frequency: 'daily' } },
    { name: 'Dr. Rao', type: 'person' },
  ],
  relationships: [
    { source: 'Pranay', target: 'SRA', type: 'WORKS_ON', properties: { role: 'co-founder' } },
    { source: 'Dr. Rao', target: 'Pranay', type: 'MENTORS' },
  ],
  summary: 'Launch day.',
};

let dir = '';
let db = '';
let cleanup: () => void = () => undefined;
const G = ['--now', '2025-01-01T00:00:00Z'];

beforeEach(async () => {
  ({ dir, cleanup } = tempDir('pie-kip-cli-'));
  db = join(dir, 'pie.db');
  const file = join(dir, 'results.jsonl');
  writeFileSync(file, `${JSON.stringify(EXTRACTION)}\n`);
  const r = await pie(['--db', db, 'apply', file]);
  expect(r.code).toBe(0);
});
afterEach(() => cleanup());

const kip = (...args: string[]) => pie(['--db', db, ...G, 'kip', ...args]);
const kipJson = <T>(...args: string[]) => pieJson<T>(['--db', db, ...G, 'kip', ...args]);

describe('KIP over a world PIE extracted', () => {
  it('entities are concepts, relationships are propositions, PIE types map to KIP names', async () => {
    const r = await kipJson<{ result: unknown }>(
      'FIND(?p.name, ?proj.name, ?l.attributes.role, ?l.metadata.source) WHERE { ?p {type: "Person"} ?l (?p, "works_on", ?proj) }',
    );
    expect(r.result).toEqual([['Pranay', 'Science Research Academy', 'co-founder', 'conv-1']]);
    // Types and predicates PIE's data uses are queryable without registering them.
    expect(
      (await kipJson<{ result: unknown }>('FIND(?h.name, ?h.attributes.frequency) WHERE { ?h {type: "Habit"} }'))
        .result,
    ).toEqual([['Morning run', 'daily']]);
    expect(
      (await kipJson<{ result: unknown }>('FIND(?a.name) WHERE { (?a, "mentors", {type: "Person", name: "Pranay"}) }'))
        .result,
    ).toEqual(['Dr. Rao']);
    expect((await kipJson<{ result: string[] }>('DESCRIBE CONCEPT TYPES')).result).toEqual(
      expect.arrayContaining(['Habit', 'Project']),
    );
    // Aliases ground names; the metadata carries PIE's provenance.
    const [sra] = (
      await kipJson<{ result: { name: string; attributes: object; metadata: object }[] }>(
        'SEARCH CONCEPT "SRA" LIMIT 1',
      )
    ).result;
    expect(sra).toMatchObject({
      name: 'Science Research Academy',
      attributes: { stage: 'launched', aliases: ['SRA'] },
      metadata: { source: 'conv-1', _score: 1, _tier: 'active' },
    });
  });

  it('a KIP write follows PIE history: the timeline shows the change', async () => {
    const r = await kip(
      'UPSERT { CONCEPT ?p { {type: "Project", name: "Science Research Academy"} SET ATTRIBUTES { stage: "scaling" } } } WITH METADATA { source: "conv-1", confidence: 0.9 }',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"status": "updated"');
    const timeline = await pieJson<{
      entity: { state: object };
      transitions: { kind: string; summary: string; episodeId: string }[];
    }>(['--db', db, 'timeline', 'SRA']);
    expect(timeline.entity.state).toEqual({ stage: 'scaling' });
    expect(timeline.transitions.map((t) => [t.kind, t.summary, t.episodeId])).toEqual([
      ['creation', expect.any(String), 'conv-1'],
      ['update', 'stage: launched → scaling', 'conv-1'],
    ]);
  });
});

describe('pie kip', () => {
  it('--json prints the raw KIP response; several commands run as a batch', async () => {
    const raw = await pie([
      '--db',
      db,
      ...G,
      '--json',
      'kip',
      'FIND(?p.name) WHERE { ?p {name: :n} }',
      'DESCRIBE DOMAINS',
      '--params',
      '{"n": "Pranay"}',
    ]);
    expect(raw.code).toBe(0);
    const parsed = JSON.parse(raw.stdout) as { result: { result: unknown }[] };
    expect(parsed.result).toHaveLength(2);
    expect(parsed.result[0]?.result).toEqual(['Pranay']);
    // A KQL error stays inline in the batch (the command still exits non-zero, with the JSON on stdout).
    const mixed = await pie([
      '--db',
      db,
      ...G,
      '--json',
      'kip',
      'FIND(?x) WHERE { ?x {type: "project"} }',
      'DESCRIBE DOMAINS',
    ]);
    expect(mixed.code).toBe(2);
    const body = JSON.parse(mixed.stdout) as { result: Record<string, unknown>[] };
    expect(body.result.map((x) => ('error' in x ? 'error' : 'result'))).toEqual(['error', 'result']);
  });

  it('errors exit non-zero with the KIP code and hint on stderr', async () => {
    const r = await kip('FIND(?x) WHERE { ?x {type: "project"} }');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("KIP_2001 TypeMismatch: 'project' is not a valid type. Did you mean 'Project'?");
    expect(r.stderr).toContain('hint: Check the schema with DESCRIBE');
    // Said once, on stderr: nothing on stdout for a single command that failed.
    expect(r.stdout).toBe('');
    // A missing :parameter names the command line's way to pass it.
    const unbound = await kip('FIND(?p.name) WHERE { ?p {name: :who} }');
    expect([unbound.code, unbound.stdout]).toEqual([2, '']);
    expect(unbound.stderr).toContain(`--params '{"who": …}'`);
    // In a batch, the failed command's line says which one failed and why; the others still print.
    const batch = await kip('DESCRIBE DOMAINS', 'FIND(?x) WHERE { ?x {type: "project"} }');
    expect(batch.code).toBe(2);
    expect(batch.stdout).toContain("#2 error KIP_2001 TypeMismatch: 'project' is not a valid type.");
    expect(batch.stdout).toContain('#1 ');
    const missing = await kip(
      'UPSERT { CONCEPT ?a { {type: "Project", name: "X"} SET PROPOSITIONS { ("works_on", {type: "Project", name: "Nope"}) } } }',
    );
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('KIP_3002');
    const badParams = await kip('DESCRIBE PRIMER', '--params', '[1]');
    expect([badParams.code, badParams.stderr]).toEqual([2, expect.stringContaining('--params must be a JSON object')]);
    expect((await kip()).code).toBe(2);
  });

  it('text mode prints FIND rows one to a line, the values of a row between " | "', async () => {
    const command = 'FIND(?p.name, ?p.type) WHERE { ?p {type: "Project"} } LIMIT 5';
    const text = await kip(command);
    expect(text.code).toBe(0);
    const rows = (await kipJson<{ result: string[][] }>(command)).result;
    expect(rows.length).toBeGreaterThan(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines).toEqual(rows.map((r) => r.join(' | ')));
    expect(lines.every((l) => l.endsWith(' | Project'))).toBe(true);
    // A node is more than a row of values: still JSON.
    expect(JSON.parse((await kip('FIND(?p) WHERE { ?p {type: "Project"} } LIMIT 1')).stdout)).toEqual([
      expect.objectContaining({ type: 'Project' }),
    ]);
  });

  it('--dry-run keeps nothing; --file reads the command; --read-only refuses KML', async () => {
    const before = await pieJson<object>(['--db', db, 'stats']);
    const dry = await kip('UPSERT { CONCEPT ?a { {type: "Project", name: "Dry"} } }', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('(dry run: nothing was kept)');
    expect(await pieJson<object>(['--db', db, 'stats'])).toEqual(before);
    const file = join(dir, 'cmd.kip');
    writeFileSync(file, '// a comment\nFIND(?p.name)\nWHERE { ?p {type: "Project"} }\n');
    const viaFile = await kip('--file', file);
    expect(viaFile.stdout).toContain('Science Research Academy');
    const ro = await kip('UPSERT { CONCEPT ?a { {type: "Project", name: "RO"} } }', '--read-only');
    expect([ro.code, ro.stderr]).toEqual([2, expect.stringContaining('execute_kip_readonly accepts KQL')]);
  });
});
