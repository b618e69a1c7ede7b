import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../../src/ports/maintenance-store.js';
import { dreamable, insightRows, pickClusters } from '../../src/metabolism/dreams.js';

function node(id: string, importance: number, extra: Partial<GraphNode> = {}): GraphNode {
  return {
    id,
    type: 'project',
    lastSeen: 0,
    accessCount: 0,
    importance,
    tier: 'active',
    protected: false,
    transitions: 1,
    ...extra,
  };
}

describe('deep dream clusters', () => {
  it('seeds on the most important entity, adds its most important neighbours, then the next uncovered seed', () => {
    const nodes = dreamable(
      [
        node('a', 0.9),
        node('b', 0.8),
        node('c', 0.7),
        node('d', 0.6),
        node('e', 0.5),
        node('f', 0.4),
        node('g', 0.3),
        node('p', 0.99, { type: 'period' }),
        node('me', 1, { protected: true }),
        node('old', 0.95, { tier: 'archived' }),
      ],
      new Map([['g', 0.85]]), // the cycle's new score
      new Map([['f', 'archived']]), // and new tier
    );
    expect(nodes.map((n) => n.id)).toEqual(['a', 'g', 'b', 'c', 'd', 'e']);
    const edges = [
      { sourceId: 'a', targetId: 'c' },
      { sourceId: 'b', targetId: 'a' },
      { sourceId: 'a', targetId: 'e' },
      { sourceId: 'g', targetId: 'd' },
      { sourceId: 'd', targetId: 'e' },
      { sourceId: 'a', targetId: 'p' },
      { sourceId: 'b', targetId: 'f' },
    ];
    expect(pickClusters({ nodes, edges })).toEqual([
      ['a', 'b', 'c', 'e'],
      ['d', 'g', 'e'],
    ]);
    const small = { clusters: 1, clusterSize: 3, minClusterSize: 3, changes: 5, megaEntities: 5, megaProcedures: 5 };
    expect(pickClusters({ nodes, edges, rules: small })).toEqual([['a', 'b', 'c']]);
  });
});

describe('insightRows', () => {
  it('maps evidence keys to entity ids, drops unknown keys, uncited and already stored insights', () => {
    let n = 0;
    const known = new Set(['tidepool keeps pivoting']);
    const rows = insightRows({
      answer: {
        insights: [
          { text: 'PIE grew out of Tidepool', evidence: ['E2', 'E1', 'E2', 'E9'], confidence: 0.666 },
          { text: 'Nothing cited', evidence: ['E7'], confidence: 0.5 },
          { text: '  Tidepool keeps   PIVOTING ', evidence: ['E1'], confidence: 0.5 },
        ],
      },
      keys: new Map([
        ['E1', 'id-tidepool'],
        ['E2', 'id-pie'],
      ]),
      kind: 'deep',
      runId: 'sleep-1',
      now: 1234,
      newId: () => `i${++n}`,
      known,
    });
    expect(rows).toEqual([
      {
        id: 'i1',
        kind: 'deep',
        text: 'PIE grew out of Tidepool',
        evidence: '["id-pie","id-tidepool"]',
        confidence: 0.67,
        status: 'new',
        run_id: 'sleep-1',
        created_at: 1234,
      },
    ]);
    expect(known.has('pie grew out of tidepool')).toBe(true);
  });
});
