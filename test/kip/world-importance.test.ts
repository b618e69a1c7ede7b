import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, tempDir } from '../helpers/cli.js';

interface Listed {
  entities: { id: string; name: string; type: string; importance: number }[];
}
interface Health {
  health: { entities: number; isolated: number; meanImportance: number };
}

const NOW = '2024-06-01';

/** Three people and a project, linked, as `pie apply` input. */
function world(dir: string): string {
  const file = join(dir, 'world.jsonl');
  const line = {
    batch: { id: 'b1', date: '2024-05-01T12:00:00Z', episodeIds: ['e1'] },
    entities: [
      { name: 'Maya Chen', type: 'person' },
      { name: 'Leo Park', type: 'person' },
      { name: 'Ana Ruiz', type: 'person' },
      { name: 'Tidepool', type: 'project', state: { stage: 'idea' } },
    ],
    relationships: [
      { source: 'Maya Chen', target: 'Tidepool', type: 'WORKS_ON' },
      { source: 'Leo Park', target: 'Tidepool', type: 'WORKS_ON' },
      { source: 'Maya Chen', target: 'Ana Ruiz', type: 'COLLABORATES_WITH' },
    ],
  };
  writeFileSync(file, `${JSON.stringify(line)}\n`);
  return file;
}

async function importances(db: string): Promise<Map<string, number>> {
  const listed = await pieJson<Listed>(['--db', db, 'entities', '--limit', '500']);
  return new Map(listed.entities.map((e) => [e.name, e.importance]));
}

describe('KIP × the sleep cycle: the schema KIP writes is not part of the person’s world', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  beforeEach(async () => {
    dir = tempDir('pie-kip-importance-');
    db = join(dir.dir, 'pie.db');
    expect((await pie(['--db', db, 'apply', world(dir.dir)])).code).toBe(0);
    expect((await pie(['--db', db, '--now', NOW, 'sleep'])).code).toBe(0);
  });
  afterEach(() => dir.cleanup());

  it('a KIP write (which bootstraps 40 schema entities) leaves importance and health as they were', async () => {
    const before = await importances(db);
    const healthBefore = await pieJson<Health>(['--db', db, '--now', NOW, 'health']);
    // The first write bootstraps KIP's schema: type definitions and domains, linked to CoreSchema.
    const write = await pie(['--db', db, 'kip', 'UPSERT { CONCEPT ?p { {type: "Person", name: "Maya Chen"} } }']);
    expect(write.code).toBe(0);
    const listed = await pieJson<Listed>(['--db', db, 'entities', '--limit', '500']);
    expect(listed.entities.some((e) => e.name === 'CoreSchema')).toBe(true);
    expect((await pie(['--db', db, '--now', NOW, 'sleep'])).code).toBe(0);
    const after = await importances(db);
    for (const [name, score] of before) expect(after.get(name), name).toBe(score);
    expect(after.get('CoreSchema')).toBe(0);
    // The most important entity is still one of the world's, and health counts the world's entities only.
    const top = (await pieJson<Listed>(['--db', db, 'entities', '--limit', '1'])).entities[0];
    expect(top?.importance).toBe(Math.max(...before.values()));
    expect(before.has(top?.name ?? '')).toBe(true);
    const healthAfter = await pieJson<Health>(['--db', db, '--now', NOW, 'health']);
    expect(healthAfter.health).toMatchObject({
      entities: healthBefore.health.entities,
      isolated: healthBefore.health.isolated,
      meanImportance: healthBefore.health.meanImportance,
    });
  });
});
