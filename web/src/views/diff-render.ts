/** The structured diff: New / Changed / Ended / Contradictions, every name a link, then the compiled text. */
import { date, h } from '../dom.js';
import {
  changeLine,
  countedSection,
  edgeLine,
  entityLink,
  jumpLink,
  modelText,
  plural,
  stateList,
  validityText,
} from '../widgets.js';
import type {
  ActivityChange,
  Bounded,
  ContradictionChange,
  DiffOut,
  EdgeChange,
  SpanOut,
  TieredRef,
} from '../world-shapes.js';

export function renderDiff(input: { diff: DiffOut; text: string; moreHref: string | null }): (HTMLElement | null)[] {
  const d = input.diff;
  const more = input.moreHref;
  const newTotal = d.created.total + d.relationshipsBegun.total + d.newlyActive.total;
  const changedTotal = d.attributesChanged.total + d.beliefsReversed.total;
  const endedTotal = d.relationshipsEnded.total + d.goneQuiet.total;
  const grown = d.entities.after - d.entities.before;
  return [
    h(
      'p',
      { class: 'summary', id: 'diff-summary' },
      `From ${spanPoint(d.a)} to ${spanPoint(d.b)}: `,
      h(
        'strong',
        {},
        `${d.entities.before.toLocaleString('en-US')} → ${plural(d.entities.after, 'entity', 'entities')}`,
      ),
      grown === 0 ? '' : ` (${grown > 0 ? '+' : ''}${grown})`,
      '.',
      d.swapped
        ? h('span', { class: 'muted' }, ' The later one was given first; they are compared in time order.')
        : null,
    ),
    h(
      'nav',
      { class: 'jump', 'aria-label': 'Sections of the diff' },
      jumpLink('diff-new', `${newTotal.toLocaleString('en-US')} new`),
      jumpLink('diff-changed', `${changedTotal.toLocaleString('en-US')} changed`),
      jumpLink('diff-ended', `${endedTotal.toLocaleString('en-US')} ended`),
      jumpLink('diff-contradictions', plural(d.contradictions.total, 'contradiction')),
    ),
    countedSection({
      id: 'diff-new',
      title: 'New',
      total: newTotal,
      empty: 'Nothing new.',
      body: () => [
        sub('diff-created', 'Entities', d.created, more, (e) => [
          entityLink(e, { tier: 'always' }),
          h('span', { class: 'muted' }, ` first seen ${date(e.firstSeen)}`),
          stateList(e.state, 6),
        ]),
        sub('diff-begun', 'Relationships begun', d.relationshipsBegun, more, edgeItem),
        sub(
          'diff-active',
          `Active again (mentioned ${shortName(d.b)}, not ${shortName(d.a)})`,
          d.newlyActive,
          more,
          (x) => activityItem(x, `${plural(x.mentionsB, 'mention')} ${shortName(d.b)}; first ${date(x.time)}`),
        ),
      ],
    }),
    countedSection({
      id: 'diff-changed',
      title: 'Changed',
      total: changedTotal,
      empty: 'No state changed.',
      body: () => [
        sub('diff-state', 'State (before → after)', byEntity(d.attributesChanged), more, (g) => [
          entityLink(g.entity, { tier: 'always' }),
          h(
            'ul',
            { class: 'plain changes' },
            ...g.changes.map((c) => h('li', {}, changeLine(c.attribute, c.from, c.to))),
          ),
        ]),
        sub('diff-beliefs', 'Beliefs reversed', d.beliefsReversed, more, (c) => [
          entityLink(c.entity, { tier: 'always' }),
          ' ',
          changeLine('stance', c.from?.stance, c.to.stance),
          h('span', { class: 'muted' }, ` ${date(c.time)} — ${c.summary}`),
        ]),
      ],
    }),
    countedSection({
      id: 'diff-ended',
      title: 'Ended',
      total: endedTotal,
      empty: 'Nothing ended.',
      body: () => [
        sub('diff-ended-edges', 'Relationships ended', d.relationshipsEnded, more, edgeItem),
        sub('diff-quiet', `Gone quiet (mentioned ${shortName(d.a)}, not ${shortName(d.b)})`, d.goneQuiet, more, (x) =>
          activityItem(x, `${plural(x.mentionsA, 'mention')} ${shortName(d.a)}; last ${date(x.time)}`),
        ),
      ],
    }),
    countedSection({
      id: 'diff-contradictions',
      title: 'Contradictions',
      total: d.contradictions.total,
      empty: 'No contradiction was raised between them.',
      body: () => [list(d.contradictions, more, contradictionItem, 'contradiction')],
    }),
    modelText(input.text),
  ];
}

type AttributeChange = DiffOut['attributesChanged']['items'][number];

/** A list cut to its first items; `rest` says how many were left out when that is not total − shown. */
type Listed<T> = Bounded<T> & { rest?: number };

/** Attribute changes grouped by entity (the list comes entity by entity); the total still counts changes. */
function byEntity(list: Bounded<AttributeChange>): Listed<{ entity: TieredRef; changes: AttributeChange[] }> {
  const groups: { entity: TieredRef; changes: AttributeChange[] }[] = [];
  for (const c of list.items) {
    const last = groups.at(-1);
    if (last && last.entity.id === c.entity.id) last.changes.push(c);
    else groups.push({ entity: c.entity, changes: [c] });
  }
  return { total: list.total, items: groups, rest: list.total - list.items.length };
}

function sub<T>(
  id: string,
  title: string,
  items: Listed<T>,
  more: string | null,
  item: (x: T) => (Node | string | null)[],
): HTMLElement | null {
  if (items.total === 0) return null;
  return countedSection({
    id,
    title,
    total: items.total,
    empty: '',
    level: 'h3',
    body: () => [list(items, more, item)],
  });
}

function list<T>(
  items: Listed<T>,
  more: string | null,
  item: (x: T) => (Node | string | null)[],
  className = '',
): HTMLElement {
  const rest = items.rest ?? items.total - items.items.length;
  return h(
    'ul',
    { class: 'items' },
    ...items.items.map((x) => h('li', { class: className }, ...item(x))),
    rest > 0
      ? h(
          'li',
          { class: 'more muted' },
          `… and ${rest.toLocaleString('en-US')} more. `,
          more ? h('a', { href: more }, 'Show up to 100') : null,
        )
      : null,
  );
}

function edgeItem(r: EdgeChange): (Node | string | null)[] {
  return [...edgeLine(r), h('span', { class: 'muted' }, ` — ${validityText(r.since, r.until)}`)];
}

function activityItem(x: ActivityChange, detail: string): (Node | string | null)[] {
  return [entityLink(x.entity, { tier: 'always' }), h('span', { class: 'muted' }, ` — ${detail}`)];
}

function contradictionItem(c: ContradictionChange): (Node | string | null)[] {
  const changes = Object.keys(c.to).map((k) => changeLine(k, c.from?.[k], c.to[k]));
  return [
    h('span', { class: 'badge warn' }, c.resolved ? '⚠ contradiction (since resolved)' : '⚠ contradiction'),
    ' ',
    entityLink(c.entity, { tier: 'always' }),
    h('span', { class: 'muted' }, ` ${date(c.time)}`),
    h('div', {}, c.summary),
    changes.length > 0
      ? h('div', { class: 'changes' }, ...changes.flatMap((x, i) => (i === 0 ? [x] : ['; ', x])))
      : null,
  ];
}

/** "the end of junior year at UMD (2025-05-08)", "2025-01-15", "now (2025-11-01)". */
function spanPoint(s: SpanOut): string {
  if (s.kind === 'date') return date(s.at);
  if (s.kind === 'now') return `now (${date(s.at)})`;
  return `${s.ongoing ? `${s.label} so far` : `the end of ${s.label}`} (${date(s.at)})`;
}

/** Where a span's activity was counted: "during junior year at UMD", "on 2025-01-15", "since then". */
function shortName(s: SpanOut): string {
  if (s.kind === 'now') return 'since then';
  if (s.kind === 'date') return `on ${date(s.at)}`;
  return `during ${s.label}`;
}
