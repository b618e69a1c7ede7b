/**
 * The graph view's data, free of the DOM and of cytoscape (so it is tested in Node): the nodes and edges fetched so
 * far (a neighbourhood, plus every neighbourhood expanded in place), which of them to draw, and how many same-kind
 * edges of one node fold into a single aggregated edge ("Tidepool —USES→ 7 tools") when there are too many to read.
 */
export interface GraphNode {
  id: string;
  name: string;
  type: string;
  importance: number;
}
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  type: string;
  since: string | null;
  until: string | null;
}
export interface GraphData {
  centre: string;
  nodes: Map<string, GraphNode>;
  edges: Map<string, GraphEdge>;
}

/** Above this many edges, a node's same-kind edges are folded into one (the edge list below keeps every one). */
export const AGGREGATE_ABOVE = 200;
/** A group folds only when it has at least this many edges, and at most this many groups fold. */
export const MIN_GROUP = 4;
export const MAX_GROUPS = 24;

/** One node's edges of one type, one direction, to one type of entity, drawn as one edge to a group node. */
export interface Group {
  id: string;
  anchor: string;
  type: string;
  direction: 'out' | 'in';
  otherType: string;
  members: string[];
  edges: string[];
}

export interface Drawn {
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: Group[];
  /** Edges neither drawn nor folded (the weakest, when folding was not enough); the edge list still has them. */
  omitted: number;
}

export function graphData(input: { centre: string; nodes: GraphNode[]; edges: GraphEdge[] }): GraphData {
  return {
    centre: input.centre,
    nodes: new Map(input.nodes.map((n) => [n.id, n])),
    edges: new Map(input.edges.map((e) => [e.id, e])),
  };
}

/** Adds a neighbourhood fetched for one node; answers the ids of the nodes that were new. */
export function mergeInto(data: GraphData, more: { nodes: GraphNode[]; edges: GraphEdge[] }): string[] {
  const added: string[] = [];
  for (const n of more.nodes) {
    if (data.nodes.has(n.id)) continue;
    data.nodes.set(n.id, n);
    added.push(n.id);
  }
  for (const e of more.edges) if (data.nodes.has(e.source) && data.nodes.has(e.target)) data.edges.set(e.id, e);
  return added;
}

/**
 * What to draw: every edge when there are at most `budget`; otherwise the biggest groups (an edge belongs to its
 * centre end, else its more important end) are folded one by one until the count fits (at most MAX_GROUPS of them,
 * never those in `expanded`), and when that is not enough only the `budget` strongest of the rest are drawn (in the
 * edge list's order; each node's strongest edge and the edges of a group unfolded on request always are). A node whose edges are all folded is inside its group and not drawn (the centre always is).
 */
export function drawnGraph(data: GraphData, options: { budget?: number; expanded?: ReadonlySet<string> } = {}): Drawn {
  const budget = options.budget ?? AGGREGATE_ABOVE;
  const all = [...data.edges.values()];
  if (all.length <= budget) return { nodes: [...data.nodes.values()], edges: all, groups: [], omitted: 0 };
  const groups = new Map<string, Group>();
  for (const e of all) {
    const anchor = anchorOf(data, e);
    const other = anchor === e.source ? e.target : e.source;
    const direction = anchor === e.source ? 'out' : 'in';
    const otherType = data.nodes.get(other)?.type ?? 'entity';
    const id = `group:${anchor}:${e.type}:${direction}:${otherType}`;
    const g = groups.get(id) ?? { id, anchor, type: e.type, direction, otherType, members: [], edges: [] };
    g.members.push(other);
    g.edges.push(e.id);
    groups.set(id, g);
  }
  const candidates = [...groups.values()]
    .filter((g) => g.edges.length >= MIN_GROUP && !options.expanded?.has(g.id))
    .sort((a, b) => b.edges.length - a.edges.length || a.id.localeCompare(b.id));
  let count = all.length;
  const folded: Group[] = [];
  for (const g of candidates.slice(0, MAX_GROUPS)) {
    if (count <= budget) break;
    folded.push(g);
    count -= g.edges.length - 1;
  }
  const foldedEdges = new Set(folded.flatMap((g) => g.edges));
  const unfolded = new Set([...groups.values()].filter((g) => options.expanded?.has(g.id)).flatMap((g) => g.edges));
  const rest = listedEdges(data).filter((e) => !foldedEdges.has(e.id));
  // Each node keeps its strongest edge (so none floats alone), then the strongest others fill the budget.
  const best = new Map<string, string>();
  for (const e of rest) for (const id of [e.source, e.target]) if (!best.has(id)) best.set(id, e.id);
  for (const id of best.values()) unfolded.add(id);
  const asked = rest.filter((e) => unfolded.has(e.id));
  const room = Math.max(0, budget - folded.length - asked.length);
  const edges = [...asked, ...rest.filter((e) => !unfolded.has(e.id)).slice(0, room)];
  const linked = new Set([data.centre, ...rest.flatMap((e) => [e.source, e.target]), ...folded.map((g) => g.anchor)]);
  const hadEdges = new Set(all.flatMap((e) => [e.source, e.target]));
  const nodes = [...data.nodes.values()].filter((n) => linked.has(n.id) || !hadEdges.has(n.id));
  return { nodes, edges, groups: folded, omitted: rest.length - edges.length };
}

function anchorOf(data: GraphData, e: GraphEdge): string {
  if (e.source === data.centre || e.target === data.centre) return data.centre;
  const s = data.nodes.get(e.source)?.importance ?? 0;
  const t = data.nodes.get(e.target)?.importance ?? 0;
  return s > t || (s === t && e.source < e.target) ? e.source : e.target;
}

/** The edge list's order: edges of the centre first, then between more important entities; current before ended. */
export function listedEdges(data: GraphData, hiddenTypes: ReadonlySet<string> = new Set()): GraphEdge[] {
  const importance = (id: string): number => data.nodes.get(id)?.importance ?? 0;
  const visible = (id: string): boolean => !hiddenTypes.has(data.nodes.get(id)?.type ?? '');
  const weight = (e: GraphEdge): number =>
    (e.source === data.centre || e.target === data.centre ? 2 : 0) +
    Math.min(importance(e.source), importance(e.target)) -
    (e.until === null ? 0 : 0.5);
  return [...data.edges.values()]
    .filter((e) => visible(e.source) && visible(e.target))
    .map((e) => ({ e, w: weight(e) }))
    .sort((a, b) => b.w - a.w || a.e.id.localeCompare(b.e.id))
    .map((x) => x.e);
}

/** The entity types present, most frequent first, with their counts (the legend). */
export function typeCounts(data: GraphData): [type: string, count: number][] {
  const counts = new Map<string, number>();
  for (const n of data.nodes.values()) counts.set(n.type, (counts.get(n.type) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** The node a search box means: an exact name (any case) first, then the most important whose name contains it. */
export function findNode(data: GraphData, text: string): GraphNode | null {
  const q = text.trim().toLowerCase();
  if (!q) return null;
  const nodes = [...data.nodes.values()];
  return (
    nodes.find((n) => n.name.toLowerCase() === q) ??
    nodes.filter((n) => n.name.toLowerCase().includes(q)).sort((a, b) => b.importance - a.importance)[0] ??
    null
  );
}
