/** The entity page's swimlanes: how each attribute of its state changed, a bar over its life and a list of values. */
import { get } from '../api.js';
import { clear, date, episodeHref, h, valueText } from '../dom.js';
import { serverStatus } from '../state.js';
import { plural } from '../widgets.js';
import { swimSpan } from './swim-span.js';
import './timeline.css';

/** Attributes shown before "Show every attribute". */
const FIRST = 8;
/** Lists with more values than this fold away. */
const SHORT = 6;
/** Values per attribute the page asks for. */
const PER_ATTRIBUTE = 24;

interface AttributeValue {
  value: string | number | boolean | null;
  from: string;
  to: string | null;
  episodeId: string | null;
}
interface AttributeHistory {
  attributesTotal: number;
  lanes: { attribute: string; total: number; values: AttributeValue[] }[];
}

/** A long list of values folds away (the bar above shows them all); a short one is shown as it is. */
function valueList(count: number, list: HTMLElement): HTMLElement {
  if (count <= SHORT) return list;
  return h(
    'details',
    { class: 'swim-list' },
    h('summary', {}, `All ${plural(count, 'value')} shown, with dates`),
    list,
  );
}

export function loadAttributes(name: string): Promise<AttributeHistory> {
  return get<AttributeHistory>(`/api/entities/${encodeURIComponent(name)}/attributes`, {
    per_attribute: PER_ATTRIBUTE,
  });
}

export function attributeLanes(history: AttributeHistory, lastSeen: string): HTMLElement[] {
  if (history.lanes.length === 0) return [h('h2', {}, 'How its state changed'), h('p', {}, 'No attribute recorded.')];
  const times = history.lanes.flatMap((l) => l.values.flatMap((v) => [Date.parse(v.from), Date.parse(v.to ?? v.from)]));
  // Up to now (the server's reference time), so a value that is still current has room on the bar (swimSpan).
  const { start, end } = swimSpan({
    times,
    lastSeen: Date.parse(lastSeen),
    now: Date.parse(serverStatus()?.now ?? ''),
  });
  const span = end - start;
  const pct = (t: number): number => ((t - start) / span) * 100;
  let newestFirst = false;
  let showAll = false;
  const more = h(
    'button',
    { type: 'button', class: 'small', hidden: history.lanes.length <= FIRST },
    `Show every attribute (${history.lanes.length})`,
  );
  more.addEventListener('click', () => {
    showAll = true;
    more.hidden = true;
    for (const li of list.querySelectorAll<HTMLElement>('li[data-attribute]')) li.hidden = false;
  });
  const list = h('ul', { class: 'plain', id: 'swimlanes', 'aria-labelledby': 'swim-h' });
  const toggle = h('button', { type: 'button', class: 'small', 'aria-pressed': 'false' }, 'Newest first');

  const render = (): void => {
    clear(
      list,
      ...history.lanes.map((lane, i) => {
        const values = newestFirst ? [...lane.values].reverse() : lane.values;
        return h(
          'li',
          // The most changed attributes first; the rest wait behind "Show every attribute".
          { 'data-attribute': lane.attribute, hidden: i >= FIRST && !showAll },
          h(
            'h3',
            {},
            lane.attribute,
            h(
              'span',
              { class: 'count' },
              ` · ${plural(lane.total, 'value')}${lane.total > lane.values.length ? `, the latest ${lane.values.length} shown` : ''}`,
            ),
          ),
          // The bar repeats the list below for the eye; screen readers read the list.
          h(
            'div',
            { class: 'swim', 'aria-hidden': 'true' },
            ...lane.values.map((v) => {
              const left = pct(Date.parse(v.from));
              const right = v.to === null ? 100 : pct(Date.parse(v.to));
              return h(
                'span',
                {
                  class: v.to === null ? 'swim-seg current' : 'swim-seg',
                  // Never thinner than a sliver: a value held for a day still shows.
                  style: `left:${Math.min(left, 98)}%;width:${Math.max(2, right - left)}%`,
                  title: `${valueText(v.value)}: ${date(v.from)} – ${v.to === null ? 'now' : date(v.to)}`,
                },
                valueText(v.value),
              );
            }),
          ),
          valueList(
            lane.values.length,
            h(
              'ol',
              { class: 'swim-values', reversed: newestFirst },
              ...values.map((v) =>
                h(
                  'li',
                  {},
                  h('strong', {}, valueText(v.value)),
                  ` ${date(v.from)} – ${v.to === null ? 'now' : date(v.to)}`,
                  v.episodeId
                    ? [
                        ' · ',
                        h(
                          'a',
                          { href: episodeHref(v.episodeId) },
                          'source',
                          h('span', { class: 'sr-only' }, ` of ${lane.attribute}: ${valueText(v.value)}`),
                        ),
                      ]
                    : null,
                ),
              ),
            ),
          ),
        );
      }),
    );
  };
  toggle.addEventListener('click', () => {
    newestFirst = !newestFirst;
    toggle.setAttribute('aria-pressed', String(newestFirst));
    // Lists a person opened stay open in the new order.
    const open = new Set(
      [...list.querySelectorAll<HTMLElement>('li[data-attribute]:has(> details[open])')].map(
        (li) => li.dataset.attribute,
      ),
    );
    render();
    for (const li of list.querySelectorAll<HTMLElement>('li[data-attribute]')) {
      const details = li.querySelector('details');
      if (details && open.has(li.dataset.attribute)) details.open = true;
    }
  });
  render();
  return [
    h('h2', { id: 'swim-h' }, 'How its state changed'),
    h(
      'p',
      { class: 'muted' },
      `Each attribute's values over time${history.attributesTotal > history.lanes.length ? ` (the ${history.lanes.length} most changed of ${history.attributesTotal})` : ''}. `,
      toggle,
    ),
    list,
    more,
  ];
}
