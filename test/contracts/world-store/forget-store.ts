import { describe, expect, it } from 'vitest';
import { textForms } from '../../../src/domain/text-match.js';
import type { ForgetWrite } from '../../../src/ports/forget-store.js';
import type { WorldStore } from '../../../src/ports/world-store.js';
import {
  T0,
  addEntity,
  addEpisode,
  fact,
  relationship,
  transition,
  turn,
  useFreshStore,
  type StoreFactory,
} from './fixtures.js';

/** A write that removes nothing, to spread the parts a test needs over. */
function emptyWrite(): ForgetWrite {
  return {
    episodeIds: [],
    forgottenKeys: [],
    turns: [],
    entityIds: [],
    transitionIds: [],
    factIds: [],
    relationshipIds: [],
    mentions: [],
    aliases: [],
    observationIds: [],
    summaryIds: [],
    modelIds: [],
    modelsToReset: [],
    insightIds: [],
    sleepTaskIds: [],
    procedures: { deleted: [], evidence: [] },
    cacheKeys: [],
    journal: [],
    logs: [],
    needles: { ids: [], texts: [] },
    batches: [],
    reembed: { entityIds: [], episodeIds: [] },
    repairs: { facts: [], reopenedTransitions: [], entities: [], episodes: [] },
  };
}

/** Two conversations; Tidepool is named in both, Maya only in the first. */
async function twoConversations(s: WorldStore): Promise<{ first: string; second: string }> {
  const first = await addEpisode(s, {
    externalId: 'c1',
    title: 'Vault notes',
    turns: [turn('user', 'The VAULT code is qz-1234 for Tidepool.'), turn('assistant', 'Noted.')],
  });
  const second = await addEpisode(s, {
    externalId: 'c2',
    title: 'Launch',
    turns: [turn('user', 'We launched Tidepool.')],
  });
  await addEntity(s, 'tide', { name: 'Tidepool', createdFrom: first });
  await addEntity(s, 'maya', { name: 'Maya', type: 'person', createdFrom: first });
  await addEntity(s, 'old-maya', { name: 'M.', type: 'person', state: {} });
  await s.upkeep.putRow({
    table: 'entities',
    id: 'old-maya',
    row: { ...(await s.upkeep.getRow({ table: 'entities', id: 'old-maya' })), merged_into: 'maya' },
  });
  for (const [entityId, episodeId] of [
    ['tide', first],
    ['tide', second],
    ['maya', first],
  ] as const) {
    await s.mentions.add({ entityId, episodeId, time: T0 });
  }
  await s.transitions.insert(transition('t1', 'tide', { episodeId: first }));
  await s.facts.insert(fact('f1', 'tide', { episodeId: first, value: 'idea' }));
  await s.facts.insert(fact('f2', 'tide', { episodeId: second, value: 'launched' }));
  await s.relationships.insert(relationship('r1', 'maya', 'tide', { episodeId: first }));
  return { first, second };
}

export function describeForgetStore(factory: StoreFactory): void {
  describe('forget', () => {
    const store = useFreshStore(factory);

    it('finds conversations by exact title and turns by text, case-insensitively', async () => {
      const s = store();
      const { first } = await twoConversations(s);
      expect((await s.forget.episodesTitled('  Vault notes ')).map((e) => e.id)).toEqual([first]);
      expect(await s.forget.episodesTitled('vault')).toEqual([]);
      expect(await s.forget.turnsContaining(textForms('vault code'))).toEqual([
        { episodeId: first, seq: 0, turnCount: 2 },
      ]);
      expect(await s.forget.turnsContaining(textForms('nowhere said'))).toEqual([]);
    });

    it('scans what hangs off a conversation: linked entities, those merged into them, and their rows', async () => {
      const s = store();
      const { first } = await twoConversations(s);
      const scan = await s.forget.scan({ episodeIds: [first], turns: [], entityIds: [], text: [] });
      expect(scan.episodes.map((e) => [e.id, e.turnCount])).toEqual([[first, 2]]);
      expect(scan.turns.map((t) => t.seq)).toEqual([0, 1]);
      expect(scan.entities.map((e) => e.id).sort()).toEqual(['maya', 'old-maya', 'tide']);
      const tide = scan.entities.find((e) => e.id === 'tide');
      expect(tide?.mentions).toHaveLength(2);
      expect(tide?.facts.map((f) => f.id)).toEqual(['f1', 'f2']);
      expect(tide?.relationships).toEqual([{ id: 'r1', episodeId: first, discoveredBy: null }]);
      expect(scan.entities.find((e) => e.id === 'old-maya')?.mergedInto).toBe('maya');
      expect(scan.text.facts).toEqual([]);
    });

    it('matches a text against the rows that hold it, and only those', async () => {
      const s = store();
      await twoConversations(s);
      const scan = await s.forget.scan({ episodeIds: [], turns: [], entityIds: [], text: textForms('LAUNCHED') });
      expect(scan.text.facts).toEqual(['f2']);
      expect(scan.text.transitions).toEqual(['t1']);
      expect(scan.entities.map((e) => e.id)).toEqual(['tide']);
    });

    it('tells which phrases only the given turns hold', async () => {
      const s = store();
      const { first } = await twoConversations(s);
      const found = await s.forget.foundOnlyIn({
        phrases: ['qz-1234', 'Tidepool', 'never written', '---'],
        inside: [{ episodeId: first, seq: 0 }],
      });
      expect(found).toEqual([
        { phrase: 'qz-1234', inside: true },
        { phrase: 'never written', inside: false },
      ]);
    });

    it('removes exactly what a write names, repairs what stays, and compacts only outside a transaction', async () => {
      const s = store();
      const { first, second } = await twoConversations(s);
      await s.transaction(async (tx) => {
        await tx.forget.apply({
          at: T0 + 1,
          write: {
            ...emptyWrite(),
            episodeIds: [first],
            entityIds: ['maya', 'old-maya'],
            transitionIds: ['t1'],
            factIds: ['f1'],
            relationshipIds: ['r1'],
            mentions: [{ entityId: 'tide', episodeId: first }],
            repairs: {
              facts: [{ id: 'f2', validTo: null, supersededBy: null }],
              reopenedTransitions: [],
              entities: [
                { id: 'tide', state: { stage: 'launched' }, firstSeen: T0, lastSeen: T0, createdFrom: second },
              ],
              episodes: [],
            },
          },
        });
        await expect(tx.forget.compact()).rejects.toMatchObject({ code: 'INTERNAL' });
      });
      expect(await s.episodes.get(first)).toBeNull();
      expect(await s.entities.getMany(['maya', 'old-maya'])).toEqual([]);
      expect(await s.entities.get('tide')).toMatchObject({ state: { stage: 'launched' }, createdFrom: second });
      expect((await s.mentions.forEntity('tide')).map((m) => m.episodeId)).toEqual([second]);
      expect((await s.facts.history('tide')).map((f) => f.id)).toEqual(['f2']);
      expect(await s.search.turns({ text: 'vault' })).toEqual([]);
      // Differs by design: a file store (SQLite) rewrites its file and empties its log (walTruncated); a server store
      // (PostgreSQL) says storage 'server': it vacuums its tables, and the server's WAL is not PIE's to truncate.
      const report = await s.forget.compact();
      if (report.storage === 'server') expect(report.walTruncated).toBe(false);
      else expect(report.walTruncated).toBe(true);
    });

    it('keeps the keys of conversations forgotten whole, and tells which of a list are among them', async () => {
      const s = store();
      const { first } = await twoConversations(s);
      expect(await s.forget.forgottenAmong(['k-first', 'k-other'])).toEqual([]);
      await s.transaction((tx) =>
        tx.forget.apply({ at: T0 + 1, write: { ...emptyWrite(), episodeIds: [first], forgottenKeys: ['k-first'] } }),
      );
      expect(await s.forget.forgottenAmong(['k-other', 'k-first'])).toEqual(['k-first']);
      expect(await s.forget.forgottenAmong([])).toEqual([]);
      // Applying the same key again (a second forget of a re-imported copy) is not an error.
      await s.transaction((tx) =>
        tx.forget.apply({ at: T0 + 2, write: { ...emptyWrite(), forgottenKeys: ['k-first'] } }),
      );
      expect(await s.forget.forgottenAmong(['k-first'])).toEqual(['k-first']);
      await s.forget.clearForgotten(['k-first', 'k-never']);
      expect(await s.forget.forgottenAmong(['k-first'])).toEqual([]);
    });
  });
}
