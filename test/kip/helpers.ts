import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { executeKip, type ExecuteKipInput, type KipResponse } from '../../src/kip/api.js';
import type { JsonValue } from '../../src/kip/ast.js';

export const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

export interface KipWorld {
  store: WorldStore;
  /** Every call advances the fixed clock by one second. */
  kip(command: string, parameters?: Record<string, JsonValue>, extra?: Partial<ExecuteKipInput>): Promise<KipResponse>;
  /** The `result` of a successful single command (fails the test on an error). */
  ok<T = JsonValue>(command: string, parameters?: Record<string, JsonValue>): Promise<T>;
  /** The error of a failed single command (fails the test on success). */
  err(
    command: string,
    parameters?: Record<string, JsonValue>,
  ): Promise<{ code: string; message: string; hint?: string }>;
  now(): number;
  path: string;
}

/** Opens a fresh temporary SQLite world per test; ids are deterministic (id-1, id-2 …). */
export async function openWorld(dir?: string): Promise<KipWorld & { close(): Promise<void> }> {
  const root = dir ?? (await mkdtemp(join(tmpdir(), 'pie-kip-')));
  const path = join(root, `pie-${Math.random().toString(36).slice(2)}.db`);
  const store = await openSqliteStore({ path, clock: () => T0 });
  let tick = 0;
  let ids = 0;
  const now = () => T0 + tick * 1000;
  const kip: KipWorld['kip'] = async (command, parameters = {}, extra = {}) => {
    tick++;
    return executeKip({ store, command, parameters, clock: { now }, newId: () => `id-${++ids}`, ...extra });
  };
  const world: KipWorld & { close(): Promise<void> } = {
    store,
    kip,
    path,
    now,
    async ok<T = JsonValue>(command: string, parameters: Record<string, JsonValue> = {}) {
      const r = await kip(command, parameters);
      if ('error' in r) throw new Error(`${r.error.code} ${r.error.message}\n${command}`);
      return r.result as T;
    },
    async err(command, parameters = {}) {
      const r = await kip(command, parameters);
      if (!('error' in r)) throw new Error(`expected an error, got ${JSON.stringify(r).slice(0, 500)}`);
      return r.error;
    },
    async close() {
      await store.close();
      if (!dir) await rm(root, { recursive: true, force: true });
    },
  };
  return world;
}

/** A fresh world for every test of the file. */
export function useWorld(): () => KipWorld {
  let world: (KipWorld & { close(): Promise<void> }) | undefined;
  beforeEach(async () => {
    world = await openWorld();
  });
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });
  return () => {
    if (!world) throw new Error('only inside a test');
    return world;
  };
}

/** The medical example schema of the specification, registered and populated. */
export const DRUG_SCHEMA = `UPSERT {
  CONCEPT ?drug { {type: "$ConceptType", name: "Drug"} SET ATTRIBUTES { description: "A medicine." } }
  CONCEPT ?symptom { {type: "$ConceptType", name: "Symptom"} }
  CONCEPT ?class { {type: "$ConceptType", name: "DrugClass"} }
  CONCEPT ?treats { {type: "$PropositionType", name: "treats"} SET ATTRIBUTES { subject_types: ["Drug"], object_types: ["Symptom"] } }
  CONCEPT ?se { {type: "$PropositionType", name: "has_side_effect"} }
  CONCEPT ?bc { {type: "$PropositionType", name: "belongs_to_class"} }
  CONCEPT ?stated { {type: "$PropositionType", name: "stated"} }
  CONCEPT ?causes { {type: "$PropositionType", name: "causes"} }
}
WITH METADATA { source: "test", author: "$self", confidence: 1 }`;

export const DRUG_DATA = `UPSERT {
  CONCEPT ?headache { {type: "Symptom", name: "Headache"} }
  CONCEPT ?fever { {type: "Symptom", name: "Fever"} }
  CONCEPT ?nausea { {type: "Symptom", name: "Nausea"} }
  CONCEPT ?nsaid { {type: "DrugClass", name: "NSAID"} }
  CONCEPT ?aspirin {
    {type: "Drug", name: "Aspirin"}
    SET ATTRIBUTES { risk_level: 2, aliases: ["ASA", "acetylsalicylic acid"] }
    SET PROPOSITIONS { ("treats", ?headache) ("treats", ?fever) ("belongs_to_class", ?nsaid) ("has_side_effect", ?nausea) }
  }
  CONCEPT ?ibuprofen {
    {type: "Drug", name: "Ibuprofen"}
    SET ATTRIBUTES { risk_level: 3 }
    SET PROPOSITIONS { ("treats", ?headache) ("belongs_to_class", ?nsaid) }
  }
  CONCEPT ?paracetamol {
    {type: "Drug", name: "Paracetamol"}
    SET ATTRIBUTES { risk_level: 1 }
    SET PROPOSITIONS { ("treats", ?headache) ("treats", ?fever) }
  }
  CONCEPT ?morphine {
    {type: "Drug", name: "Morphine"}
    SET ATTRIBUTES { risk_level: 5 }
  }
  CONCEPT ?john { {type: "Person", name: "John Doe"} }
}
WITH METADATA { source: "test", author: "$self", confidence: 0.9 }`;

export async function drugWorld(w: KipWorld): Promise<void> {
  await w.ok(DRUG_SCHEMA);
  await w.ok(DRUG_DATA);
}

export function expectError(r: KipResponse, code: string): void {
  expect('error' in r ? r.error.code : 'no error').toBe(code);
}
