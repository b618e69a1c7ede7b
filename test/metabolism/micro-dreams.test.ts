import { describe, expect, it } from 'vitest';
import {
  connectionConfidence,
  dreamEligible,
  dreamtLink,
  pairKey,
  planMicroDreams,
  type EpisodeMentions,
} from '../../src/metabolism/micro-dreams.js';

function ep(id: string, time: number, ...entityIds: string[]): EpisodeMentions {
  return { episodeId: id, time, entityIds };
}

const all = () => true;
/** A sleep's now after every episode of a test. */
const NOW = 1_000;

describe('planMicroDreams (co-mentions → RELATED_TO candidates)', () => {
  it('links pairs named together in at least 3 episodes that are not connected yet, strongest first', () => {
    const episodes = [
      ep('e1', 10, 'b', 'a', 'c'),
      ep('e2', 20, 'a', 'b'),
      ep('e3', 5, 'a', 'b', 'c', 'a'), // a repeat counts once
      ep('e4', 30, 'a', 'c', 'd'),
      ep('e5', 40, 'a', 'b'),
      ep('e6', 50, 'c', 'd'),
      ep('e7', 60, 'c', 'd'),
    ];
    const plan = planMicroDreams({ episodes, now: NOW, eligible: all, connected: new Set([pairKey('d', 'c')]) });
    expect(plan.candidates).toBe(3); // a–b 4, a–c 3, c–d 3 (b–c 2, a–d 1 fall short)
    expect(plan.alreadyConnected).toBe(1);
    expect(plan.connections).toEqual([
      { a: 'a', b: 'b', count: 4, first: 5, last: 40, episodes: ['e1', 'e2', 'e3', 'e5'] },
      { a: 'a', b: 'c', count: 3, first: 5, last: 30, episodes: ['e1', 'e3', 'e4'] },
    ]);
  });

  it.each([
    // [the sleep's now, shared episodes up to it, the latest of them]: episodes at 10, 30, 50 and 90 (one at now counts)
    [100, 4, 90],
    [90, 4, 90],
    [89, 3, 50],
    [50, 3, 50],
    [49, 2, 30],
    [5, 0, null],
  ])('a sleep at %i counts only the episodes up to its now: %i, the latest at %s', (now, count, last) => {
    const episodes = [ep('e1', 90, 'a', 'b'), ep('e2', 10, 'a', 'b'), ep('e3', 50, 'a', 'b'), ep('e4', 30, 'a', 'b')];
    const plan = (minCoMentions: number) =>
      planMicroDreams({
        episodes,
        now,
        eligible: all,
        connected: new Set(),
        rules: { minCoMentions, maxPerRun: 50, maxEntitiesPerEpisode: 40 },
      });
    const three = plan(3);
    expect(three.laterEpisodes).toBe(episodes.filter((e) => e.time > now).length);
    expect(three.connections.map((c) => [c.count, c.last])).toEqual(count >= 3 ? [[count, last]] : []);
    // A lower threshold links earlier, still counting nothing after now.
    expect(plan(2).connections.map((c) => [c.count, c.last])).toEqual(count >= 2 ? [[count, last]] : []);
  });

  it('a threshold of 2 finds more; ties are ordered by ids; the cap keeps the strongest', () => {
    const episodes = [ep('e1', 1, 'x', 'y', 'z'), ep('e2', 2, 'x', 'y', 'z'), ep('e3', 3, 'x', 'y')];
    const plan = planMicroDreams({
      episodes,
      now: NOW,
      eligible: all,
      connected: new Set(),
      rules: { minCoMentions: 2, maxPerRun: 2, maxEntitiesPerEpisode: 40 },
    });
    expect(plan.candidates).toBe(3);
    expect(plan.connections.map((c) => `${c.a}-${c.b}:${c.count}`)).toEqual(['x-y:3', 'x-z:2']);
  });

  it('leaves out ineligible entities and skips crowded episodes', () => {
    const crowded = ep('big', 1, ...Array.from({ length: 41 }, (_, i) => `n${i}`));
    const episodes = [
      crowded,
      crowded,
      crowded,
      ep('e1', 1, 'a', 'self'),
      ep('e2', 2, 'a', 'self'),
      ep('e3', 3, 'a', 'self'),
    ];
    const plan = planMicroDreams({ episodes, now: NOW, eligible: (id) => id !== 'self', connected: new Set() });
    expect(plan).toEqual({ connections: [], candidates: 0, alreadyConnected: 0, skippedEpisodes: 3, laterEpisodes: 0 });
  });

  it('confidence grows with the co-mentions and stays below 0.9', () => {
    expect([3, 4, 5, 10, 100].map(connectionConfidence)).toEqual([0.67, 0.75, 0.8, 0.9, 0.9]);
  });

  it.each([
    [{ id: 'e1', type: 'project', protected: false }, true],
    [{ id: 'e2', type: 'person', protected: false }, true],
    // the user: a person like any other, not protected, but named in most conversations
    [{ id: 'self', type: 'person', protected: false }, false],
    [{ id: 'p1', type: 'period', protected: false }, false],
    [{ id: 'kip:Domain:CoreSchema', type: 'Domain', protected: true }, false],
  ])('takes part in co-mention links: %o → %s', (node, eligible) => {
    expect(dreamEligible(node)).toBe(eligible);
  });

  it('a dreamt link is valid and recorded from the sleep that discovered it, not from its evidence', () => {
    const pair = { a: 'a', b: 'b', count: 7, first: 10, last: 90, episodes: ['e1', 'e2', 'e3', 'e4', 'e5'] };
    expect(dreamtLink({ pair, id: 'r1', now: 500 })).toEqual({
      id: 'r1',
      type: 'RELATED_TO',
      sourceId: 'a',
      targetId: 'b',
      properties: { coMentions: 7, evidenceEpisodes: 'e1, e2, e3, e4, e5' },
      validFrom: 500,
      validTo: null,
      confidence: 0.86,
      episodeId: 'e1',
      recordedAt: 500,
      discoveredBy: 'micro-dream',
    });
  });
});
