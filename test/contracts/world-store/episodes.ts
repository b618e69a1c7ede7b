import { describe, expect, it } from 'vitest';
import { episodeIdFor } from '../../../src/domain/conversation.js';
import type { EpisodeListQuery } from '../../../src/ports/world-store.js';
import { DAY, T0, addEpisode, conversation, turn, useFreshStore, type StoreFactory } from './fixtures.js';

export function describeEpisodes(factory: StoreFactory): void {
  describe('episodes', () => {
    const store = useFreshStore(factory);

    it('inserts a new conversation as a pending episode with its turns', async () => {
      const conv = conversation({
        externalId: 'c1',
        title: 'Planning the launch',
        createdAt: T0,
        updatedAt: T0 + 1000,
        model: 'gpt-4o',
        meta: { origin: 'test' },
        turns: [
          turn('user', 'first', { time: T0, speaker: 'Ana', externalId: 'm1', meta: { hasAnswer: true } }),
          turn('assistant', 'second', { attachments: [{ name: 'notes.txt', text: 'attached text' }] }),
          turn('user', 'third', { time: T0 + 2 }),
        ],
      });
      const result = await store().episodes.upsert({ conversation: conv, contentHash: 'h1', recordedAt: T0 + 5 });
      expect(result).toEqual({ id: 'chatgpt:c1', outcome: 'inserted' });
      expect(result.id).toBe(episodeIdFor(conv));

      const episode = await store().episodes.get('chatgpt:c1');
      expect(episode).toEqual({
        id: 'chatgpt:c1',
        source: 'chatgpt',
        externalId: 'c1',
        title: 'Planning the launch',
        createdAt: T0,
        updatedAt: T0 + 1000,
        model: 'gpt-4o',
        contentHash: 'h1',
        turnCount: 3,
        summary: null,
        significance: null,
        userState: null,
        extraction: 'pending',
        recordedAt: T0 + 5,
        meta: { origin: 'test' },
      });

      const turns = await store().episodes.turns('chatgpt:c1');
      expect(turns.map((t) => [t.seq, t.role, t.text])).toEqual([
        [0, 'user', 'first'],
        [1, 'assistant', 'second'],
        [2, 'user', 'third'],
      ]);
      expect(turns[0]).toEqual({
        episodeId: 'chatgpt:c1',
        seq: 0,
        role: 'user',
        text: 'first',
        time: T0,
        speaker: 'Ana',
        externalId: 'm1',
        meta: { hasAnswer: true },
      });
      expect(turns[1]).toMatchObject({ time: null, speaker: null, externalId: null });
      expect(turns[1]?.meta.attachments).toEqual([{ name: 'notes.txt', text: 'attached text' }]);
    });

    it('leaves an episode untouched when the content hash is the same', async () => {
      await addEpisode(store(), { externalId: 'c1', title: 'Original' }, 'same');
      await store().episodes.setExtraction({ ids: ['chatgpt:c1'], status: 'extracted' });
      await store().episodes.annotate({ id: 'chatgpt:c1', summary: 'A summary' });
      const before = await store().episodes.get('chatgpt:c1');

      const again = await store().episodes.upsert({
        conversation: conversation({ externalId: 'c1', title: 'Changed title, same hash' }),
        contentHash: 'same',
        recordedAt: T0 + DAY,
      });
      expect(again.outcome).toBe('unchanged');
      expect(await store().episodes.get('chatgpt:c1')).toEqual(before);
    });

    it('replaces turns and resets extraction when the content hash changes', async () => {
      await addEpisode(
        store(),
        { externalId: 'c1', title: 'Old', turns: [turn('user', 'a'), turn('assistant', 'b'), turn('user', 'c')] },
        'v1',
      );
      await store().episodes.setExtraction({ ids: ['chatgpt:c1'], status: 'extracted' });

      const result = await store().episodes.upsert({
        conversation: conversation({ externalId: 'c1', title: 'New', turns: [turn('user', 'only one now')] }),
        contentHash: 'v2',
        recordedAt: T0 + DAY,
      });
      expect(result).toEqual({ id: 'chatgpt:c1', outcome: 'updated' });
      const episode = await store().episodes.get('chatgpt:c1');
      expect(episode).toMatchObject({
        title: 'New',
        contentHash: 'v2',
        turnCount: 1,
        extraction: 'pending',
        recordedAt: T0 + DAY,
      });
      const turns = await store().episodes.turns('chatgpt:c1');
      expect(turns.map((t) => t.text)).toEqual(['only one now']);
      expect(await store().episodes.count()).toBe(1);
    });

    it('uses a fixed id when one is given', async () => {
      const bare = conversation({ externalId: 'conv-9', source: 'apply', turns: [] });
      const result = await store().episodes.upsert({
        conversation: bare,
        contentHash: 'bare',
        recordedAt: T0,
        id: 'conv-9',
      });
      expect(result).toEqual({ id: 'conv-9', outcome: 'inserted' });
      expect(await store().episodes.get('conv-9')).toMatchObject({
        source: 'apply',
        externalId: 'conv-9',
        turnCount: 0,
      });
      const again = await store().episodes.upsert({
        conversation: bare,
        contentHash: 'bare',
        recordedAt: T0,
        id: 'conv-9',
      });
      expect(again.outcome).toBe('unchanged');
    });

    it('gives the turns of several episodes at once, each as turns() gives it, unknown ids with none', async () => {
      const a = await addEpisode(store(), { externalId: 'many-a' });
      const b = await addEpisode(store(), {
        externalId: 'many-b',
        turns: [turn('user', 'first of b'), turn('assistant', 'second of b'), turn('user', 'third of b')],
      });
      const many = await store().episodes.turnsOfMany([b, 'chatgpt:nope', a]);
      expect([...many.keys()]).toEqual([b, 'chatgpt:nope', a]);
      expect(many.get(b)).toEqual(await store().episodes.turns(b));
      expect(many.get(b)?.map((t) => t.text)).toEqual(['first of b', 'second of b', 'third of b']);
      expect(many.get(a)).toEqual(await store().episodes.turns(a));
      expect(many.get(a)?.length).toBeGreaterThan(0);
      expect(many.get('chatgpt:nope')).toEqual([]);
      expect((await store().episodes.turnsOfMany([])).size).toBe(0);
    });

    it('returns null and empty lists for unknown episodes', async () => {
      expect(await store().episodes.get('chatgpt:nope')).toBeNull();
      expect(await store().episodes.turns('chatgpt:nope')).toEqual([]);
    });

    it('lists chronologically (createdAt, then id) with filters, paging and counts', async () => {
      await addEpisode(store(), { externalId: 'c', createdAt: T0 + 2 * DAY });
      await addEpisode(store(), { externalId: 'b', createdAt: T0 });
      await addEpisode(store(), { externalId: 'a', createdAt: T0 });
      await addEpisode(store(), { externalId: 'd', createdAt: T0 + DAY, source: 'claude' });
      await store().episodes.setExtraction({ ids: ['chatgpt:b'], status: 'extracted' });

      const ids = async (query?: EpisodeListQuery): Promise<string[]> =>
        (await store().episodes.list(query)).map((e) => e.id);
      expect(await ids()).toEqual(['chatgpt:a', 'chatgpt:b', 'claude:d', 'chatgpt:c']);
      expect(await ids({ extraction: 'pending' })).toEqual(['chatgpt:a', 'claude:d', 'chatgpt:c']);
      expect(await ids({ source: 'claude' })).toEqual(['claude:d']);
      expect(await ids({ since: T0 + DAY })).toEqual(['claude:d', 'chatgpt:c']);
      expect(await ids({ until: T0 + DAY })).toEqual(['chatgpt:a', 'chatgpt:b']);
      expect(await ids({ since: T0, until: T0 + 2 * DAY, source: 'chatgpt' })).toEqual(['chatgpt:a', 'chatgpt:b']);
      expect(await ids({ limit: 2, offset: 1 })).toEqual(['chatgpt:b', 'claude:d']);
      expect(await ids({ offset: 3 })).toEqual(['chatgpt:c']);

      expect(await store().episodes.count()).toBe(4);
      expect(await store().episodes.count({ extraction: 'extracted' })).toBe(1);
      expect(await store().episodes.count({ source: 'chatgpt', since: T0 + DAY })).toBe(1);
    });

    it('sets the extraction status of several episodes, all or nothing', async () => {
      await addEpisode(store(), { externalId: 'a' });
      await addEpisode(store(), { externalId: 'b' });
      await store().episodes.setExtraction({ ids: ['chatgpt:a', 'chatgpt:b'], status: 'failed' });
      expect(await store().episodes.count({ extraction: 'failed' })).toBe(2);

      await expect(
        store().episodes.setExtraction({ ids: ['chatgpt:a', 'chatgpt:missing'], status: 'extracted' }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect((await store().episodes.get('chatgpt:a'))?.extraction).toBe('failed');
    });

    it('annotates summary, significance and user state; undefined keeps, null clears', async () => {
      await addEpisode(store(), { externalId: 'a' });
      await store().episodes.annotate({
        id: 'chatgpt:a',
        summary: 'Talked about X',
        significance: 0.7,
        userState: 'calm',
      });
      expect(await store().episodes.get('chatgpt:a')).toMatchObject({
        summary: 'Talked about X',
        significance: 0.7,
        userState: 'calm',
      });
      await store().episodes.annotate({ id: 'chatgpt:a', userState: null });
      expect(await store().episodes.get('chatgpt:a')).toMatchObject({
        summary: 'Talked about X',
        significance: 0.7,
        userState: null,
      });
      await expect(store().episodes.annotate({ id: 'chatgpt:missing', summary: 'x' })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });
  });
}
