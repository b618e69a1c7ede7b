import { get } from '../api.js';
import { clear, date, h } from '../dom.js';

interface EpisodeOut {
  id: string;
  title: string;
  source: string;
  time: string;
  summary: string | null;
  turns: { seq: number; role: string; speaker: string | null; time: string | null; text: string }[];
}

/** The original conversation a change came from. */
export async function episodeView(main: HTMLElement, id: string, query: URLSearchParams): Promise<void> {
  const ep = await get<EpisodeOut>(`/api/episodes/${encodeURIComponent(id)}`);
  const mark = query.get('seq');
  clear(
    main,
    h('h1', {}, ep.title || ep.id),
    h('p', { class: 'muted' }, `${ep.source} · ${date(ep.time)} · ${ep.turns.length} turns`),
    ep.summary ? h('p', { class: 'summary' }, ep.summary) : null,
    h(
      'ol',
      { class: 'conversation', id: 'conversation' },
      ...ep.turns.map((t) =>
        h(
          'li',
          { class: `turn role-${t.role}${String(t.seq) === mark ? ' marked' : ''}`, id: `turn-${t.seq}` },
          h('strong', {}, t.speaker ?? t.role),
          t.time ? h('span', { class: 'muted' }, ` ${date(t.time)}`) : null,
          h('p', {}, t.text),
        ),
      ),
    ),
  );
  if (mark) document.getElementById(`turn-${mark}`)?.scrollIntoView({ block: 'center' });
}
