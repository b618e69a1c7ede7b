import { get, type EntityPeriodOut, type EntityView, type TransitionOut } from '../api.js';
import { clear, date, entityHref, episodeHref, h, stateText, valueText } from '../dom.js';
import { plural, propsText, validityText } from '../widgets.js';
import { attributeLanes, loadAttributes } from './attribute-lanes.js';

const PAGE = 100;

export async function entityView(main: HTMLElement, name: string, query: URLSearchParams): Promise<void> {
  // Newest page first: without an offset, ask for the last page once the total is known.
  // Read beside the entity; an unknown name fails below with the entity's own error, so this one is dropped.
  // A link with the id opens that entity, when others share its name; a typed URL opens the name's best match.
  const ref = query.get('id') || name;
  const attributes = loadAttributes(ref).catch(() => null);
  let offset = query.has('offset') ? Number(query.get('offset')) || 0 : 0;
  let view = await get<EntityView>(`/api/entities/${encodeURIComponent(ref)}`, { offset, limit: PAGE });
  if (!query.has('offset') && view.transitions.total > PAGE) {
    offset = view.transitions.total - PAGE;
    view = await get<EntityView>(`/api/entities/${encodeURIComponent(ref)}`, { offset, limit: PAGE });
  }
  const e = view.entity;
  const t = view.transitions;
  const contradictions = t.items.filter((x) => x.contradiction).length;
  // The id keeps the page on this entity when others share its name (the link already has its query).
  const pageLink = (o: number) => `${entityHref(e.name, e.id)}&offset=${o}`;
  const history = await attributes;
  const lanes = history ? attributeLanes(history, e.lastSeen) : null;
  clear(
    main,
    h('h1', {}, e.name, ' ', h('span', { class: 'badge' }, e.type)),
    e.aliases.length > 0 ? h('p', {}, 'Also called: ', e.aliases.join(', ')) : null,
    view.sameName.length > 0
      ? h(
          'p',
          { id: 'same-name' },
          `Others named ${e.name}: `,
          ...view.sameName.flatMap((o, i) => [
            i > 0 ? ', ' : '',
            h('a', { href: entityHref(o.name, o.id) }, `${o.name} (${o.type})`),
          ]),
        )
      : null,
    h(
      'p',
      { class: 'muted' },
      `First seen ${date(e.firstSeen)} · last seen ${date(e.lastSeen)} · importance ${e.importance.toFixed(2)} · tier ${e.tier} · `,
      h('a', { href: `#/graph/${encodeURIComponent(e.name)}` }, 'Show in graph'),
    ),
    h('h2', {}, 'Current state'),
    Object.keys(e.state).length === 0
      ? h('p', {}, '(none recorded)')
      : h(
          'dl',
          { class: 'state' },
          ...Object.entries(e.state).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, valueText(v))]),
        ),
    lanes,
    h('h2', { id: 'periods-h' }, 'Periods'),
    view.period
      ? h(
          'p',
          { id: 'period-span' },
          `This period runs from ${date(view.period.start)} to ${view.period.ongoing ? 'now (ongoing)' : date(view.period.end)}. `,
          h('a', { href: `#/snapshot?at=${encodeURIComponent(e.name)}` }, 'The world at its end'),
        )
      : null,
    view.periods.length === 0
      ? view.period
        ? null
        : h('p', {}, 'In no known period.')
      : h('ul', { class: 'periods', id: 'periods', 'aria-labelledby': 'periods-h' }, ...view.periods.map(periodItem)),
    h('h2', { id: 'timeline-h' }, 'Timeline'),
    h(
      'p',
      { class: 'muted' },
      `${plural(t.total, 'change')}${t.total > t.items.length ? `, ${t.offset + 1}–${t.offset + t.items.length} shown` : ''}${
        contradictions > 0 ? ` · ${contradictions} contradiction${contradictions > 1 ? 's' : ''} on this page` : ''
      }`,
    ),
    h('ol', { class: 'timeline', 'aria-labelledby': 'timeline-h', id: 'timeline' }, ...t.items.map(transitionItem)),
    h(
      'nav',
      { class: 'pager', 'aria-label': 'Timeline pages' },
      t.offset > 0 ? h('a', { href: pageLink(Math.max(0, t.offset - PAGE)) }, '← Older') : null,
      t.offset + PAGE < t.total ? h('a', { href: pageLink(t.offset + PAGE) }, 'Newer →') : null,
    ),
    h('h2', {}, 'Relationships'),
    view.relationshipsTotal > view.relationships.length
      ? h(
          'p',
          { class: 'muted' },
          `The latest ${view.relationships.length} of ${view.relationshipsTotal}; the graph shows the most important neighbours.`,
        )
      : null,
    view.relationships.length === 0
      ? h('p', {}, 'None recorded.')
      : h(
          'ul',
          { class: 'relationships' },
          ...view.relationships.map((r) => {
            const other = r.direction === 'out' ? r.target : r.source;
            return h(
              'li',
              { class: r.until ? 'ended' : '' },
              r.direction === 'out' ? `${e.name} ${r.type} ` : '',
              h('a', { href: entityHref(other.name, other.id) }, other.name),
              r.direction === 'in' ? ` ${r.type} ${e.name}` : '',
              propsText(r.properties),
              h('span', { class: 'muted' }, ` ${validityText(r.since, r.until)}`),
            );
          }),
        ),
    h(
      'details',
      {},
      h('summary', {}, 'Narrative (what an LLM is given)'),
      h('pre', { class: 'context' }, view.narrative),
    ),
  );
}

function periodItem(p: EntityPeriodOut): HTMLElement {
  const activity = [
    p.during ? 'first seen here' : null,
    p.mentions > 0 ? `${p.mentions} mention${p.mentions > 1 ? 's' : ''}` : null,
    p.changes > 0 ? `${p.changes} change${p.changes > 1 ? 's' : ''}` : null,
  ].filter(Boolean);
  return h(
    'li',
    { 'data-period': p.name },
    h('a', { href: entityHref(p.name, p.id) }, p.name),
    h(
      'span',
      { class: 'muted' },
      ` ${date(p.start)} – ${p.ongoing ? 'now' : date(p.end)}${activity.length > 0 ? ` · ${activity.join(', ')}` : ''}`,
    ),
  );
}

function transitionItem(t: TransitionOut): HTMLElement {
  const label = t.contradiction ? (t.unresolvedContradiction ? 'contradiction' : 'contradiction (resolved)') : t.kind;
  return h(
    'li',
    { class: t.contradiction ? 'transition contradiction' : 'transition', 'data-kind': t.kind },
    h('time', { datetime: t.time }, date(t.time)),
    ' ',
    h('span', { class: `badge kind-${t.kind}` }, t.contradiction ? '⚠ ' : '', label),
    ' ',
    h('span', { class: 'summary' }, t.summary),
    t.from && stateText(t.from) !== stateText(t.to)
      ? h('div', { class: 'change' }, h('del', {}, stateText(t.from)), ' → ', h('ins', {}, stateText(t.to)))
      : h('div', { class: 'change' }, stateText(t.to)),
    t.episodeId
      ? h(
          'div',
          { class: 'source' },
          'Source: ',
          h('a', { href: episodeHref(t.episodeId), class: 'source-link' }, t.episodeTitle ?? t.episodeId),
        )
      : null,
  );
}
