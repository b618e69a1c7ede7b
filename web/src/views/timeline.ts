import './timeline.css';
import { get } from '../api.js';
import { announce, clear, date, h } from '../dom.js';
import { plural } from '../widgets.js';
import { pinchScale, scrollFor, timeAt, type PinchStart } from './pinch.js';
import { trackPinch } from './pinch-track.js';
import { DAY, drawTimeline, PAD, unitOf, type LifeTimeline, type Scale } from './timeline-draw.js';
import { filtersForm, timelineHref } from './timeline-filters.js';
import { previewPanel } from './timeline-preview.js';

/** Zoom presets in pixels per day ("years" fits the whole range in the window). */
const MONTHS_PX = 6;
const DAYS_PX = 40;
const MAX_PX = 96;

/** The home view: life periods as bands, the most important entities as lanes, their changes as marks. */
export async function timelineView(main: HTMLElement, _arg: string, query: URLSearchParams): Promise<void> {
  const filters = {
    type: query.get('type') ?? '',
    attribute: query.get('attribute') ?? '',
    period: query.get('period') ?? '',
    limit: query.get('limit') ?? '',
  };
  const [data, all] = await Promise.all([
    get<LifeTimeline>('/api/timeline', filters),
    get<{ items: { name: string }[] }>('/api/periods'),
  ]);
  const marks = data.lanes.reduce((n, l) => n + l.marks.length, 0);
  const contradictions = data.lanes.reduce((n, l) => n + l.contradictions, 0);
  const scroll = h('div', {
    class: 'tl-scroll',
    id: 'tl-scroll',
    role: 'region',
    tabindex: 0,
    'aria-label': 'Timeline (scrolls sideways; + and − zoom, or pinch)',
  });
  const preview = previewPanel();
  const zoomLabel = h('span', { id: 'tl-zoom-label', class: 'muted', 'aria-live': 'polite' });
  const start = Date.parse(data.start);
  const end = Date.parse(data.end);
  const days = Math.max(1, (end - start) / DAY);
  const fit = (): number => Math.max(0.01, (scroll.clientWidth - 2 * PAD) / days);
  let scale: Scale = { start, end, pxPerDay: 1 };
  let atFit = true;

  /** The moment at `x` pixels from the view's left edge. */
  const momentAt = (x: number): number =>
    timeAt({ x, scrollLeft: scroll.scrollLeft, start, pxPerDay: scale.pxPerDay, pad: PAD });
  /** Redraws at `pxPerDay`, keeping `anchor.time` at `anchor.x` (by default the moment in the middle stays there). */
  const render = (pxPerDay: number, anchor?: { time: number; x: number }): void => {
    const { time, x } = anchor ?? { time: momentAt(scroll.clientWidth / 2), x: scroll.clientWidth / 2 };
    scale = { start, end, pxPerDay: Math.min(MAX_PX, Math.max(fit(), pxPerDay)) };
    atFit = scale.pxPerDay <= fit();
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.mark : undefined;
    clear(scroll, drawTimeline(scale, data));
    // A zoom redraws the marks: the one that had focus keeps it.
    if (focused) scroll.querySelector<HTMLElement>(`[data-mark="${CSS.escape(focused)}"]`)?.focus();
    scroll.scrollLeft = scrollFor({ time, x, start, pxPerDay: scale.pxPerDay, pad: PAD });
    const unit = unitOf(scale.pxPerDay);
    zoomLabel.textContent = `Zoom: ${unit}`;
    scroll.dataset.unit = unit;
    // A preset is pressed while the zoom is its zoom (Years: the whole range fits).
    for (const [b, px] of presets) b.setAttribute('aria-pressed', String(Math.abs(px() - scale.pxPerDay) < 1e-6));
  };
  const zoom = (factor: number): void => {
    render(scale.pxPerDay * factor);
    announce(zoomLabel.textContent ?? '');
  };
  const preset = (unit: string, px: () => number): [HTMLButtonElement, () => number] => [
    h(
      'button',
      { type: 'button', class: 'small', 'data-unit': unit, 'aria-pressed': 'false', onclick: () => render(px()) },
      unit[0]?.toUpperCase() + unit.slice(1),
    ),
    px,
  ];
  const presets = [preset('years', fit), preset('months', () => MONTHS_PX), preset('days', () => DAYS_PX)];

  scroll.addEventListener('keydown', (e) => {
    let handled = true;
    if (e.key === '+' || e.key === '=') zoom(2);
    else if (e.key === '-' || e.key === '_') zoom(0.5);
    else handled = e.target instanceof HTMLAnchorElement && e.target.matches('.tl-mark') && moveAlongLane(e);
    if (handled) e.preventDefault();
  });
  scroll.addEventListener(
    'wheel',
    (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      zoom(e.deltaY < 0 ? 1.25 : 0.8);
    },
    { passive: false },
  );
  // Two fingers pinch (touch screens): the moment under them stays under them; one redraw per frame.
  let pinch: { from: PinchStart; time: number } | null = null;
  let frame = 0;
  trackPinch({
    element: scroll,
    onStart: ({ distance, mid }) => {
      pinch = { from: { distance, pxPerDay: scale.pxPerDay }, time: momentAt(mid.x) };
    },
    onPinch: ({ distance, mid }) => {
      const from = pinch;
      if (from === null) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() =>
        render(pinchScale({ start: from.from, distance, min: fit(), max: MAX_PX }), { time: from.time, x: mid.x }),
      );
    },
    onEnd: () => {
      pinch = null;
      announce(zoomLabel.textContent ?? '');
    },
  });
  preview.attach(scroll, data);
  // A timeline fitted to the window stays fitted when the window changes; a zoomed one keeps its scale.
  const onResize = (): void => {
    if (!scroll.isConnected) window.removeEventListener('resize', onResize);
    else if (atFit) render(fit());
  };
  window.addEventListener('resize', onResize);

  clear(
    main,
    h('h1', {}, 'Life timeline'),
    h(
      'p',
      { class: 'muted', id: 'tl-summary' },
      data.period
        ? `${data.period.name}: ${date(data.period.start)} – ${data.period.ongoing ? 'now' : date(data.period.end)}. `
        : `${plural(data.periods.length, 'period')} from ${date(data.start)} to ${date(data.end)}. `,
      `${plural(data.lanes.length, 'entity', 'entities')} (the most important${data.considered > data.lanes.length ? ` of ${data.considered} considered` : ''}), ${plural(marks, 'change')} drawn`,
      contradictions > 0 ? `, ${plural(contradictions, 'contradiction')} (marked !)` : '',
      '. Click a name or a mark to open the entity; hover or focus a mark to see where it was said.',
    ),
    filtersForm({ data, filters, periods: all.items.map((p) => p.name) }),
    h(
      'div',
      { class: 'tl-toolbar', role: 'toolbar', 'aria-label': 'Zoom' },
      h('button', { type: 'button', class: 'small', 'aria-label': 'Zoom out', onclick: () => zoom(0.5) }, '−'),
      h('button', { type: 'button', class: 'small', 'aria-label': 'Zoom in', onclick: () => zoom(2) }, '+'),
      ...presets.map(([b]) => b),
      zoomLabel,
    ),
    legend(),
    data.lanes.length === 0
      ? h(
          'p',
          { id: 'tl-empty' },
          'No entity has changes that match these filters. ',
          h('a', { href: timelineHref({}) }, 'Show everything'),
        )
      : null,
    scroll,
    preview.element,
  );
  render(fit(), { time: start + (end - start) / 2, x: scroll.clientWidth / 2 });
}

function legend(): HTMLElement {
  return h(
    'p',
    { class: 'tl-legend muted' },
    h('span', { class: 'tl-key band' }, ''),
    ' life period · ',
    h('span', { class: 'tl-key mark' }, ''),
    ' change · ',
    h('span', { class: 'tl-key mark kind-creation' }, ''),
    ' first seen · ',
    h('span', { class: 'tl-key mark contra' }, '!'),
    ' contradiction',
  );
}

/** Arrow keys, Home and End move between the marks of one lane (one tab stop per lane). */
function moveAlongLane(e: KeyboardEvent): boolean {
  const mark = e.target as HTMLAnchorElement;
  const marks = [...(mark.parentElement?.querySelectorAll<HTMLAnchorElement>('.tl-mark') ?? [])];
  const i = marks.indexOf(mark);
  const next =
    e.key === 'ArrowRight'
      ? marks[i + 1]
      : e.key === 'ArrowLeft'
        ? marks[i - 1]
        : e.key === 'Home'
          ? marks[0]
          : e.key === 'End'
            ? marks.at(-1)
            : undefined;
  if (!next) return false;
  mark.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
  return true;
}
