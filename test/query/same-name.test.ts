import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../../src/compose.js';
import { loadConfig } from '../../src/config/config.js';
import { pie, tempDir } from '../helpers/cli.js';

/**
 * Two entities with one name (a person Luna from the talk, a pet Luna added through the store as KIP or a declined
 * merge leaves one): `pie entity Luna` shows the more important and names the other with the id that opens it;
 * `pie entity <id>`, `pie timeline <id>` and the HTTP API take ids.
 */
let dir: string;
let cleanup: () => void;
let db: string;
const PET = 'seed-luna-pet';

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-same-name-'));
  db = join(dir, 'pie.db');
  const file = join(dir, 'luna.jsonl');
  const batch = { id: 'b1', date: '2023-05-01T10:00:00Z', episodeIds: ['s1'] };
  writeFileSync(file, JSON.stringify({ batch, entities: [{ name: 'Luna', type: 'person', state: { job: 'nurse' } }] }));
  const r = await pie(['--db', db, 'apply', file]);
  if (r.code !== 0) throw new Error(r.stderr);
  const env = { PIE_TZ: 'UTC' };
  const services = await compose({ config: loadConfig({ flags: { db, tz: 'UTC' }, env }), env });
  try {
    const t = Date.UTC(2023, 4, 2);
    await services.store.entities.insert({
      id: PET,
      type: 'pet',
      name: 'Luna',
      state: {},
      firstSeen: t,
      lastSeen: t,
      createdFrom: null,
      recordedAt: t,
      importance: 0.05,
    });
  } finally {
    await services.close();
  }
});
afterAll(() => cleanup());

describe('two entities with one name', () => {
  it('shows the more important and says how to open the other', async () => {
    const r = await pie(['--db', db, 'entity', 'Luna']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Luna \(person\)/);
    expect(r.stdout).toContain(`Another entity is called "Luna": Luna (pet); pie entity ${PET} shows it.`);
  });

  it('opens either by id', async () => {
    const pet = await pie(['--db', db, '--json', 'entity', PET]);
    expect(pet.code, pet.stderr).toBe(0);
    const shown = JSON.parse(pet.stdout) as { entity: { type: string }; sameName: { type: string }[] };
    expect(shown.entity.type).toBe('pet');
    expect(shown.sameName.map((o) => o.type)).toEqual(['person']);
    const timeline = await pie(['--db', db, 'timeline', PET]);
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toMatch(/^Luna \(pet\)/);
  });
});
