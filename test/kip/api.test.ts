import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { PieError } from '../../src/domain/errors.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { z } from 'zod';
import { executeKip, kipArgumentsSchema, kipResponseSchema, kipResponseShape } from '../../src/kip/api.js';
import { isBootstrapped } from '../../src/kip/bootstrap.js';
import { DRUG_DATA, DRUG_SCHEMA, T0, drugWorld, expectError, useWorld } from './helpers.js';

const world = useWorld();

async function snapshot(store: WorldStore) {
  const stats = await store.stats();
  const journal = await store.maintenance.list(1000);
  return { stats, log: journal.length };
}

describe('executeKip: batches (spec §5.2)', () => {
  it('KQL, META and syntax errors stay inline and execution continues', async () => {
    const w = world();
    await drugWorld(w);
    const r = await w.kip(
      '',
      {},
      {
        command: undefined,
        commands: [
          'FIND(?d.name) WHERE { ?d {type: "Drug", name: "Aspirin"} }',
          'FIND(?d) WHERE { ?d {type: "drug"} }',
          'THIS IS NOT KIP',
          { command: 'FIND(?d.name) WHERE { ?d {name: :n} }', parameters: { n: 'Fever' } },
          'DESCRIBE CONCEPT TYPE "Nope"',
          'FIND(?d.name) WHERE { ?d {name: :shared} }',
        ],
        parameters: { shared: 'Morphine' },
      },
    );
    expect('result' in r && Array.isArray(r.result)).toBe(true);
    const results = (r as { result: Record<string, unknown>[] }).result;
    expect(results.map((x) => ('error' in x ? (x.error as { code: string }).code : x.result))).toEqual([
      ['Aspirin'],
      'KIP_2001',
      'KIP_1001',
      ['Fever'],
      'KIP_2001',
      ['Morphine'],
    ]);
    expect(kipResponseSchema.safeParse(r).success).toBe(true);
    expect(z.object(kipResponseShape).safeParse(r).success).toBe(true);
    expect(kipResponseSchema.safeParse({ result: [], error: { code: 'KIP_1001', message: 'x' } }).success).toBe(false);
  });

  it('the first KML error stops the batch; earlier KML commands stay committed', async () => {
    const w = world();
    await drugWorld(w);
    const r = await w.kip(
      '',
      {},
      {
        command: undefined,
        commands: [
          'UPSERT { CONCEPT ?a { {type: "Drug", name: "First"} } }',
          'UPSERT { CONCEPT ?a { {type: "Drug", name: "Second"} SET PROPOSITIONS { ("treats", {type: "Symptom", name: "Missing"}) } } }',
          'UPSERT { CONCEPT ?a { {type: "Drug", name: "Third"} } }',
          'FIND(?d) WHERE { ?d {type: "Drug"} }',
        ],
      },
    );
    const results = (r as { result: Record<string, unknown>[] }).result;
    expect(results).toHaveLength(2);
    expect(results[1]).toMatchObject({ error: { code: 'KIP_3002' } });
    const names = await w.ok(
      'FIND(?d.name) WHERE { ?d {type: "Drug"} FILTER(IN(?d.name, ["First", "Second", "Third"])) }',
    );
    expect(names).toEqual(['First']);
  });

  it('a command with several statements commits them together or not at all', async () => {
    const w = world();
    await drugWorld(w);
    const r = await w.kip(`UPSERT { CONCEPT ?a { {type: "Drug", name: "One"} } }
      UPSERT { CONCEPT ?b { {type: "Drug", name: "Two"} SET PROPOSITIONS { ("treats", {type: "Symptom", name: "Missing"}) } } }`);
    expectError(r, 'KIP_3002');
    expect(await w.ok('FIND(?d) WHERE { ?d {type: "Drug", name: "One"} }')).toEqual([]);
    const ok = await w.ok<unknown[]>('DESCRIBE DOMAINS FIND(?d.name) WHERE { ?d {type: "Drug", name: "Morphine"} }');
    expect(ok).toHaveLength(2);
    expect(ok[1]).toEqual(['Morphine']);
  });

  it('command and commands are mutually exclusive', async () => {
    const w = world();
    expectError(await w.kip('DESCRIBE PRIMER', {}, { commands: ['DESCRIBE PRIMER'] }), 'KIP_1001');
    expect(kipArgumentsSchema.safeParse({ command: 'DESCRIBE PRIMER', commands: ['x'] }).success).toBe(false);
    expect(kipArgumentsSchema.safeParse({}).success).toBe(false);
    expect(
      kipArgumentsSchema.safeParse({
        commands: ['FIND(?a) WHERE { ?a {type: "Drug"} }', { command: 'DESCRIBE PRIMER', parameters: { a: [1] } }],
        dry_run: true,
      }).success,
    ).toBe(true);
  });
});

describe('executeKip: dry_run and read-only', () => {
  it('dry_run reports what would happen and leaves the database unchanged (bootstrap included)', async () => {
    const w = world();
    const before = await snapshot(w.store);
    const r = await w.kip(
      '',
      {},
      {
        command: undefined,
        commands: [DRUG_SCHEMA, DRUG_DATA, 'FIND(COUNT(?d)) WHERE { ?d {type: "Drug"} }'],
        dryRun: true,
      },
    );
    const results = (r as { result: { result: unknown }[] }).result;
    expect(results[2]?.result).toEqual([4]);
    expect(await snapshot(w.store)).toEqual(before);
    expect(await isBootstrapped(w.store)).toBe(false);
    await drugWorld(w);
    const loaded = await snapshot(w.store);
    const del = await w.kip('DELETE CONCEPT ?d DETACH WHERE { ?d {type: "Drug"} }', {}, { dryRun: true });
    expect(del).toEqual({ result: { deleted: 4, propositions: 8 } });
    expect(await snapshot(w.store)).toEqual(loaded);
    expect(await w.ok('FIND(COUNT(?d)) WHERE { ?d {type: "Drug"} }')).toEqual([4]);
  });

  it('a query writes nothing: the first command that writes bootstraps the schema', async () => {
    const w = world();
    const before = await snapshot(w.store);
    expect(await w.kip('FIND(?p.name) WHERE { ?p {type: "Person"} }')).toEqual({ result: [] });
    expect(await w.kip('DESCRIBE CONCEPT TYPE "Person"')).toMatchObject({ result: { name: 'Person' } });
    expect(await w.kip('', {}, { command: undefined, commands: ['DESCRIBE PRIMER', 'NOT KIP'] })).toHaveProperty(
      'result',
    );
    // A query is not a reason to add KIP's type definitions to the person's world (its entity counts, importance).
    expect(await snapshot(w.store)).toEqual(before);
    expect(await isBootstrapped(w.store)).toBe(false);
    expect(await w.kip('UPSERT { CONCEPT ?a { {type: "Person", name: "Ada"} } }')).toHaveProperty('result');
    expect(await isBootstrapped(w.store)).toBe(true);
    expect(await w.ok('FIND(?p.name) WHERE { ?p {type: "Person", name: "Ada"} }')).toEqual(['Ada']);
  });

  it('read-only refuses KML, writes nothing (not even the bootstrap) and still knows the schema', async () => {
    const w = world();
    const before = await snapshot(w.store);
    expect(await w.kip('FIND(?t.name) WHERE { ?t {type: "Drug"} }', {}, { readOnly: true })).toMatchObject({
      error: { code: 'KIP_2001' },
    });
    expect(await w.kip('FIND(?p.name) WHERE { ?p {type: "Person"} }', {}, { readOnly: true })).toEqual({ result: [] });
    const r = await w.kip('UPSERT { CONCEPT ?a { {type: "Person", name: "X"} } }', {}, { readOnly: true });
    expect(r).toMatchObject({ error: { code: 'KIP_1001', hint: 'Use execute_kip to write.' } });
    expect(await snapshot(w.store)).toEqual(before);
  });

  it('a store opened read-only gets a virtual bootstrap', async () => {
    const w = world();
    await w.store.close().catch(() => undefined);
    const ro = await openSqliteStore({ path: w.path, readonly: true }).catch(async () => {
      const rw = await openSqliteStore({ path: w.path });
      await rw.close();
      return openSqliteStore({ path: w.path, readonly: true });
    });
    try {
      const r = await executeKip({
        store: ro,
        command: 'DESCRIBE PROPOSITION TYPE "belongs_to_domain"',
        clock: { now: () => T0 },
      });
      expect(r).toMatchObject({ result: { name: 'belongs_to_domain', attributes: { object_types: ['Domain'] } } });
    } finally {
      await ro.close();
    }
  });
});

describe('executeKip: internal errors', () => {
  it('an unexpected storage failure is KIP_4003; a PIE conflict is KIP_3005', async () => {
    const w = world();
    await drugWorld(w);
    const broken = (error: Error): WorldStore =>
      new Proxy(w.store, {
        get(target, prop, receiver) {
          if (prop === 'relationships') {
            return new Proxy(target.relationships, {
              get(r, p) {
                if (p === 'forEntity' || p === 'validAt') return () => Promise.reject(error);
                return Reflect.get(r, p) as unknown;
              },
            });
          }
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
    const q = 'FIND(?s) WHERE { ({type: "Drug", name: "Aspirin"}, "treats", ?s) }';
    const r = await executeKip({ store: broken(new Error('disk on fire')), command: q });
    expect(r).toMatchObject({ error: { code: 'KIP_4003', message: 'InternalError: disk on fire' } });
    const c = await executeKip({ store: broken(new PieError('CONFLICT', 'changed meanwhile')), command: q });
    expect(c).toMatchObject({ error: { code: 'KIP_3005' } });
  });
});
