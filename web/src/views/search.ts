import { get, type Entity, type Page, type SearchItem } from '../api.js';
import { announce, clear, date, entityHref, episodeHref, field, h } from '../dom.js';

const PAGE = 50;

export async function searchView(main: HTMLElement, _arg: string, query: URLSearchParams): Promise<void> {
  const q = query.get('q') ?? '';
  const input = h('input', { type: 'search', name: 'q', value: q, placeholder: 'a name, a topic, "last spring"…' });
  const results = h('section', { 'aria-labelledby': 'results-h' });
  const browser = h('section', { 'aria-labelledby': 'browse-h' });
  clear(
    main,
    h('h1', {}, 'Search memory'),
    h(
      'form',
      {
        role: 'search',
        class: 'row',
        onsubmit: (e: Event) => {
          e.preventDefault();
          location.hash = `#/search?q=${encodeURIComponent(input.value.trim())}`;
        },
      },
      field('Search entities, changes and conversations', input),
      h('button', { type: 'submit' }, 'Search'),
    ),
    results,
    browser,
  );
  if (q) {
    const r = await get<{ items: SearchItem[] }>('/api/search', { q, limit: 30 });
    clear(
      results,
      h('h2', { id: 'results-h' }, `${r.items.length} results for “${q}”`),
      r.items.length === 0
        ? h('p', {}, 'Nothing matches; try other or fewer words.')
        : h('ol', { class: 'results', id: 'search-results' }, ...r.items.map(resultItem)),
    );
    announce(`${r.items.length} results`);
  }
  await entityBrowser(browser, query);
}

function resultItem(item: SearchItem): HTMLElement {
  const href =
    item.kind === 'entity' && item.entity
      ? entityHref(item.entity.name)
      : item.kind === 'transition' && item.entity
        ? entityHref(item.entity.name)
        : item.episodeId
          ? episodeHref(item.episodeId, item.seq)
          : '#/search';
  return h(
    'li',
    {},
    h('span', { class: `badge kind-${item.kind}` }, item.kind),
    ' ',
    h('a', { href }, item.title),
    item.entity && item.kind === 'transition' ? h('span', { class: 'muted' }, ` — ${item.entity.name}`) : null,
    h('span', { class: 'muted' }, ` ${date(item.time)}`),
    item.snippet ? h('p', { class: 'snippet' }, item.snippet) : null,
  );
}

/** The entity list, one page at a time (the API pages; the DOM never holds more than a page). */
async function entityBrowser(section: HTMLElement, query: URLSearchParams): Promise<void> {
  const offset = Number(query.get('offset') ?? '0') || 0;
  const type = query.get('type') ?? '';
  const page = await get<Page<Entity>>('/api/entities', { offset, limit: PAGE, type: type || undefined });
  const link = (o: number, t: string) => `#/search?offset=${o}${t ? `&type=${encodeURIComponent(t)}` : ''}`;
  const typeInput = h('input', { type: 'text', value: type, placeholder: 'person, project, tool…' });
  clear(
    section,
    h('h2', { id: 'browse-h' }, 'Entities'),
    h(
      'form',
      {
        class: 'row',
        onsubmit: (e: Event) => {
          e.preventDefault();
          location.hash = link(0, typeInput.value.trim());
        },
      },
      field('Type', typeInput),
      h('button', { type: 'submit' }, 'Filter'),
    ),
    h(
      'table',
      { class: 'list' },
      h(
        'caption',
        {},
        `${page.total.toLocaleString()} entities, by importance — ${offset + 1}–${offset + page.items.length}`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Name'),
          h('th', { scope: 'col' }, 'Type'),
          h('th', { scope: 'col' }, 'Importance'),
          h('th', { scope: 'col' }, 'Last seen'),
        ),
      ),
      h(
        'tbody',
        {},
        ...page.items.map((e) =>
          h(
            'tr',
            {},
            h('td', {}, h('a', { href: entityHref(e.name) }, e.name)),
            h('td', {}, e.type),
            h('td', {}, e.importance.toFixed(2)),
            h('td', {}, date(e.lastSeen)),
          ),
        ),
      ),
    ),
    h(
      'nav',
      { class: 'pager', 'aria-label': 'Entity pages' },
      offset > 0 ? h('a', { href: link(Math.max(0, offset - PAGE), type) }, '← Previous') : null,
      offset + PAGE < page.total ? h('a', { href: link(offset + PAGE, type) }, 'Next →') : null,
    ),
  );
}
