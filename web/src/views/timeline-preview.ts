/** The preview under the timeline: the hovered or focused change, then (fetched once per change) where it was said. */
import { get } from '../api.js';
import { clear, date, episodeHref, h, stateText } from '../dom.js';
import type { Lane, LifeTimeline, Mark } from './timeline-draw.js';

interface MarkSource {
  id: string;
  from: Record<string, unknown> | null;
  to: Record<string, unknown>;
  episode: { id: string; title: string; time: string } | null;
  turn: { seq: number; role: string; text: string; truncated: boolean } | null;
}

export function previewPanel(): { element: HTMLElement; attach: (scroll: HTMLElement, data: LifeTimeline) => void } {
  const element = h('aside', { class: 'tl-preview', id: 'tl-preview', 'aria-label': 'Change preview', hidden: true });
  const live = h('div', { 'aria-live': 'polite' });
  const close = h('button', { type: 'button', class: 'small tl-close', 'aria-label': 'Close the preview' }, '×');
  element.append(close, live);
  const cache = new Map<string, Promise<MarkSource>>();
  let current = '';

  close.addEventListener('click', () => {
    element.hidden = true;
    current = '';
  });

  const show = (lane: Lane, mark: Mark): void => {
    if (current === mark.id) return;
    current = mark.id;
    element.hidden = false;
    const source = h('div', { class: 'tl-source muted' }, 'Loading where it was said…');
    clear(
      live,
      h(
        'p',
        {},
        h('strong', {}, lane.entity.name),
        ` · ${date(mark.time)} · `,
        h('span', { class: `badge kind-${mark.kind}` }, mark.contradiction ? '⚠ contradiction' : mark.kind),
      ),
      h('p', { class: 'summary' }, mark.summary),
      source,
    );
    let pending = cache.get(mark.id);
    if (!pending) {
      pending = get<MarkSource>(`/api/timeline/marks/${encodeURIComponent(mark.id)}`);
      cache.set(mark.id, pending);
    }
    pending.then(
      (s) => {
        if (current === mark.id) clear(source, ...sourceParts(s));
      },
      (error: unknown) => {
        cache.delete(mark.id);
        if (current === mark.id) source.textContent = `The source could not be loaded: ${String(error)}`;
      },
    );
  };

  const attach = (scroll: HTMLElement, data: LifeTimeline): void => {
    const lanes = new Map(data.lanes.map((l) => [l.entity.name, l]));
    const onMark = (e: Event): void => {
      const a = e.target instanceof Element ? e.target.closest<HTMLElement>('.tl-mark') : null;
      const lane = lanes.get(a?.closest<HTMLElement>('.tl-lane')?.dataset.entity ?? '');
      const mark = lane?.marks.find((m) => m.id === a?.dataset.mark);
      if (lane && mark) show(lane, mark);
    };
    scroll.addEventListener('mouseover', onMark);
    scroll.addEventListener('focusin', onMark);
  };
  return { element, attach };
}

function sourceParts(s: MarkSource): (Node | string)[] {
  const change =
    s.from && stateText(s.from) !== stateText(s.to)
      ? h('p', { class: 'change' }, h('del', {}, stateText(s.from)), ' → ', h('ins', {}, stateText(s.to)))
      : Object.keys(s.to).length > 0
        ? h('p', { class: 'change' }, stateText(s.to))
        : null;
  if (!s.episode) return [change ?? '', 'No conversation is recorded for this change.'];
  return [
    change ?? '',
    s.turn
      ? h(
          'blockquote',
          { class: 'tl-turn' },
          h('span', { class: 'muted' }, `${s.turn.role === 'user' ? 'You' : 'Assistant'}: `),
          s.turn.text,
        )
      : h('p', {}, 'The conversation has no turns stored.'),
    h(
      'p',
      {},
      'From ',
      h('a', { href: episodeHref(s.episode.id, s.turn?.seq), class: 'source-link' }, s.episode.title || s.episode.id),
      ` (${date(s.episode.time)})`,
    ),
  ];
}
