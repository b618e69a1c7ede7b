/** The graph page's panels around the canvas: the legend, the selected node, the folded groups, the edge list. */
import { date, entityHref, h } from '../dom.js';
import { plural, typeHeading } from '../widgets.js';
import { colorOf } from './graph-style.js';
import { AGGREGATE_ABOVE, type GraphData, type GraphEdge, type GraphNode, type Group } from './graph-model.js';

/** The edge list shows this many a page (the DOM never holds more). */
export const EDGES_PER_PAGE = 50;

/** One toggle button per entity type present (its colour, name and count); pressed = shown. */
export function legend(input: {
  counts: [string, number][];
  hidden: ReadonlySet<string>;
  onToggle: (type: string) => void;
}): HTMLElement {
  return h(
    'div',
    { class: 'legend', id: 'graph-legend', role: 'group', 'aria-label': 'Entity types shown (press to hide or show)' },
    ...input.counts.map(([type, count]) =>
      h(
        'button',
        {
          type: 'button',
          class: 'small legend-item',
          'data-type': type,
          'aria-pressed': input.hidden.has(type) ? 'false' : 'true',
          onclick: () => input.onToggle(type),
        },
        h('span', { class: 'swatch', style: `background:${colorOf(type)}`, 'aria-hidden': 'true' }),
        ` ${typeHeading(type)} (${count})`,
      ),
    ),
  );
}

/** The selected node: its page, how many edges it has here, and the two ways to grow the graph from it. */
export function selectedPanel(input: {
  node: GraphNode | null;
  degree: number;
  onExpand: (node: GraphNode) => void;
  recentreHref: (name: string) => string;
  note?: string;
}): HTMLElement[] {
  const { node } = input;
  if (!node) {
    return [h('p', { class: 'muted' }, input.note ?? 'Select a node (or focus one by name) to see it and expand it.')];
  }
  return [
    h(
      'p',
      {},
      h('a', { href: entityHref(node.name, node.id) }, node.name),
      ` · ${node.type} · importance ${node.importance.toFixed(2)} · ${plural(input.degree, 'relationship')} here`,
    ),
    h(
      'p',
      { class: 'row tight' },
      h(
        'button',
        { type: 'button', class: 'small', onclick: () => input.onExpand(node) },
        'Expand its neighbours here',
      ),
      h('a', { href: input.recentreHref(node.name) }, `Re-centre on ${node.name}`),
    ),
    ...(input.note ? [h('p', { class: 'muted' }, input.note)] : []),
  ];
}

/** The folded groups as buttons that unfold them (the canvas does the same on a tap of the group node). */
export function groupList(input: {
  data: GraphData;
  groups: Group[];
  omitted: number;
  onOpen: (id: string) => void;
}): HTMLElement {
  const name = (id: string): string => input.data.nodes.get(id)?.name ?? id;
  if (input.groups.length === 0 && input.omitted === 0) return h('div', { id: 'graph-groups' });
  const line = (g: Group): string => {
    const others = `${g.members.length} ${typeHeading(g.otherType).toLowerCase()}`;
    return g.direction === 'out'
      ? `${name(g.anchor)} —${g.type}→ ${others}`
      : `${others} —${g.type}→ ${name(g.anchor)}`;
  };
  return h(
    'details',
    { id: 'graph-groups', class: 'groups' },
    h(
      'summary',
      {},
      `More than ${AGGREGATE_ABOVE} relationships: ${plural(input.groups.length, 'set')} of one entity's same-kind relationships drawn as one`,
      input.omitted > 0 ? `, ${plural(input.omitted, 'weaker one')} not drawn (all are listed below)` : '',
    ),
    h(
      'ul',
      { class: 'plain' },
      ...input.groups.map((g) =>
        h(
          'li',
          {},
          line(g),
          ' ',
          h('button', { type: 'button', class: 'small', onclick: () => input.onOpen(g.id) }, 'Unfold'),
        ),
      ),
    ),
  );
}

/** One page of the edges as links, with its place in the whole list and buttons to the neighbouring pages. */
export function edgePage(input: {
  data: GraphData;
  edges: GraphEdge[];
  page: number;
  ended: boolean;
  onPage: (page: number) => void;
}): HTMLElement[] {
  const pages = Math.max(1, Math.ceil(input.edges.length / EDGES_PER_PAGE));
  const page = Math.min(Math.max(0, input.page), pages - 1);
  const from = page * EDGES_PER_PAGE;
  const shown = input.edges.slice(from, from + EDGES_PER_PAGE);
  const name = (id: string): string => input.data.nodes.get(id)?.name ?? '';
  const pager =
    pages > 1
      ? h(
          'p',
          { class: 'row tight pager', id: 'graph-pager' },
          h('span', {}, `${from + 1}–${from + shown.length} of ${input.edges.length.toLocaleString('en-US')}`),
          h(
            'button',
            { type: 'button', class: 'small', disabled: page === 0, onclick: () => input.onPage(page - 1) },
            'Previous',
          ),
          h(
            'button',
            { type: 'button', class: 'small', disabled: page >= pages - 1, onclick: () => input.onPage(page + 1) },
            'Next',
          ),
        )
      : null;
  const list = h(
    'ul',
    { class: 'nodes', id: 'graph-nodes' },
    ...shown.map((e) =>
      h(
        'li',
        {},
        h('a', { href: entityHref(name(e.source), e.source) }, name(e.source)),
        ` ${e.type} `,
        h('a', { href: entityHref(name(e.target), e.target) }, name(e.target)),
        input.ended && e.until ? h('span', { class: 'muted' }, ` (ended ${date(e.until)})`) : null,
      ),
    ),
  );
  return pager ? [pager, list] : [list];
}
