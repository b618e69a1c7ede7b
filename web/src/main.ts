import './styles.css';
import { ApiError, get, setToken, type Status } from './api.js';
import { clear, errorBox, field, h, shortModel } from './dom.js';
import { chatView } from './views/chat.js';
import { entityView } from './views/entity.js';
import { episodeView } from './views/episode.js';
import { graphView } from './views/graph.js';
import { inboxView, refreshInboxCount } from './views/inbox.js';
import { maintenanceView } from './views/maintenance.js';
import { searchView } from './views/search.js';
import { setServerStatus } from './state.js';
import { diffView, snapshotView } from './views/time.js';
import { timelineView } from './views/timeline.js';

/** A view renders into `main` from the route's path segment and query. */
export type View = (main: HTMLElement, arg: string, query: URLSearchParams) => Promise<void>;

const VIEWS: Record<string, { view: View; title: string }> = {
  timeline: { view: timelineView, title: 'Timeline' },
  search: { view: searchView, title: 'Search' },
  entity: { view: entityView, title: 'Entity' },
  episode: { view: episodeView, title: 'Conversation' },
  graph: { view: graphView, title: 'Graph' },
  diff: { view: diffView, title: 'Diff' },
  snapshot: { view: snapshotView, title: 'Snapshot' },
  chat: { view: chatView, title: 'Chat' },
  maintenance: { view: maintenanceView, title: 'Maintenance' },
  inbox: { view: inboxView, title: 'Inbox' },
};

async function route(): Promise<void> {
  const main = document.getElementById('main');
  if (!main) return;
  const hash = location.hash.replace(/^#\/?/, '') || 'timeline';
  const [pathPart = '', queryPart = ''] = hash.split('?');
  const [name = 'timeline', ...rest] = pathPart.split('/');
  const entry = VIEWS[name] ?? VIEWS.timeline;
  if (!entry) return;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('#nav a')) {
    if (a.getAttribute('href') === `#/${name}`) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const arg = decodeURIComponent(rest.join('/'));
  document.title = `${entry.title}${arg ? `: ${arg}` : ''} — PIE`;
  main.setAttribute('aria-busy', 'true');
  try {
    await entry.view(main, arg, new URLSearchParams(queryPart));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) clear(main, tokenForm());
    else clear(main, errorBox(error));
  } finally {
    main.removeAttribute('aria-busy');
    main.dataset.view = name;
    // Which address this content answers (tests and tools wait on it after an in-page navigation).
    main.dataset.route = location.hash;
  }
}

function tokenForm(): HTMLElement {
  const input = h('input', { type: 'password', autocomplete: 'current-password', required: true });
  return h(
    'form',
    {
      class: 'card',
      onsubmit: (e: Event) => {
        e.preventDefault();
        setToken(input.value.trim());
        void start();
      },
    },
    h('h1', {}, 'This server needs a token'),
    h(
      'p',
      {},
      'Enter the PIE_TOKEN the server was started with (on a server of several memories, the token of yours). It is kept for this tab only.',
    ),
    field('Token', input),
    h('button', { type: 'submit' }, 'Continue'),
  );
}

/** The skip link moves focus to the page's content (as a hash link it was read as a route and opened Search). */
document.querySelector<HTMLAnchorElement>('a.skip')?.addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('main')?.focus();
});

async function start(): Promise<void> {
  const badge = document.getElementById('server-status');
  try {
    const status = await get<Status>('/api/status');
    setServerStatus(status);
    if (badge) {
      const model = status.model ? `model ${shortModel(status.model)}` : 'no model: answers show the context';
      badge.textContent = `${status.stats.entities.toLocaleString()} entities · ${model}${status.readOnly ? ' · read-only' : ''}`;
      if (status.model) badge.title = status.model;
    }
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) throw error;
  }
  // The page's own content first: the Inbox count reads every open contradiction, and the server answers one
  // request at a time.
  await route();
  void refreshInboxCount();
}

// After navigation focus moves to the new content (screen readers read it), unless the view focused a control itself.
window.addEventListener('hashchange', () => {
  void route().then(() => {
    const main = document.getElementById('main');
    if (main && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  });
});
void start();
