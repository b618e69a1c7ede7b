/**
 * The graph drawn with cytoscape (bundled, loaded only on this page): a force layout (cytoscape's CoSE) that keeps
 * nodes and their labels apart, labels sized by importance and hidden when zoomed out too far to read, the
 * neighbourhood of the node under the pointer highlighted, ended relationships dashed, folded groups drawn as one
 * edge to a group node.
 */
import type { Core, ElementDefinition, LayoutOptions, NodeSingular } from 'cytoscape';
import { typeHeading } from '../widgets.js';
import type { Drawn, GraphNode } from './graph-model.js';
import { colorOf, LAYOUT, STYLE } from './graph-style.js';

export interface Canvas {
  cy: Core;
  /** Makes the drawing match `drawn`: removed elements go, new ones are placed beside a neighbour, then laid out. */
  sync(drawn: Drawn): void;
  /** Centres on a node with its neighbours and highlights them; false when it is not drawn. */
  focus(id: string): boolean;
  fit(): void;
  hideTypes(types: ReadonlySet<string>): void;
  destroy(): void;
}

function elementsOf(drawn: Drawn, centre: string, ended: boolean): ElementDefinition[] {
  const nodeData = (n: GraphNode) => ({
    id: n.id,
    label: n.name,
    type: n.type,
    color: colorOf(n.type),
    size: 14 + Math.round(n.importance * 26),
    font: n.id === centre ? 18 : Math.round(9 + n.importance * 9),
    centre: n.id === centre,
  });
  return [
    ...drawn.nodes.map((n) => ({ group: 'nodes' as const, data: nodeData(n) })),
    ...drawn.groups.map((g) => ({
      group: 'nodes' as const,
      data: {
        id: g.id,
        label: `${g.members.length} ${typeHeading(g.otherType).toLowerCase()}`,
        type: g.otherType,
        color: colorOf(g.otherType),
        size: 26,
        font: 12,
        agg: true,
      },
    })),
    ...drawn.groups.map((g) => ({
      group: 'edges' as const,
      data: {
        id: `${g.id}:edge`,
        source: g.direction === 'out' ? g.anchor : g.id,
        target: g.direction === 'out' ? g.id : g.anchor,
        label: `${g.type} ×${g.edges.length}`,
        width: Math.min(8, 2 + g.edges.length / 8),
        agg: true,
      },
    })),
    ...drawn.edges.map((e) => ({
      group: 'edges' as const,
      data: { id: e.id, source: e.source, target: e.target, label: e.type, ended: ended && e.until !== null },
    })),
  ];
}

/** A spiral by importance around the centre: a deterministic start for the force layout. */
function spiral(ids: string[]): Map<string, { x: number; y: number }> {
  return new Map(
    ids.map((id, i) => [id, { x: 40 * Math.sqrt(i) * Math.cos(i * 2.4), y: 40 * Math.sqrt(i) * Math.sin(i * 2.4) }]),
  );
}

export async function drawCanvas(input: {
  container: HTMLElement;
  drawn: Drawn;
  centre: string;
  /** Whether an edge's `until` means it has ended (not when drawing the world as of a time). */
  ended: boolean;
  onSelect: (id: string | null) => void;
  onGroup: (groupId: string) => void;
}): Promise<Canvas> {
  const { default: cytoscape } = await import('cytoscape');
  const elements = elementsOf(input.drawn, input.centre, input.ended);
  const order = elements
    .filter((e) => e.group === 'nodes')
    .map((e) => String(e.data.id))
    .sort((a, b) => (a === input.centre ? -1 : b === input.centre ? 1 : 0));
  const start = spiral(order);
  for (const e of elements) if (e.group === 'nodes') e.position = start.get(String(e.data.id)) ?? { x: 0, y: 0 };
  // The layout fills the canvas's shape (wide on a desktop, tall on a phone) rather than a square.
  const layout = (): LayoutOptions =>
    ({
      ...LAYOUT,
      boundingBox: { x1: 0, y1: 0, w: input.container.clientWidth || 800, h: input.container.clientHeight || 500 },
    }) as LayoutOptions;
  const cy = cytoscape({ container: input.container, elements, style: STYLE, layout: layout(), wheelSensitivity: 0.3 });
  const clearHighlight = (): void => {
    cy.elements().removeClass('faded hl');
  };
  const highlight = (node: NodeSingular): void => {
    cy.batch(() => {
      clearHighlight();
      cy.elements().addClass('faded');
      node.closedNeighborhood().removeClass('faded').addClass('hl');
    });
  };
  // Cytoscape keeps the canvas's place on the page cached until a scroll or a resize of the canvas itself: what
  // moves it otherwise (Filters opened above it, a legend that wraps to another row) would leave the pointer that
  // far off the node under it. What moves the canvas changes the height of the page around it.
  const around = input.container.parentElement;
  const moved = around && typeof ResizeObserver === 'function' ? new ResizeObserver(() => cy.resize()) : null;
  if (around) moved?.observe(around);
  let pinned: NodeSingular | null = null;
  cy.on('mouseover', 'node', (e) => highlight(e.target as NodeSingular));
  cy.on('mouseout', 'node', () => (pinned ? highlight(pinned) : clearHighlight()));
  cy.on('tap', 'node', (e) => {
    const node = e.target as NodeSingular;
    if (node.data('agg')) {
      input.onGroup(node.id());
      return;
    }
    pinned = node;
    highlight(node);
    input.onSelect(node.id());
  });
  cy.on('tap', (e) => {
    if (e.target !== cy) return;
    pinned = null;
    clearHighlight();
    input.onSelect(null);
  });
  return {
    cy,
    sync: (drawn) => {
      const want = elementsOf(drawn, input.centre, input.ended);
      const ids = new Set(want.map((e) => String(e.data.id)));
      cy.batch(() => {
        cy.elements().forEach((el) => {
          if (!ids.has(el.id())) cy.remove(el);
        });
        const fresh = want.filter((e) => cy.getElementById(String(e.data.id)).empty());
        for (const e of fresh.filter((x) => x.group === 'nodes')) e.position = besideNeighbour(cy, want, e);
        cy.add(fresh);
      });
      cy.layout({ ...layout(), fit: false } as LayoutOptions).run();
    },
    focus: (id) => {
      const node = cy.getElementById(id);
      if (node.empty() || !node.isNode()) return false;
      pinned = node;
      cy.nodes().unselect();
      node.select();
      highlight(node);
      cy.fit(node.closedNeighborhood(), 60);
      return true;
    },
    fit: () => cy.fit(undefined, 24),
    hideTypes: (types) => {
      cy.batch(() => {
        cy.nodes().forEach((n) => {
          if (types.has(String(n.data('type')))) n.addClass('type-hidden');
          else n.removeClass('type-hidden');
        });
      });
    },
    destroy: () => {
      moved?.disconnect();
      cy.destroy();
    },
  };
}

/** A new node's first position: a small circle around a drawn node it is linked to, else the middle. */
function besideNeighbour(cy: Core, want: ElementDefinition[], node: ElementDefinition): { x: number; y: number } {
  const id = String(node.data.id);
  for (const e of want) {
    if (e.group !== 'edges' || (e.data.source !== id && e.data.target !== id)) continue;
    const other = cy.getElementById(String(e.data.source === id ? e.data.target : e.data.source));
    if (other.nonempty()) {
      const p = other.position();
      const angle = cy.nodes().length * 2.4;
      return { x: p.x + 60 * Math.cos(angle), y: p.y + 60 * Math.sin(angle) };
    }
  }
  return { x: 0, y: 0 };
}
