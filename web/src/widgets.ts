/** Pieces the Diff, Snapshot and Search views share: words, badges, entity links, relationships, progress. */
import './views.css';
import { clear, date, entityHref, h, valueText } from './dom.js';
import type { State, StateValue, Tier } from './world-shapes.js';

/** "1 change", "3 changes"; `many` for irregular plurals. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

const TYPE_PLURALS: Record<string, string> = { person: 'people', belief: 'beliefs', preference: 'preferences' };

/** A type's name for a heading: "person" → "People", "tool" → "Tools", "category" → "Categories". */
export function typeHeading(type: string): string {
  const many =
    TYPE_PLURALS[type] ??
    (/[^aeiou]y$/.test(type) ? `${type.slice(0, -1)}ies` : /s$/.test(type) ? `${type}es` : `${type}s`);
  return many.charAt(0).toUpperCase() + many.slice(1);
}

export function typeBadge(type: string): HTMLElement {
  return h('span', { class: 'badge' }, type);
}

/** The tier as a labelled badge (the word is the signal, not only its colour). */
export function tierBadge(tier: Tier | string): HTMLElement {
  return h('span', { class: `badge tier tier-${tier}`, title: 'tier of attention' }, tier);
}

/** An entity's name as a link to its page, with its type and (when given) its tier. */
export function entityLink(
  e: { name: string; type: string; id?: string; tier?: Tier | string },
  options: { tier?: 'always' | 'resting' } = {},
): HTMLElement {
  const showTier = e.tier !== undefined && (options.tier === 'always' || e.tier !== 'active');
  return h(
    'span',
    { class: 'entity' },
    h('a', { href: entityHref(e.name, e.id), class: 'entity-link' }, e.type === 'belief' ? `“${e.name}”` : e.name),
    ' ',
    typeBadge(e.type),
    showTier && e.tier !== undefined ? [' ', tierBadge(e.tier)] : null,
  );
}

/** A state as a definition list; values ∅ when empty. */
export function stateList(state: Record<string, unknown>, max = Infinity): HTMLElement | null {
  const entries = Object.entries(state);
  if (entries.length === 0) return null;
  const shown = entries.slice(0, max);
  return h(
    'dl',
    { class: 'state compact' },
    ...shown.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, valueText(v))]),
    entries.length > shown.length
      ? [h('dt', {}, '…'), h('dd', {}, `and ${plural(entries.length - shown.length, 'more attribute')}`)]
      : null,
  );
}

/** Longer values are bookkeeping (a dream's list of evidence conversations), not something a person reads. */
const MAX_PROPERTY_CHARS = 60;

/** "(role: CEO)" for a relationship's properties; empty when it has none worth reading. */
export function propsText(props: State): string {
  const parts = Object.entries(props)
    .filter(([, v]) => valueText(v).length <= MAX_PROPERTY_CHARS)
    .map(([k, v]) => `${k}: ${valueText(v)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** "since 2025-06-20", "since 2024-09-10, until 2025-06-20". */
export function validityText(since: string, until: string | null): string {
  return `since ${date(since)}${until ? `, until ${date(until)}` : ''}`;
}

/** Source —TYPE→ Target (properties), both names linked; the tiers of resting ends shown. */
export function edgeLine(r: { source: EdgeEnd; target: EdgeEnd; type: string; properties: State }): (Node | string)[] {
  return [
    entityLink(r.source),
    ' ',
    h('span', { class: 'edge-type' }, r.type),
    ' ',
    entityLink(r.target),
    propsText(r.properties),
  ];
}
type EdgeEnd = { name: string; type: string; tier?: Tier | string };

/** The state change "focus: ∅ → research labs" with the old value struck and the new one marked. */
export function changeLine(attribute: string, from: StateValue | undefined, to: StateValue | undefined): HTMLElement {
  return h(
    'span',
    { class: 'change' },
    `${attribute}: `,
    h('del', {}, valueText(from)),
    ' → ',
    h('ins', {}, valueText(to)),
  );
}

/** The compiled text under a disclosure: what a model is given for the same question. */
export function modelText(text: string): HTMLElement {
  return h(
    'details',
    { class: 'model-text' },
    h('summary', {}, 'What the model sees'),
    h('pre', { class: 'context' }, text),
  );
}

/**
 * A link to a section of this page. Routes are hash routes, so a plain "#id" link would be read as a route (and open
 * Search): it moves focus to the section instead, and the address stays.
 */
export function jumpLink(id: string, text: string): HTMLElement {
  return h(
    'a',
    {
      href: `#${id}`,
      onclick: (e: Event) => {
        e.preventDefault();
        const target = document.getElementById(id);
        if (!target) return;
        target.setAttribute('tabindex', '-1');
        target.focus({ preventScroll: true });
        target.scrollIntoView({ block: 'start' });
      },
    },
    text,
  );
}

/** A search snippet with the matched words (between « and ») marked. */
export function markedSnippet(snippet: string): (Node | string)[] {
  return snippet
    .split(/(«[^»]*»)/)
    .map((part) => (part.startsWith('«') && part.endsWith('»') ? h('mark', {}, part.slice(1, -1)) : part));
}

/** How long work may take before it shows progress. */
export const PROGRESS_AFTER_MS = 300;

/**
 * Awaits `work`; when it takes longer than 300 ms, `out` shows an indeterminate progress bar with `label` until it
 * ends (the caller then fills `out` with the result or the error).
 */
export async function withProgress<T>(out: HTMLElement, label: string, work: Promise<T>): Promise<T> {
  const timer = setTimeout(() => {
    clear(out, h('p', { class: 'progress', role: 'status' }, h('progress', { 'aria-label': label }), ' ', label));
  }, PROGRESS_AFTER_MS);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
  }
}

/** A section with a heading and its count, or a sentence saying there is none. */
export function countedSection(input: {
  id: string;
  title: string;
  total: number;
  empty: string;
  level?: 'h2' | 'h3';
  body: () => (Node | null)[];
}): HTMLElement {
  const heading = `${input.id}-h`;
  return h(
    'section',
    { id: input.id, 'aria-labelledby': heading, class: `counted ${input.level === 'h3' ? 'sub' : ''}` },
    h(input.level ?? 'h2', { id: heading }, input.title, ' ', h('span', { class: 'count' }, `(${input.total})`)),
    input.total === 0 ? h('p', { class: 'muted' }, input.empty) : input.body(),
  );
}
