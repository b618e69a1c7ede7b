import { describe, expect, it } from 'vitest';
import { computeImportance, PAPER_WEIGHTS, type ImportanceNode } from '../../src/metabolism/importance.js';

function node(id: string, extra: Partial<ImportanceNode> = {}): ImportanceNode {
  return { id, recencyDays: 0, transitions: 0, accessCount: 0, ...extra };
}

/** The right-hand side of the paper's formula at the computed scores: a fixed point must satisfy it. */
function residual(
  nodes: ImportanceNode[],
  edges: { sourceId: string; targetId: string }[],
  scores: Map<string, number>,
): number {
  const neighbours = new Map<string, Set<string>>(nodes.map((n) => [n.id, new Set()]));
  for (const e of edges) {
    if (e.sourceId === e.targetId) continue;
    neighbours.get(e.sourceId)?.add(e.targetId);
    neighbours.get(e.targetId)?.add(e.sourceId);
  }
  const dMax = Math.max(...[...neighbours.values()].map((s) => s.size));
  let worst = 0;
  for (const n of nodes) {
    const ns = [...(neighbours.get(n.id) ?? [])];
    const mean = ns.length === 0 ? 0 : ns.reduce((a, id) => a + (scores.get(id) ?? 0), 0) / ns.length;
    const expected =
      0.25 * (dMax === 0 ? 0 : ns.length / dMax) +
      0.2 * Math.min(n.transitions / 10, 1) +
      0.2 / (1 + n.recencyDays / 30) +
      0.2 * mean +
      0.15 * Math.min(n.accessCount / 5, 1);
    worst = Math.max(worst, Math.abs(expected - (scores.get(n.id) ?? 0)));
  }
  return worst;
}

describe('computeImportance (paper formula, iterated to a fixed point)', () => {
  it('an empty graph converges at once', () => {
    const r = computeImportance({ nodes: [], edges: [] });
    expect(r).toMatchObject({ iterations: 0, converged: true });
    expect(r.scores.size).toBe(0);
  });

  it.each([
    // [what, node, expected score] for an isolated node (no neighbours, d_max = 0)
    ['fresh, nothing else', node('a'), 0.2],
    ['30 days old', node('a', { recencyDays: 30 }), 0.1],
    ['10+ transitions', node('a', { transitions: 12 }), 0.4],
    ['5 transitions', node('a', { transitions: 5 }), 0.3],
    ['accessed 5+ times', node('a', { accessCount: 9 }), 0.35],
    ['everything maxed but degree', node('a', { transitions: 10, accessCount: 5 }), 0.55],
  ])('isolated node: %s', (_what, n, expected) => {
    const r = computeImportance({ nodes: [n], edges: [] });
    expect(r.scores.get('a')).toBeCloseTo(expected, 9);
    expect(r.converged).toBe(true);
  });

  it('two linked fresh nodes: I = 0.25 + 0.2 + 0.2·I, so I = 0.5625', () => {
    const r = computeImportance({ nodes: [node('a'), node('b')], edges: [{ sourceId: 'a', targetId: 'b' }] });
    expect(r.scores.get('a')).toBeCloseTo(0.5625, 5);
    expect(r.scores.get('b')).toBeCloseTo(0.5625, 5);
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeGreaterThan(1);
  });

  it('a star: the hub outranks the leaves, and leaves gain from the hub', () => {
    const nodes = [
      node('hub'),
      node('x', { recencyDays: 300 }),
      node('y', { recencyDays: 300 }),
      node('z', { recencyDays: 300 }),
      node('lone', { recencyDays: 300 }),
    ];
    const edges = ['x', 'y', 'z'].map((id) => ({ sourceId: 'hub', targetId: id }));
    const r = computeImportance({ nodes, edges });
    const s = (id: string): number => r.scores.get(id) ?? NaN;
    expect(s('hub')).toBeGreaterThan(s('x'));
    expect(s('x')).toBeCloseTo(s('y'), 12);
    expect(s('x')).toBeGreaterThan(s('lone'));
    expect(r.degrees.get('hub')).toBe(3);
    expect(residual(nodes, edges, r.scores)).toBeLessThan(1e-5);
  });

  it('repeated edges, reversed edges, self-loops and unknown ids do not count', () => {
    const nodes = [node('a'), node('b')];
    const plain = computeImportance({ nodes, edges: [{ sourceId: 'a', targetId: 'b' }] });
    const noisy = computeImportance({
      nodes,
      edges: [
        { sourceId: 'a', targetId: 'b' },
        { sourceId: 'b', targetId: 'a' },
        { sourceId: 'a', targetId: 'a' },
        { sourceId: 'a', targetId: 'ghost' },
      ],
    });
    expect(noisy.scores).toEqual(plain.scores);
    expect(noisy.degrees.get('a')).toBe(1);
  });

  it('converges on a random graph to a fixed point of the formula, whatever the order of the nodes', () => {
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const nodes = Array.from({ length: 200 }, (_, i) =>
      node(`n${i}`, {
        recencyDays: Math.floor(rand() * 400),
        transitions: Math.floor(rand() * 15),
        accessCount: Math.floor(rand() * 8),
      }),
    );
    const edges = Array.from({ length: 600 }, () => ({
      sourceId: `n${Math.floor(rand() * 200)}`,
      targetId: `n${Math.floor(rand() * 200)}`,
    }));
    const r = computeImportance({ nodes, edges });
    expect(r.converged).toBe(true);
    expect(r.delta).toBeLessThanOrEqual(1e-6);
    expect(residual(nodes, edges, r.scores)).toBeLessThan(1e-5);
    const reversed = computeImportance({ nodes: [...nodes].reverse(), edges: [...edges].reverse() });
    for (const [id, score] of r.scores) expect(reversed.scores.get(id)).toBeCloseTo(score, 6);
    for (const score of r.scores.values()) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
  });

  it('stops at maxIterations and says it did not converge', () => {
    const r = computeImportance({
      nodes: [node('a'), node('b')],
      edges: [{ sourceId: 'a', targetId: 'b' }],
      maxIterations: 2,
      tolerance: 0,
    });
    expect(r).toMatchObject({ iterations: 2, converged: false });
  });

  it('uses custom weights', () => {
    const r = computeImportance({
      nodes: [node('a', { recencyDays: 0 })],
      edges: [],
      weights: { ...PAPER_WEIGHTS, recency: 0.5 },
    });
    expect(r.scores.get('a')).toBeCloseTo(0.5, 9);
  });
});
