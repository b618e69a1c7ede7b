/** How the graph looks: a colour per entity type, cytoscape's style sheet, and the force layout's settings. */
import type { LayoutOptions, StylesheetJson } from 'cytoscape';

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

export function colorOf(type: string): string {
  return COLORS[type] ?? '#6e7781';
}

export const STYLE: StylesheetJson = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'background-color': 'data(color)',
      width: 'data(size)',
      height: 'data(size)',
      // Labels by importance: bigger for important entities, and hidden once zoomed out below 8 px on screen.
      'font-size': 'data(font)',
      'min-zoomed-font-size': 7,
      color: '#1f2328',
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'text-outline-color': '#fff',
      'text-outline-width': 2,
      'text-max-width': '140px',
      'text-wrap': 'ellipsis',
    },
  },
  { selector: 'node[?centre]', style: { 'border-width': 4, 'border-color': '#111', 'min-zoomed-font-size': 0 } },
  {
    selector: 'node[?agg]',
    style: { shape: 'round-rectangle', 'border-width': 2, 'border-style': 'double', 'border-color': '#1f2328' },
  },
  {
    selector: 'edge',
    style: {
      width: 1.2,
      'line-color': '#afb8c1',
      'target-arrow-color': '#afb8c1',
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.8,
      'curve-style': 'bezier',
      'font-size': 9,
      color: '#57606a',
      'text-rotation': 'autorotate',
      'text-background-color': '#fff',
      'text-background-opacity': 0.85,
    },
  },
  { selector: 'edge[?ended]', style: { 'line-style': 'dashed', 'line-dash-pattern': [6, 4] } },
  { selector: 'edge[?agg]', style: { label: 'data(label)', width: 'data(width)', 'font-size': 10 } },
  { selector: '.faded', style: { opacity: 0.15 } },
  { selector: 'node.hl', style: { 'min-zoomed-font-size': 0, 'z-index': 10 } },
  {
    selector: 'edge.hl',
    style: { label: 'data(label)', 'line-color': '#57606a', 'target-arrow-color': '#57606a', width: 2, 'z-index': 10 },
  },
  { selector: 'node:selected', style: { 'overlay-color': '#bf3989', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
  { selector: '.type-hidden', style: { display: 'none' } },
];

/** Nodes and labels kept apart; deterministic, since it starts from the positions given (no randomizing). */
export const LAYOUT = {
  name: 'cose',
  animate: false,
  randomize: false,
  nodeDimensionsIncludeLabels: true,
  nodeOverlap: 12,
  nodeRepulsion: () => 3000,
  idealEdgeLength: () => 40,
  edgeElasticity: () => 80,
  gravity: 1.2,
  numIter: 500,
  padding: 24,
  componentSpacing: 60,
} as LayoutOptions;
