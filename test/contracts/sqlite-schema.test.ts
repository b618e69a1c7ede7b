import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { PIE_APPLICATION_ID } from '../../src/adapters/store/sqlite/migrate.js';
import { createEntityRepo } from '../../src/adapters/store/sqlite/entities.js';
import { MIGRATIONS } from '../../src/adapters/store/sqlite/migrations/index.js';
import { createRelationshipRepo } from '../../src/adapters/store/sqlite/relationships.js';
import { Statements } from '../../src/adapters/store/sqlite/sql.js';
import type { Relationship } from '../../src/domain/world.js';
import type { RelationshipRepo, RelationshipScope, WorldStore } from '../../src/ports/world-store.js';
import { DAY, T0, addEntity, entityInput, relationship, transition } from './world-store/fixtures.js';

let dir = '';
let path = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pie-schema-'));
  path = join(dir, 'pie.db');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Brings a new database to an old schema version, as the PIE of that version would have left it. */
function atVersion(db: Database.Database, version: number): void {
  for (const step of MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(step.sql);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      step.version,
      step.name,
      T0,
    );
  }
  db.pragma(`user_version = ${version}`);
  db.pragma(`application_id = ${PIE_APPLICATION_ID}`);
}

/** Schema 2 in the SQLite adapter: upgrading schema-1 files, and the triggers and rowids its search relies on. */
describe('sqlite schema 2', () => {
  function raw<T>(fn: (db: Database.Database) => T): T {
    const db = new Database(path);
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  /** FTS5's own consistency check of both indexes, plus the entity rows against what the triggers derive. */
  function checkIndexes(): void {
    raw((db) => {
      db.exec("INSERT INTO transitions_fts (transitions_fts, rank) VALUES ('integrity-check', 1)");
      db.exec("INSERT INTO entities_fts (entities_fts) VALUES ('integrity-check')");
      const drift = db
        .prepare(
          `SELECT e.id FROM entities e LEFT JOIN entities_fts f ON f.rowid = e.rowid
           WHERE f.rowid IS NULL OR f.name IS NOT e.name
              OR f.aliases IS NOT (SELECT group_concat(alias, ' ' ORDER BY recorded_at, alias)
                                   FROM entity_aliases WHERE entity_id = e.id)`,
        )
        .pluck()
        .all();
      expect(drift).toEqual([]);
      expect(db.prepare('SELECT count(*) FROM entities_fts').pluck().get()).toBe(
        db.prepare('SELECT count(*) FROM entities').pluck().get(),
      );
    });
  }

  const entityIds = async (store: WorldStore, text: string): Promise<string[]> =>
    (await store.search.entities({ text, includeArchived: true })).map((h) => h.entityId);
  const transitionIds = async (store: WorldStore, text: string): Promise<string[]> =>
    (await store.search.transitions({ text })).map((h) => h.transitionId);

  it('upgrades a schema-1 database with data and indexes what was already there', async () => {
    raw((db) => {
      atVersion(db, 1);
      const entity = db.prepare(
        `INSERT INTO entities (id, type, name, name_norm, state, first_seen, last_seen, tier, recorded_at, updated_at)
         VALUES (?, 'project', ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      entity.run(
        'sra',
        'Science Research Academy',
        'sra',
        '{"stage":"curriculum","size":12}',
        T0,
        T0,
        'active',
        T0,
        T0,
      );
      entity.run('old', 'Garden shed', 'garden shed', '{"done":true}', T0, T0, 'archived', T0, T0);
      db.prepare("INSERT INTO entity_aliases VALUES ('sra', 'Mentor Lab', 'mentor lab', ?)").run(T0);
      const insert = db.prepare(
        `INSERT INTO transitions (id, entity_id, kind, to_state, summary, event_time, recorded_at, confidence)
         VALUES (?, ?, ?, '{}', ?, ?, ?, 0.9)`,
      );
      insert.run('t1', 'sra', 'contradiction', 'Pivoted from mentoring to research', T0, T0);
      insert.run('t2', 'old', 'update', 'Shed finished before winter', T0 + DAY, T0);
    });

    const store = await openSqliteStore({ path, clock: () => T0 + DAY });
    try {
      expect(store.info().schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      expect(await entityIds(store, 'science')).toEqual(['sra']);
      expect(await entityIds(store, 'mentor')).toEqual(['sra']);
      expect(await entityIds(store, 'curriculum 12')).toEqual(['sra']);
      expect(await entityIds(store, 'shed')).toEqual(['old']);
      expect(await store.search.entities({ text: 'shed' })).toEqual([]); // archived
      expect(await transitionIds(store, 'mentoring')).toEqual(['t1']);
      expect(await transitionIds(store, 'winter')).toEqual(['t2']);
      expect((await store.transitions.list({ unresolved: true })).map((t) => t.id)).toEqual(['t1']);

      // The triggers work on the migrated rows too.
      await store.entities.addAlias({ entityId: 'sra', alias: 'SRA', normalized: 'sra', recordedAt: T0 + DAY });
      await store.entities.update('sra', { name: 'Research Academy', updatedAt: T0 + DAY });
      expect(await entityIds(store, 'sra')).toEqual(['sra']);
      expect(await entityIds(store, 'science')).toEqual([]);
    } finally {
      await store.close();
    }
    expect(raw((db) => db.prepare('SELECT version, applied_at FROM schema_migrations ORDER BY version').all())).toEqual(
      [
        { version: 1, applied_at: T0 },
        { version: 2, applied_at: T0 + DAY },
        { version: 3, applied_at: T0 + DAY },
        { version: 4, applied_at: T0 + DAY },
        { version: 5, applied_at: T0 + DAY },
        { version: 6, applied_at: T0 + DAY },
        { version: 7, applied_at: T0 + DAY },
        { version: 8, applied_at: T0 + DAY },
        { version: 9, applied_at: T0 + DAY },
        { version: 10, applied_at: T0 + DAY },
      ],
    );
    checkIndexes();
  });

  it('keeps both indexes in step with deletes, alias removals and summary edits', async () => {
    const store = await openSqliteStore({ path });
    await addEntity(store, 'a', { name: 'Alpha project', state: { city: 'Lisbon' } });
    await addEntity(store, 'b', { name: 'Beta project' });
    await store.entities.addAlias({ entityId: 'a', alias: 'First', normalized: 'first', recordedAt: T0 });
    await store.entities.addAlias({ entityId: 'a', alias: 'Primo', normalized: 'primo', recordedAt: T0 + 1 });
    await store.transitions.insert(transition('ta', 'a', { summary: 'Alpha moved to Lisbon' }));
    await store.transitions.insert(transition('tb', 'b', { summary: 'Beta moved to Porto' }));
    await store.embeddings.put({
      ownerKind: 'entity',
      ownerId: 'a',
      model: 'm',
      vector: new Float32Array([1]),
      createdAt: T0,
    });
    await store.embeddings.put({
      ownerKind: 'transition',
      ownerId: 'ta',
      model: 'm',
      vector: new Float32Array([1]),
      createdAt: T0,
    });
    await store.embeddings.put({
      ownerKind: 'entity',
      ownerId: 'b',
      model: 'm',
      vector: new Float32Array([1]),
      createdAt: T0,
    });
    await store.close();

    raw((db) => {
      db.pragma('foreign_keys = ON');
      db.exec("DELETE FROM entity_aliases WHERE normalized = 'first'");
      db.exec("UPDATE transitions SET summary = 'Beta moved to Braga' WHERE id = 'tb'");
      db.exec("DELETE FROM entities WHERE id = 'a'"); // cascades to its transitions and aliases
    });
    checkIndexes();

    const reopened = await openSqliteStore({ path });
    try {
      expect(await entityIds(reopened, 'alpha')).toEqual([]);
      expect(await entityIds(reopened, 'primo')).toEqual([]);
      expect(await entityIds(reopened, 'project')).toEqual(['b']);
      expect(await transitionIds(reopened, 'lisbon')).toEqual([]);
      expect(await transitionIds(reopened, 'porto')).toEqual([]);
      expect(await transitionIds(reopened, 'braga')).toEqual(['tb']);
      // Vectors of deleted owners go with them.
      expect(await reopened.embeddings.count({ ownerKind: 'entity', model: 'm' })).toBe(1);
      expect(await reopened.embeddings.count({ ownerKind: 'transition', model: 'm' })).toBe(0);
    } finally {
      await reopened.close();
    }
  });

  it('finds the right rows after VACUUM (search joins on implicit rowids)', async () => {
    const store = await openSqliteStore({ path });
    for (let i = 0; i < 30; i++) {
      await addEntity(store, `e${String(i).padStart(2, '0')}`, {
        name: `Entity number${i}`,
        state: { tag: `tag${i}` },
      });
      await store.transitions.insert(transition(`t${i}`, `e${String(i).padStart(2, '0')}`, { summary: `word${i}` }));
    }
    await store.close();
    // Gaps in the rowids, then a VACUUM that could renumber them.
    raw((db) => {
      db.pragma('foreign_keys = ON');
      db.exec('DELETE FROM entities WHERE CAST(substr(id, 2) AS INTEGER) % 3 = 0');
      db.exec('VACUUM');
    });
    checkIndexes();

    const reopened = await openSqliteStore({ path });
    try {
      expect(await entityIds(reopened, 'number7')).toEqual(['e07']);
      expect(await entityIds(reopened, 'number9')).toEqual([]);
      expect(await transitionIds(reopened, 'word29')).toEqual(['t29']);
      expect(await transitionIds(reopened, 'word27')).toEqual([]);
      await reopened.entities.update('e28', { state: { tag: 'renamed' }, updatedAt: T0 });
      expect(await entityIds(reopened, 'tag28')).toEqual([]);
      expect(await entityIds(reopened, 'renamed')).toEqual(['e28']);
      expect(await entityIds(reopened, 'tag29')).toEqual(['e29']);
    } finally {
      await reopened.close();
    }
    checkIndexes();
  });
});

/** Schema 9: the relationship indexes by endpoint carry forEntity's sort keys; upgrading changes no answer. */
describe('sqlite schema 9', () => {
  const SCOPES: RelationshipScope[] = [
    {},
    { includeEnded: true },
    { excludeTypes: ['DURING'] },
    { limit: 3 },
    { limit: 8, excludeTypes: ['DURING'] },
    { limit: 5, includeEnded: true },
    { limit: 50, includeEnded: true, excludeTypes: ['DURING', 'USES'] },
  ];
  const TYPES = ['WORKS_ON', 'RELATED_TO', 'DURING', 'USES'];

  /** A hub with edges both ways, ended ones, a self-loop and ties in time broken only by id. */
  function hubEdges(): Relationship[] {
    const edges: Relationship[] = [];
    for (let i = 0; i < 24; i++) {
      const other = `e${i % 6}`;
      const outgoing = i % 3 !== 0;
      edges.push(
        relationship(`r${String(23 - i).padStart(2, '0')}`, outgoing ? 'hub' : other, outgoing ? other : 'hub', {
          type: TYPES[i % TYPES.length] as string,
          validFrom: T0 + (i % 5) * DAY,
          validTo: i % 7 === 0 ? T0 + 9 * DAY : null,
          recordedAt: T0 + (i % 2) * DAY,
        }),
      );
    }
    edges.push(relationship('loop', 'hub', 'hub', { type: 'RELATED_TO' }));
    return edges;
  }

  /** Every relationship read by endpoint, from the repo on the raw connection or from the store. */
  async function answers(repo: RelationshipRepo | ReturnType<typeof createRelationshipRepo>): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const id of ['hub', 'e1', 'e4']) for (const scope of SCOPES) out.push(await repo.forEntity(id, scope));
    for (const [sourceId, targetId] of [
      ['hub', 'e1'],
      ['e0', 'hub'],
    ] as const) {
      for (const type of TYPES) {
        out.push(
          await repo.findOpen({ sourceId, targetId, type }),
          await repo.findLatest({ sourceId, targetId, type }),
        );
      }
    }
    out.push(await repo.validAt({ time: T0 + 2 * DAY, entityIds: ['hub', 'e2'] }));
    return out;
  }

  it('upgrades a schema-8 database with relationships and gives the same forEntity answers', async () => {
    const before = await (async (): Promise<unknown[]> => {
      const db = new Database(path);
      try {
        atVersion(db, 8);
        db.pragma('foreign_keys = ON');
        const s = new Statements(db);
        const entities = createEntityRepo(s);
        for (const id of ['hub', 'e0', 'e1', 'e2', 'e3', 'e4', 'e5']) entities.insert(entityInput(id));
        const repo = createRelationshipRepo(s);
        for (const edge of hubEdges()) repo.insert(edge);
        return await answers(repo);
      } finally {
        db.close();
      }
    })();
    expect((before[0] as Relationship[]).length).toBeGreaterThan(10);

    const store = await openSqliteStore({ path, clock: () => T0 + DAY });
    try {
      expect(store.info().schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      const after = await answers(store.relationships);
      expect(after).toEqual(before);
    } finally {
      await store.close();
    }

    const db = new Database(path, { readonly: true });
    try {
      const columns = (index: string): string[] =>
        (db.pragma(`index_info(${index})`) as { name: string }[]).map((c) => c.name);
      expect(columns('relationships_by_source')).toEqual([
        'source_id',
        'type',
        'valid_to',
        'valid_from',
        'recorded_at',
        'id',
      ]);
      expect(columns('relationships_by_target')).toEqual([
        'target_id',
        'type',
        'valid_to',
        'valid_from',
        'recorded_at',
        'source_id',
        'id',
      ]);
      expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(LATEST_SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });
});
