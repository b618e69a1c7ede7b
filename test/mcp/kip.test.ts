import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, fixtureWorld, structured, textOf } from './harness.js';

let world: Awaited<ReturnType<typeof fixtureWorld>>;

beforeAll(async () => {
  world = await fixtureWorld();
});
afterAll(() => world.cleanup());

/** A KIP error result: isError, with the KIP error object as structured content. */
function errorOf(r: { structuredContent?: unknown }): KipOut['error'] {
  return (r.structuredContent as KipOut | undefined)?.error;
}

interface KipOut {
  result?: unknown;
  error?: { code: string; message: string; hint?: string };
}

describe('KIP tools', () => {
  it('execute_kip_readonly answers KQL over the world and refuses KML', async () => {
    const mcp = await connect({ db: world.db });
    try {
      const found = await mcp.call('execute_kip_readonly', {
        command: 'FIND(?p.name, ?proj.name) WHERE { ?p {type: "Person"} (?p, "works_on", ?proj) }',
      });
      expect(found.isError).toBeFalsy();
      expect(structured<KipOut>(found).result).toEqual([['Maya Chen', 'Tidepool']]);
      expect(textOf(found)).toContain('Maya Chen');
      const refused = await mcp.call('execute_kip_readonly', {
        command: 'UPSERT { CONCEPT ?a { {type: "Project", name: "Atlantis"} } }',
      });
      expect(refused.isError).toBe(true);
      expect(errorOf(refused)?.code).toMatch(/^KIP_\d{4}$/);
      expect(errorOf(refused)?.hint).toBe('Use execute_kip to write.');
    } finally {
      await mcp.close();
    }
  });

  it('a read-only server, which has no execute_kip, does not point the model at it', async () => {
    const mcp = await connect({ db: world.db, readOnly: true });
    try {
      const refused = await mcp.call('execute_kip_readonly', {
        command: 'UPSERT { CONCEPT ?a { {type: "Project", name: "Atlantis"} } }',
      });
      expect(refused.isError).toBe(true);
      expect(errorOf(refused)?.hint).toBe(
        'This server is read-only (pie mcp --read-only); nothing can be written through it.',
      );
    } finally {
      await mcp.close();
    }
  });

  it('execute_kip writes through the history rules; dry_run keeps nothing; errors carry KIP codes and hints', async () => {
    const mcp = await connect({ db: world.db });
    try {
      const upsert = 'UPSERT { CONCEPT ?a { {type: "Project", name: "Atlantis"} SET ATTRIBUTES { stage: "idea" } } }';
      const dry = await mcp.call('execute_kip', { command: upsert, dry_run: true });
      expect(dry.isError).toBeFalsy();
      expect(await mcp.services.store.entities.findByKey('atlantis')).toEqual([]);
      expect((await mcp.call('execute_kip', { command: upsert })).isError).toBeFalsy();
      const [atlantis] = await mcp.services.store.entities.findByKey('atlantis');
      expect(atlantis?.state).toMatchObject({ stage: 'idea' });
      const typo = await mcp.call('execute_kip', { command: 'FIND(?p) WHERE { ?p {type: "project"} }' });
      expect(typo.isError).toBe(true);
      expect(errorOf(typo)?.code).toBe('KIP_2001');
      expect(`${errorOf(typo)?.message} ${errorOf(typo)?.hint}`).toContain("Did you mean 'Project'?");
    } finally {
      await mcp.close();
    }
  });
});
