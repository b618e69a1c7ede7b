/** The structured snapshot: what existed then, by type, each entity with its state and relationships then. */
import { date, entityHref, h } from '../dom.js';
import {
  countedSection,
  entityLink,
  modelText,
  plural,
  propsText,
  stateList,
  typeHeading,
  validityText,
} from '../widgets.js';
import type { SnapshotEdge, SnapshotEntity, SnapshotOut } from '../world-shapes.js';

/** Relationships listed under one entity (the entity page has them all). */
const EDGES_PER_ENTITY = 5;
/** "First seen during this period" edges: implied by the snapshot itself. */
const IMPLIED_EDGES = new Set(['DURING']);

export function renderSnapshot(input: {
  snapshot: SnapshotOut;
  text: string;
  typeHref: (type: string) => string;
  /** More entities than shown: where to see up to the API's most. */
  moreHref: string | null;
}): (HTMLElement | null)[] {
  const s = input.snapshot;
  const listed = s.entities.filter((e) => e.tier !== 'archived');
  const archived = s.entities.filter((e) => e.tier === 'archived');
  const groups = new Map<string, SnapshotEntity[]>();
  for (const e of listed) groups.set(e.type, [...(groups.get(e.type) ?? []), e]);
  const place = s.span ? activityPlace(s.span.kind) : null;
  return [
    h('p', { class: 'summary', id: 'snapshot-summary' }, ...summary(s)),
    s.total > 0 && s.type === null
      ? h(
          'p',
          { class: 'types' },
          'By type: ',
          ...Object.entries(s.byType)
            .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
            .flatMap(([type, n], i) => [i > 0 ? ' · ' : '', h('a', { href: input.typeHref(type) }, `${type} ${n}`)]),
        )
      : null,
    s.entities.length === 0
      ? h('p', {}, s.total === 0 ? 'Nothing was known yet at that time.' : 'No entities to show.')
      : h(
          'p',
          { class: 'muted' },
          s.entities.length < s.total
            ? `The ${s.entities.length} most important of ${plural(s.total, 'entity', 'entities')}, by type; most important first within each. `
            : 'Every entity, by type; most important first within each.',
          s.entities.length < s.total && input.moreHref
            ? h('a', { href: input.moreHref, id: 'snapshot-more' }, 'Show up to 200')
            : null,
        ),
    ...[...groups].map(([type, entities]) =>
      countedSection({
        id: `snapshot-${type.replace(/[^a-z0-9_-]/gi, '-')}`,
        title: typeHeading(type),
        total: entities.length,
        empty: '',
        body: () => [h('ul', { class: 'cards' }, ...entities.map((e) => entityCard(e, s.relationships, place)))],
      }),
    ),
    archived.length > 0
      ? h(
          'details',
          { class: 'archived', id: 'snapshot-archived' },
          h('summary', {}, `Archived (${s.byTier.archived}): they existed, but had left attention`),
          h('ul', { class: 'items' }, ...archived.map((e) => h('li', {}, entityLink(e, { tier: 'always' })))),
          s.byTier.archived > archived.length
            ? h('p', { class: 'muted' }, `… and ${s.byTier.archived - archived.length} more.`)
            : null,
        )
      : null,
    modelText(input.text),
  ];
}

function summary(s: SnapshotOut): (Node | string)[] {
  const when =
    s.span && (s.span.kind === 'period' || s.span.kind === 'range')
      ? `At ${s.span.ongoing ? `${s.span.label} so far` : `the end of ${s.span.label}`} (${date(s.span.start)} – ${s.span.ongoing ? 'now' : date(s.at)})`
      : `As of ${date(s.at)}`;
  const resting = [
    s.byTier.summarized > 0 ? `${s.byTier.summarized.toLocaleString('en-US')} summarized` : '',
    s.byTier.archived > 0 ? `${s.byTier.archived.toLocaleString('en-US')} archived` : '',
  ].filter(Boolean);
  const what =
    s.type === null
      ? plural(s.total, 'entity', 'entities')
      : `${plural(s.total, 'entity', 'entities')} of type ${s.type}`;
  return [
    `${when}: `,
    h('strong', {}, what),
    `, ${plural(s.transitions, 'transition')} so far`,
    resting.length > 0 ? ` (of these, ${resting.join(' and ')})` : '',
    s.active !== null && s.span && (s.active > 0 || s.span.kind !== 'date')
      ? `; ${plural(s.active, 'entity', 'entities')} active ${activityPlace(s.span.kind)}`
      : '',
    '.',
  ];
}

function entityCard(e: SnapshotEntity, edges: readonly SnapshotEdge[], place: string | null): HTMLElement {
  const mine = edges.filter((r) => !IMPLIED_EDGES.has(r.type) && (r.source.id === e.id || r.target.id === e.id));
  const details = [e.changes > 0 ? `${plural(e.changes, 'change')} so far` : 'no change yet'];
  if (e.activity && place) {
    const { mentions, changes } = e.activity;
    const parts = [mentions > 0 ? plural(mentions, 'mention') : '', changes > 0 ? plural(changes, 'change') : ''];
    const active = parts.filter(Boolean).join(', ');
    // "Quiet that day" would be said of nearly everything; a period's quiet ones are worth saying.
    if (active) details.push(`${place}: ${active}`);
    else if (place !== 'that day') details.push(`quiet ${place}`);
  }
  return h(
    'li',
    { class: 'card entity-card', 'data-entity': e.name },
    h('div', { class: 'card-head' }, entityLink(e, { tier: 'always' })),
    stateList(e.state) ?? h('p', { class: 'muted' }, 'No state recorded then.'),
    h('p', { class: 'muted' }, `First seen ${date(e.firstSeen)} · ${details.join(' · ')}`),
    mine.length > 0
      ? h(
          'ul',
          { class: 'edges', 'aria-label': `Relationships of ${e.name} then` },
          ...mine.slice(0, EDGES_PER_ENTITY).map((r) => edgeItem(e, r)),
          mine.length > EDGES_PER_ENTITY
            ? h(
                'li',
                { class: 'more' },
                h(
                  'a',
                  { href: entityHref(e.name, e.id) },
                  `… and ${plural(mine.length - EDGES_PER_ENTITY, 'more relationship')}`,
                ),
              )
            : null,
        )
      : null,
  );
}

/**
 * A relationship seen from one of its ends: "→ USES React (for: frontend)" when it goes out, "← Maya Chen WORKS_ON
 * (role: co-founder)" when it comes in; then since when (and until when, if it ended later).
 */
function edgeItem(e: SnapshotEntity, r: SnapshotEdge): HTMLElement {
  const type = h('span', { class: 'edge-type' }, r.type);
  const words =
    r.source.id === e.id ? ['→ ', type, ' ', entityLink(r.target)] : ['← ', entityLink(r.source), ' ', type];
  return h(
    'li',
    { class: 'edge' },
    ...words,
    propsText(r.properties),
    h('span', { class: 'muted' }, ` — ${validityText(r.since, r.until)}`),
  );
}

function activityPlace(kind: string): string {
  if (kind === 'period') return 'in this period';
  if (kind === 'date') return 'that day';
  if (kind === 'now') return 'now';
  return 'in this span';
}
