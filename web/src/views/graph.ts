import type { Core, ElementDefinition } from 'cytoscape';
import { get, type GraphOut } from '../api.js';
import { clear, entityHref, field, h } from '../dom.js';

const COLORS: Record<string, string> = {
  person: '#1f6feb',
  project: '#8250df',
  tool: '#1a7f37',
  organization: '#9a6700',
  belief: '#cf222e',
  decision: '#bc4c00',
  period: '#57606a',
  concept: '#0969da',
  place: '#116329',
};

let current: Core | null = null;

/** A neighbourhood of one entity, drawn with cytoscape (bundled); the same nodes are listed as links for keyboards. */
export async function graphView(main: HTMLElement, name: string, query: URLSearchParams): Promise<void> {
  current?.destroy();
  current = null;
  const depth = query.get('depth') ?? '1';
  const types = query.get('types') ?? '';
  const at = query.get('at') ?? '';
  const minImportance = query.get('min') ?? '0';
  const inName = h('input', { type: 'text', value: name, required: true, placeholder: 'an entity name' });
  const inDepth = h('select', {}, ...['1', '2', '3'].map((d) => h('option', { value: d, selected: d === depth }, d)));
  const inTypes = h('input', { type: 'text', value: types, placeholder: 'person,project' });
  const inAt = h('input', { type: 'text', value: at, placeholder: 'now' });
  const inMin = h('input', { type: 'number', min: 0, max: 1, step: 0.05, value: minImportance });
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
        });
      },
    },
    field('Centre entity', inName),
    field('Hops', inDepth),
    field('Types (comma-separated)', inTypes),
    field('At (period or date)', inAt),
    field('Min. importance', inMin),
    h('button', { type: 'submit' }, 'Draw'),
  );
  const canvas = h('div', { id: 'graph', class: 'graph', role: 'img', 'aria-label': 'Relationship graph' });
  const list = h('section', { 'aria-labelledby': 'nodes-h' });
  clear(main, h('h1', {}, name ? `Around ${name}` : 'Graph'), form, canvas, list);
  if (!name) {
    clear(
      canvas,
      h('p', { class: 'muted pad' }, 'Pick an entity (from search or its page) to draw its neighbourhood.'),
    );
    return;
  }
  const graph = await get<GraphOut>('/api/graph', {
    entity: name,
    depth,
    types: types || undefined,
    at: at || undefined,
    min_importance: minImportance === '0' ? undefined : minImportance,
    limit: 80,
  });
  canvas.setAttribute(
    'aria-label',
    `Relationship graph around ${name}: ${graph.nodes.length} entities, ${graph.edges.length} relationships`,
  );
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  clear(
    list,
    h(
      'h2',
      { id: 'nodes-h' },
      `${graph.nodes.length} entities${graph.truncated ? ' (the most important; more exist)' : ''}`,
    ),
    h(
      'ul',
      { class: 'nodes', id: 'graph-nodes' },
      ...graph.edges.map((e) =>
        h(
          'li',
          {},
          h('a', { href: entityHref(names.get(e.source) ?? '') }, names.get(e.source) ?? ''),
          ` ${e.type} `,
          h('a', { href: entityHref(names.get(e.target) ?? '') }, names.get(e.target) ?? ''),
          e.until ? h('span', { class: 'muted' }, ' (ended)') : null,
        ),
      ),
    ),
  );
  const { default: cytoscape } = await import('cytoscape');
  const elements: ElementDefinition[] = [
    ...graph.nodes.map((n) => ({
      data: {
        id: n.id,
        label: n.name,
        color: COLORS[n.type] ?? '#6e7781',
        size: 18 + Math.round(n.importance * 30),
        centre: n.id === graph.centre ? 1 : 0,
      },
    })),
    ...graph.edges.map((e) => ({ data: { id: e.id, source: e.source, target: e.target, label: e.type } })),
  ];
  current = cytoscape({
    container: canvas,
    elements,
    // Concentric by importance, the centre in the middle: deterministic, so the same world draws the same picture.
    layout: {
      name: 'concentric',
      animate: false,
      concentric: (node) => (node.data('centre') === 1 ? 100 : Math.round(Number(node.data('size')))),
      levelWidth: () => 8,
      minNodeSpacing: 30,
    },
    style: [
      {
        selector: 'node',
        style: {
          label: 'data(label)',
          'background-color': 'data(color)',
          width: 'data(size)',
          height: 'data(size)',
          'font-size': 11,
          color: '#111',
          'text-valign': 'bottom',
          'text-margin-y': 4,
        },
      },
      { selector: 'node[centre = 1]', style: { 'border-width': 4, 'border-color': '#111' } },
      {
        selector: 'edge',
        style: {
          width: 1.5,
          'line-color': '#8c959f',
          'target-arrow-color': '#8c959f',
          'target-arrow-shape': 'triangle',
          'curve-style': 'bezier',
          label: 'data(label)',
          'font-size': 8,
          color: '#57606a',
        },
      },
    ],
  });
  current.on('tap', 'node', (event) => {
    const label = String(event.target.data('label'));
    location.hash = label === name ? entityHref(label) : graphHref(label, { depth, types, at, min: minImportance });
  });
}

function graphHref(name: string, o: { depth: string; types: string; at: string; min: string }): string {
  const q = new URLSearchParams();
  if (o.depth !== '1') q.set('depth', o.depth);
  if (o.types) q.set('types', o.types);
  if (o.at) q.set('at', o.at);
  if (o.min && o.min !== '0') q.set('min', o.min);
  const qs = q.toString();
  return `#/graph/${encodeURIComponent(name)}${qs ? `?${qs}` : ''}`;
}
