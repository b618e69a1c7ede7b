import { ApiError, get, type Entity, type Page } from '../api.js';
import { announce, clear, date, entityHref, field, formError, h } from '../dom.js';
import { plural, withProgress } from '../widgets.js';
import type { SearchOut } from '../world-shapes.js';
import { renderSearch } from './search-render.js';

const PAGE = 50;

export async function searchView(main: HTMLElement, _arg: string, query: URLSearchParams): Promise<void> {
  const q = query.get('q') ?? '';
  if (q) document.title = `Search: ${q} — PIE`;
  const input = h('input', { type: 'search', name: 'q', value: q, placeholder: 'a name, a topic, "last spring"…' });
  const results = h('section', { 'aria-labelledby': 'results-h', id: 'search-results', 'aria-live': 'polite' });
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
    try {
      const r = await withProgress(results, `Searching for “${q}”…`, get<SearchOut>('/api/search', { q, limit: 30 }));
      clear(results, ...renderSearch(r));
      announce(r.items.length === 0 && r.entities.length === 0 ? 'No results' : plural(r.items.length, 'result'));
    } catch (error) {
      // Next to the form, which keeps what was typed (a missing token still asks for it).
      if (error instanceof ApiError && error.status === 401) throw error;
      clear(results, formError(error));
    }
  }
  await entityBrowser(browser, query);
}

/** The entity list, one page at a time (the API pages; the DOM never holds more than a page). */
async function entityBrowser(section: HTMLElement, query: URLSearchParams): Promise<void> {
  const offset = Number(query.get('offset') ?? '0') || 0;
  const type = query.get('type') ?? '';
  const link = (o: number, t: string) => `#/search?offset=${o}${t ? `&type=${encodeURIComponent(t)}` : ''}`;
  const typeInput = h('input', { type: 'text', value: type, placeholder: 'person, project, tool…' });
  const form = h(
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
  );
  let page: Page<Entity>;
  try {
    page = await get<Page<Entity>>('/api/entities', { offset, limit: PAGE, type: type || undefined });
  } catch (error) {
    // An unknown type: the API's sentence (naming the known types) beside the form, which keeps what was typed.
    if (error instanceof ApiError && error.status === 401) throw error;
    clear(section, h('h2', { id: 'browse-h' }, 'Entities'), form, formError(error));
    return;
  }
  clear(
    section,
    h('h2', { id: 'browse-h' }, 'Entities'),
    form,
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
            h('td', {}, h('a', { href: entityHref(e.name, e.id) }, e.name)),
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
