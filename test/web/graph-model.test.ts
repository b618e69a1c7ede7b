import { describe, expect, it } from 'vitest';
import {
  drawnGraph,
  findNode,
  graphData,
  listedEdges,
  mergeInto,
  typeCounts,
  type GraphEdge,
  type GraphNode,
} from '../../web/src/views/graph-model.js';

const node = (id: string, type: string, importance: number): GraphNode => ({ id, name: id, type, importance });
const edge = (source: string, type: string, target: string, until: string | null = null): GraphEdge => ({
  id: `${source}-${type}-${target}`,
  source,
  target,
  type,
  since: '2024-01-01',
  until,
});

/** Tidepool uses seven tools; Maya works on Tidepool and uses two of the tools; PIE is related to Tidepool. */
function world() {
  const tools = Array.from({ length: 7 }, (_, i) => node(`tool${i}`, 'tool', 0.1 + i / 100));
  return graphData({
    centre: 'Tidepool',
    nodes: [node('Tidepool', 'project', 0.9), node('Maya', 'person', 0.8), node('PIE', 'project', 0.5), ...tools],
    edges: [
      ...tools.map((t) => edge('Tidepool', 'USES', t.id)),
      edge('Maya', 'WORKS_ON', 'Tidepool'),
      edge('Maya', 'USES', 'tool0'),
      edge('Maya', 'USES', 'tool1', '2024-06-01'),
      edge('PIE', 'RELATED_TO', 'Tidepool', '2025-01-01'),
    ],
  });
}

describe('the graph view model', () => {
  it('draws every edge while they fit the budget', () => {
    const drawn = drawnGraph(world(), { budget: 20 });
    expect(drawn.edges).toHaveLength(11);
    expect(drawn.nodes).toHaveLength(10);
    expect(drawn.groups).toEqual([]);
    expect(drawn.omitted).toBe(0);
  });

  it('folds a node’s same-kind edges into one group beyond the budget, keeping nodes with other edges', () => {
    const drawn = drawnGraph(world(), { budget: 6 });
    expect(drawn.groups).toHaveLength(1);
    const [g] = drawn.groups;
    expect(g).toMatchObject({ anchor: 'Tidepool', type: 'USES', direction: 'out', otherType: 'tool' });
    expect(g?.members).toHaveLength(7);
    // 11 edges less the 7 folded: Maya's three and PIE's one stay, and the group is drawn as one more.
    expect(drawn.edges.map((e) => e.id).sort()).toEqual(
      ['Maya-USES-tool0', 'Maya-USES-tool1', 'Maya-WORKS_ON-Tidepool', 'PIE-RELATED_TO-Tidepool'].sort(),
    );
    // tool0 and tool1 still have Maya's edges; the other five tools are inside the group.
    expect(drawn.nodes.map((n) => n.id).sort()).toEqual(['Maya', 'PIE', 'Tidepool', 'tool0', 'tool1'].sort());
    expect(drawn.omitted).toBe(0);
  });

  it('draws each node’s strongest edge, then only the strongest others when folding is not enough', () => {
    const data = world();
    mergeInto(data, { nodes: [], edges: [edge('Maya', 'KNOWS', 'PIE')] });
    const drawn = drawnGraph(data, { budget: 3 });
    expect(drawn.groups).toHaveLength(1);
    // Every node keeps one edge, so none floats alone (tool0 and tool1 keep Maya's, outside the group)…
    expect(drawn.edges.map((e) => e.id).sort()).toEqual(
      ['Maya-WORKS_ON-Tidepool', 'PIE-RELATED_TO-Tidepool', 'Maya-USES-tool0', 'Maya-USES-tool1'].sort(),
    );
    // …and the weakest one is left out, and counted.
    expect(drawn.omitted).toBe(1);
  });

  it('does not fold an expanded group again', () => {
    const first = drawnGraph(world(), { budget: 6 });
    const again = drawnGraph(world(), { budget: 6, expanded: new Set(first.groups.map((g) => g.id)) });
    expect(again.groups).toEqual([]);
    // The seven unfolded edges are drawn whatever the budget, and Maya's and PIE's strongest; Maya's tools are not.
    expect(again.edges.filter((e) => e.source === 'Tidepool')).toHaveLength(7);
    expect(again.omitted).toBe(2);
  });

  it('lists edges of the centre first, current before ended, and leaves out hidden types', () => {
    const listed = listedEdges(world()).map((e) => e.id);
    expect(listed[0]).toBe('Maya-WORKS_ON-Tidepool');
    expect(listed.indexOf('PIE-RELATED_TO-Tidepool')).toBeGreaterThan(listed.indexOf('Tidepool-USES-tool0'));
    expect(listed.slice(-2)).toEqual(['Maya-USES-tool0', 'Maya-USES-tool1']);
    expect(listedEdges(world(), new Set(['tool'])).map((e) => e.id)).toEqual([
      'Maya-WORKS_ON-Tidepool',
      'PIE-RELATED_TO-Tidepool',
    ]);
  });

  it('merges a neighbourhood expanded in place, answering the new nodes', () => {
    const data = world();
    const added = mergeInto(data, {
      nodes: [node('Maya', 'person', 0.8), node('Sam', 'person', 0.3)],
      edges: [edge('Maya', 'KNOWS', 'Sam'), edge('Maya', 'KNOWS', 'Nobody')],
    });
    expect(added).toEqual(['Sam']);
    expect(data.edges.has('Maya-KNOWS-Sam')).toBe(true);
    expect(data.edges.has('Maya-KNOWS-Nobody')).toBe(false);
    expect(typeCounts(data)[0]).toEqual(['tool', 7]);
  });

  it('finds a node by exact name first, then the most important containing the text', () => {
    const data = world();
    expect(findNode(data, 'pie')?.id).toBe('PIE');
    expect(findNode(data, 'tool')?.id).toBe('tool6');
    expect(findNode(data, 'nothing')).toBeNull();
    expect(findNode(data, '  ')).toBeNull();
  });
});
