/** The timeline's filters: kind (entity type), attribute, period and how many lanes; each is part of the address. */
import { field, h } from '../dom.js';
import type { LifeTimeline } from './timeline-draw.js';

export interface TimelineFilters {
  type?: string;
  attribute?: string;
  period?: string;
  limit?: string;
}

const LANE_CHOICES = ['10', '30', '60', '100'];

export function timelineHref(filters: TimelineFilters): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (typeof v === 'string' && v !== '') params.set(k, v);
  const qs = params.toString();
  return qs ? `#/timeline?${qs}` : '#/timeline';
}

function select(name: string, value: string, options: [value: string, label: string][]): HTMLSelectElement {
  // A value from the address the list does not offer (an attribute of entities outside the lanes) stays choosable.
  if (value !== '' && !options.some(([v]) => v === value)) options.push([value, value]);
  const el = h('select', { name }, ...options.map(([v, label]) => h('option', { value: v }, label)));
  el.value = value;
  return el;
}

export function filtersForm(input: {
  data: LifeTimeline;
  filters: Required<TimelineFilters>;
  periods: string[];
}): HTMLFormElement {
  const { data, filters } = input;
  const kind = select('type', filters.type, [
    ['', 'All kinds'],
    ...data.types.map((t): [string, string] => [t.type, `${t.type} (${t.count.toLocaleString('en-US')})`]),
  ]);
  const attribute = select('attribute', filters.attribute, [
    ['', 'Any attribute'],
    ...data.attributes.slice(0, 60).map((a): [string, string] => [a.name, a.name]),
  ]);
  const period = select('period', filters.period, [
    ['', 'All time'],
    ...input.periods.map((p): [string, string] => [p, p]),
  ]);
  const lanes = select(
    'limit',
    filters.limit || '30',
    LANE_CHOICES.map((n): [string, string] => [n, n]),
  );
  const form = h(
    'form',
    {
      class: 'tl-filters',
      id: 'tl-filters',
      'aria-label': 'Timeline filters',
      onsubmit: (e: Event) => {
        e.preventDefault();
        location.hash = timelineHref({
          type: kind.value,
          attribute: attribute.value,
          period: period.value,
          limit: lanes.value === '30' ? '' : lanes.value,
        });
      },
    },
    field('Kind', kind),
    field('Attribute', attribute),
    field('Period', period),
    field('Lanes', lanes),
    h('button', { type: 'submit', class: 'small' }, 'Show'),
  );
  // Choosing applies at once; the button is there for keyboards and for a choice made again.
  for (const el of [kind, attribute, period, lanes]) el.addEventListener('change', () => form.requestSubmit());
  return form;
}
