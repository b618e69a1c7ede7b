import { get, post, type GraphOut, type Period } from '../api.js';
import { clear, errorBox, field, h } from '../dom.js';
import { plural } from '../widgets.js';
import { drawCanvas, type Canvas } from './graph-canvas.js';
import { graphHref, timeSlider, type GraphParams } from './graph-time.js';
import { drawnGraph, findNode, graphData, listedEdges, mergeInto, typeCounts, type GraphData } from './graph-model.js';
import { edgePage, groupList, legend, selectedPanel } from './graph-panels.js';

/** Nodes fetched for the first drawing, for each expansion, and at most in all. */
const FIRST = 80;
const EXPAND = 30;
const MOST = 300;

let current: Canvas | null = null;

/**
 * The neighbourhood of one entity as a graph to think with: force layout, labels by zoom and importance, a legend
 * that hides types, hover and focus highlighting, expand in place, folded groups beyond 200 edges, a time slider
 * through the periods, and every edge listed as links, a page at a time.
 */
export async function graphView(main: HTMLElement, name: string, query: URLSearchParams): Promise<void> {
  current?.destroy();
  current = null;
  const p: GraphParams = {
    depth: query.get('depth') ?? '1',
    types: query.get('types') ?? '',
    at: query.get('at') ?? '',
    min: query.get('min') ?? '0',
    ended: query.get('ended') !== '0',
  };
  const inName = h('input', { type: 'text', value: name, required: true, placeholder: 'an entity name' });
  const inDepth = h('select', {}, ...['1', '2', '3'].map((d) => h('option', { value: d, selected: d === p.depth }, d)));
  const inTypes = h('input', { type: 'text', value: p.types, placeholder: 'person,project' });
  const inAt = h('input', { type: 'text', value: p.at, placeholder: 'now' });
  const inMin = h('input', { type: 'number', min: 0, max: 1, step: 0.05, value: p.min });
  const inEnded = h('input', { type: 'checkbox', checked: p.ended });
  const form = h(
    'form',
    {
      class: 'row',
      onsubmit: (e: Event) => {
        e.preventDefault();
        location.hash = graphHref(inName.value.trim(), {
          depth: inDepth.value,
          types: inTypes.value.trim(),
          at: inAt.value.trim(),
          min: inMin.value,
          ended: inEnded.checked,
        });
      },
    },
    field('Centre entity', inName),
    field('Hops', inDepth),
    h(
      'details',
      { class: 'filters' },
      h('summary', {}, 'Filters'),
      h(
        'div',
        { class: 'row' },
        field('Types (comma-separated)', inTypes),
        field('At (period or date)', inAt),
        field('Min. importance', inMin),
        field('Ended ones too (dashed)', inEnded),
      ),
    ),
    h('button', { type: 'submit' }, 'Draw'),
  );
  const canvas = h('div', { id: 'graph', class: 'graph', role: 'img', 'aria-label': 'Relationship graph' });
  const tools = h('div', { class: 'row graph-tools' });
  const legendBox = h('div');
  const status = h('p', { id: 'graph-status', class: 'muted', role: 'status' });
  const selected = h('section', { id: 'graph-selected', 'aria-label': 'Selected entity' });
  const groups = h('div');
  const list = h('section', { 'aria-labelledby': 'nodes-h' });
  clear(
    main,
    h('h1', {}, name ? `Around ${name}` : 'Graph'),
    form,
    tools,
    legendBox,
    canvas,
    status,
    selected,
    groups,
    list,
  );
  if (!name) {
    clear(
      canvas,
      h('p', { class: 'muted pad' }, 'Pick an entity (from search or its page) to draw its neighbourhood.'),
    );
    return;
  }
  // The drawing library loads while the neighbourhood is fetched (drawCanvas awaits the same module).
  void import('cytoscape');
  const fetchAround = (entity: string, at: string, limit: number, depth: string) =>
    get<GraphOut>('/api/graph', {
      entity,
      depth,
      types: p.types || undefined,
      at: at || undefined,
      min_importance: p.min === '0' ? undefined : p.min,
      ended: !at && p.ended ? true : undefined,
      limit,
    });
  const [first, periods] = await Promise.all([
    fetchAround(name, p.at, FIRST, p.depth),
    get<{ items: Period[] }>('/api/periods').then((r) => r.items),
  ]);
  let graph = first;
  let data: GraphData = graphData(graph);
  const expanded = new Set<string>();
  const hidden = new Set<string>();
  let page = 0;
  let selectedId: string | null = null;
  const endedShown = (): boolean => !p.at && p.ended;

  const renderPanels = (note?: string): void => {
    const drawn = drawnGraph(data, { expanded });
    clear(legendBox, legend({ counts: typeCounts(data), hidden, onToggle: toggleType }));
    clear(groups, groupList({ data, groups: drawn.groups, omitted: drawn.omitted, onOpen: openGroup }));
    const node = selectedId ? (data.nodes.get(selectedId) ?? null) : null;
    const degree = node
      ? [...data.edges.values()].filter((e) => e.source === node.id || e.target === node.id).length
      : 0;
    clear(selected, selectedPanel({ node, degree, onExpand: expand, recentreHref: (n) => graphHref(n, p), note }));
    const edges = listedEdges(data, hidden);
    const capped =
      graph.edgeTotal > graph.edges.length
        ? ` (the first ${graph.edges.length} of ${graph.edgeTotal} around ${name})`
        : '';
    clear(
      list,
      h(
        'h2',
        { id: 'nodes-h' },
        `${plural(data.nodes.size, 'entity', 'entities')}, ${plural(edges.length, 'relationship')}${graph.truncated ? ' (the most important; more exist)' : ''}${capped}`,
      ),
      ...edgePage({ data, edges, page, ended: endedShown(), onPage: (n) => ((page = n), renderPanels()) }),
    );
    canvas.setAttribute(
      'aria-label',
      `Relationship graph around ${name}${p.at ? ` as of ${p.at}` : ''}: ${plural(data.nodes.size, 'entity', 'entities')}, ${plural(data.edges.size, 'relationship')}`,
    );
  };
  const draw = async (): Promise<void> => {
    current?.destroy();
    current = await drawCanvas({
      container: canvas,
      drawn: drawnGraph(data, { expanded }),
      centre: data.centre,
      ended: endedShown(),
      onSelect: (id) => ((selectedId = id), renderPanels()),
      onGroup: openGroup,
    });
    current.hideTypes(hidden);
    renderPanels();
  };
  function toggleType(type: string): void {
    if (hidden.has(type)) hidden.delete(type);
    else hidden.add(type);
    current?.hideTypes(hidden);
    page = 0;
    renderPanels();
  }
  function openGroup(id: string): void {
    expanded.add(id);
    current?.sync(drawnGraph(data, { expanded }));
    current?.hideTypes(hidden);
    renderPanels();
  }
  async function expand(node: { id: string; name: string }): Promise<void> {
    if (data.nodes.size >= MOST) {
      renderPanels(`The graph holds ${MOST} entities at most: re-centre on ${node.name} to see more around it.`);
      return;
    }
    status.textContent = `Fetching the neighbours of ${node.name}…`;
    const more = await fetchAround(node.name, p.at, Math.min(EXPAND, MOST - data.nodes.size + 1), '1').catch(
      (error: unknown) => void clear(status, errorBox(error)),
    );
    if (!more) return;
    const added = mergeInto(data, more);
    // The neighbourhood holds only the expanded node's own relationships: those between its new neighbours, and
    // between them and what is already drawn, are asked for separately.
    const before = data.edges.size;
    let failed: unknown = null;
    if (added.length > 0) {
      const among = [...data.nodes.keys()].filter((id) => !added.includes(id));
      await post<{ edges: GraphOut['edges'] }>('/api/graph/links', {
        ids: added,
        among,
        at: p.at || undefined,
        ended: endedShown(),
      }).then(
        (links) => mergeInto(data, { nodes: [], edges: links.edges }),
        (error: unknown) => (failed = error),
      );
    }
    current?.sync(drawnGraph(data, { expanded }));
    current?.hideTypes(hidden);
    const linked = data.edges.size - before;
    status.textContent = `${node.name}: ${plural(added.length, 'new neighbour')} added${linked > 0 ? `, and ${plural(linked, 'relationship')} among the entities shown` : ''}.`;
    if (failed !== null) clear(status, errorBox(failed));
    renderPanels();
  }
  const focusName = (text: string): void => {
    const node = findNode(data, text);
    if (!node) {
      clear(
        status,
        `“${text}” is not in this graph. `,
        h('a', { href: graphHref(text, p) }, `Draw the graph around ${text}`),
      );
      return;
    }
    const drawn = drawnGraph(data, { expanded });
    const group = drawn.groups.find((g) => g.members.includes(node.id) && !drawn.nodes.some((n) => n.id === node.id));
    if (group) openGroup(group.id);
    if (hidden.has(node.type)) toggleType(node.type);
    current?.focus(node.id);
    selectedId = node.id;
    status.textContent = `Focused on ${node.name}.`;
    renderPanels();
  };
  const inFocus = h('input', { type: 'search', list: 'graph-names', placeholder: 'a name in the graph' });
  const names = h(
    'datalist',
    { id: 'graph-names' },
    ...[...data.nodes.values()].map((n) => h('option', { value: n.name })),
  );
  let slid = 0;
  const slider = timeSlider({
    periods,
    at: p.at,
    onChange: (at, label) => {
      p.at = at;
      inAt.value = at;
      history.replaceState(null, '', graphHref(name, p));
      main.dataset.route = location.hash;
      status.textContent = `Drawing the graph as of ${label}…`;
      // Arrow keys move the slider a stop at a time: only the latest stop's answer is drawn.
      const mine = ++slid;
      fetchAround(name, at, FIRST, p.depth)
        .then(async (g) => {
          if (mine !== slid) return;
          graph = g;
          data = graphData(g);
          expanded.clear();
          page = 0;
          await draw();
          status.textContent = `As of ${label}: ${plural(data.edges.size, 'relationship')}.`;
        })
        .catch((error: unknown) => {
          if (mine === slid) clear(status, errorBox(error));
        });
    },
  });
  clear(
    tools,
    h(
      'form',
      { class: 'row tight', role: 'search', onsubmit: (e: Event) => (e.preventDefault(), focusName(inFocus.value)) },
      field('Find in graph', inFocus),
      names,
      h('button', { type: 'submit' }, 'Focus'),
    ),
    h('button', { type: 'button', onclick: () => current?.fit() }, 'Fit'),
    slider,
  );
  await draw();
}
