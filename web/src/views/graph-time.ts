/** The graph's time slider (the end of each period, then now) and the graph page's address. */
import type { Period } from '../api.js';
import { date, field, h } from '../dom.js';

export interface GraphParams {
  depth: string;
  types: string;
  at: string;
  min: string;
  ended: boolean;
}

interface Stop {
  at: string;
  label: string;
  time: number;
}

/** A range input through the ends of the periods that have ended, in time order, then now; `onChange` on release. */
export function timeSlider(input: {
  periods: Period[];
  at: string;
  onChange: (at: string, label: string) => void;
}): HTMLElement {
  const stops = timeStops(input.periods);
  const slider = h('input', {
    type: 'range',
    min: 0,
    max: stops.length - 1,
    step: 1,
    value: stopIndex(stops, input.at),
  });
  const labelOf = (): string => stops[Number(slider.value)]?.label ?? 'now';
  const shown = h('output', { 'aria-live': 'polite' }, input.at || 'now');
  slider.addEventListener('input', () => (shown.textContent = labelOf()));
  slider.addEventListener('change', () => {
    shown.textContent = labelOf();
    input.onChange(stops[Number(slider.value)]?.at ?? '', labelOf());
  });
  slider.setAttribute('aria-valuetext', labelOf());
  slider.addEventListener('input', () => slider.setAttribute('aria-valuetext', labelOf()));
  return h('div', { class: 'slider' }, field('As of (through the periods)', slider), shown);
}

function timeStops(periods: Period[]): Stop[] {
  const ended = periods
    .filter((x) => x.end !== null && !x.ongoing)
    .map((x) => ({ at: x.name, label: `${x.name} (ends ${date(x.end)})`, time: Date.parse(x.end ?? '') }))
    .sort((a, b) => a.time - b.time);
  return [...ended, { at: '', label: 'now', time: Infinity }];
}

/** Where `at` sits: its period's stop, else the last period that ended by that date, else now. */
function stopIndex(stops: Stop[], at: string): number {
  if (!at) return stops.length - 1;
  const named = stops.findIndex((s) => s.at.toLowerCase() === at.toLowerCase());
  if (named >= 0) return named;
  const t = Date.parse(at);
  if (Number.isNaN(t)) return stops.length - 1;
  return Math.max(0, stops.filter((s) => s.time <= t).length - 1);
}

export function graphHref(name: string, o: GraphParams): string {
  const q = new URLSearchParams();
  if (o.depth !== '1') q.set('depth', o.depth);
  if (o.types) q.set('types', o.types);
  if (o.at) q.set('at', o.at);
  if (o.min && o.min !== '0') q.set('min', o.min);
  if (!o.ended) q.set('ended', '0');
  const qs = q.toString();
  return `#/graph/${encodeURIComponent(name)}${qs ? `?${qs}` : ''}`;
}
