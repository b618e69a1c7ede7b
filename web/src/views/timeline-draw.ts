/** Draws the life timeline (axis, period bands, lanes with marks) at a scale, as positioned DOM elements. */
import { date, entityHref, h } from '../dom.js';

export interface Band {
  id: string;
  name: string;
  start: string;
  end: string | null;
  ongoing: boolean;
  row: number;
}
export interface Mark {
  id: string;
  kind: string;
  time: string;
  summary: string;
  attributes: string[];
  contradiction: boolean;
  unresolved: boolean;
  episodeId: string | null;
}
export interface Lane {
  entity: { id: string; name: string; type: string; importance: number; tier: string };
  marks: Mark[];
  marksTotal: number;
  contradictions: number;
}
export interface LifeTimeline {
  start: string;
  end: string;
  periods: Band[];
  period: Band | null;
  lanes: Lane[];
  attributes: { name: string; count: number }[];
  types: { type: string; count: number }[];
  considered: number;
}

export const DAY = 86_400_000;
/** Space left and right of the drawn range, in pixels. */
export const PAD = 24;
const BAND_ROW = 26;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Maps times to pixels: `pxPerDay` from the range's start. */
export interface Scale {
  start: number;
  end: number;
  pxPerDay: number;
}

export function xOf(scale: Scale, time: number): number {
  return PAD + ((time - scale.start) / DAY) * scale.pxPerDay;
}

export function widthOf(scale: Scale): number {
  return Math.ceil(xOf(scale, scale.end) + PAD);
}

/** Which unit the axis is labelled in at this scale. */
export function unitOf(pxPerDay: number): 'years' | 'months' | 'days' {
  return pxPerDay >= 20 ? 'days' : pxPerDay >= 1.2 ? 'months' : 'years';
}

/** Ticks at each day, month or year boundary (UTC) inside the range, labelled for the unit. */
function ticks(scale: Scale): { time: number; label: string; major: boolean }[] {
  const unit = unitOf(scale.pxPerDay);
  const out: { time: number; label: string; major: boolean }[] = [];
  const d = new Date(scale.start);
  let cursor = Date.UTC(
    d.getUTCFullYear(),
    unit === 'years' ? 0 : d.getUTCMonth(),
    unit === 'days' ? d.getUTCDate() : 1,
  );
  while (cursor <= scale.end && out.length < 5000) {
    const c = new Date(cursor);
    const [y, m, day] = [c.getUTCFullYear(), c.getUTCMonth(), c.getUTCDate()];
    if (cursor >= scale.start) {
      if (unit === 'years') out.push({ time: cursor, label: String(y), major: true });
      else if (unit === 'months')
        out.push({ time: cursor, label: m === 0 ? String(y) : (MONTHS[m] ?? ''), major: m === 0 });
      else out.push({ time: cursor, label: day === 1 ? `${MONTHS[m] ?? ''} ${y}` : String(day), major: day === 1 });
    }
    cursor = unit === 'years' ? Date.UTC(y + 1, 0, 1) : unit === 'months' ? Date.UTC(y, m + 1, 1) : cursor + DAY;
  }
  return out;
}

function axis(scale: Scale): HTMLElement {
  return h(
    'div',
    { class: 'tl-axis', 'aria-hidden': 'true' },
    ...ticks(scale).map((t) =>
      h('span', { class: t.major ? 'tl-tick major' : 'tl-tick', style: `left:${xOf(scale, t.time)}px` }, t.label),
    ),
  );
}

function bands(scale: Scale, list: readonly Band[]): HTMLElement {
  const rows = Math.max(1, ...list.map((b) => b.row + 1));
  return h(
    'ul',
    { class: 'tl-bands', id: 'tl-bands', 'aria-label': 'Life periods', style: `height:${rows * BAND_ROW}px` },
    ...list.map((b) => {
      const from = Math.max(Date.parse(b.start), scale.start);
      const to = Math.min(b.end ? Date.parse(b.end) : scale.end, scale.end);
      const left = xOf(scale, from);
      const width = Math.max(4, xOf(scale, to) - left);
      return h(
        'li',
        { class: 'tl-band', style: `left:${left}px;width:${width}px;top:${b.row * BAND_ROW}px`, 'data-period': b.name },
        h(
          'a',
          {
            href: `#/timeline?period=${encodeURIComponent(b.name)}`,
            title: `${b.name}: ${date(b.start)} – ${b.ongoing ? 'now' : date(b.end)} (show only this period)`,
          },
          b.name,
        ),
      );
    }),
  );
}

function markLabel(lane: Lane, m: Mark): string {
  const flag = m.contradiction ? (m.unresolved ? ' (contradiction)' : ' (contradiction, resolved)') : '';
  return `${lane.entity.name}, ${date(m.time)}: ${m.summary}${flag}`;
}

function laneRow(scale: Scale, lane: Lane): HTMLElement {
  const more = lane.marksTotal > lane.marks.length ? ` · ${lane.marks.length} of ${lane.marksTotal} changes drawn` : '';
  return h(
    'li',
    { class: 'tl-lane', 'data-entity': lane.entity.name },
    h(
      'a',
      { class: 'tl-lane-label', href: entityHref(lane.entity.name, lane.entity.id) },
      lane.entity.name,
      h('span', { class: 'muted' }, ` ${lane.entity.type}${more}`),
    ),
    h(
      'div',
      { class: 'tl-track' },
      ...lane.marks.map((m, i) =>
        h(
          'a',
          {
            class: `tl-mark kind-${m.kind}${m.contradiction ? ' contra' : ''}`,
            href: entityHref(lane.entity.name, lane.entity.id),
            style: `left:${xOf(scale, Date.parse(m.time))}px`,
            'aria-label': markLabel(lane, m),
            // One tab stop per lane; the arrow keys move between its marks.
            tabindex: i === 0 ? 0 : -1,
            'data-mark': m.id,
          },
          m.contradiction ? '!' : '',
        ),
      ),
    ),
  );
}

/** The whole drawing at a scale: axis, bands and lanes in one wide canvas. */
export function drawTimeline(scale: Scale, data: LifeTimeline): HTMLElement {
  return h(
    'div',
    { class: 'tl-canvas', style: `width:${widthOf(scale)}px` },
    axis(scale),
    bands(scale, data.periods),
    h(
      'ol',
      { class: 'tl-lanes', id: 'tl-lanes', 'aria-label': 'Entities, most important first' },
      ...data.lanes.map((l) => laneRow(scale, l)),
    ),
  );
}
