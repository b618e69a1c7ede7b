import { describe, expect, it } from 'vitest';
import {
  connectionConfidence,
  pairKey,
  planMicroDreams,
  type EpisodeMentions,
} from '../../src/metabolism/micro-dreams.js';

function ep(id: string, time: number, ...entityIds: string[]): EpisodeMentions {
  return { episodeId: id, time, entityIds };
}

const all = () => true;

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
    const plan = planMicroDreams({ episodes, eligible: all, connected: new Set([pairKey('d', 'c')]) });
    expect(plan.candidates).toBe(3); // a–b 4, a–c 3, c–d 3 (b–c 2, a–d 1 fall short)
    expect(plan.alreadyConnected).toBe(1);
    expect(plan.connections).toEqual([
      { a: 'a', b: 'b', count: 4, first: 5, reached: 20, last: 40, episodes: ['e1', 'e2', 'e3', 'e5'] },
      { a: 'a', b: 'c', count: 3, first: 5, reached: 30, last: 30, episodes: ['e1', 'e3', 'e4'] },
    ]);
  });

  it('a link is reached at its threshold-th shared episode in time order, whatever order the episodes come in', () => {
    const episodes = [ep('e1', 90, 'a', 'b'), ep('e2', 10, 'a', 'b'), ep('e3', 50, 'a', 'b'), ep('e4', 30, 'a', 'b')];
    const [link] = planMicroDreams({ episodes, eligible: all, connected: new Set() }).connections;
    expect(link).toMatchObject({ count: 4, first: 10, reached: 50, last: 90 });
    const two = planMicroDreams({
      episodes,
      eligible: all,
      connected: new Set(),
      rules: { minCoMentions: 2, maxPerRun: 50, maxEntitiesPerEpisode: 40 },
    });
    expect(two.connections[0]?.reached).toBe(30);
  });

  it('a threshold of 2 finds more; ties are ordered by ids; the cap keeps the strongest', () => {
    const episodes = [ep('e1', 1, 'x', 'y', 'z'), ep('e2', 2, 'x', 'y', 'z'), ep('e3', 3, 'x', 'y')];
    const plan = planMicroDreams({
      episodes,
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
    const plan = planMicroDreams({ episodes, eligible: (id) => id !== 'self', connected: new Set() });
    expect(plan).toEqual({ connections: [], candidates: 0, alreadyConnected: 0, skippedEpisodes: 3 });
  });

  it('confidence grows with the co-mentions and stays below 0.9', () => {
    expect([3, 4, 5, 10, 100].map(connectionConfidence)).toEqual([0.67, 0.75, 0.8, 0.9, 0.9]);
  });
});
