import { post, type ChatOut, type Source } from '../api.js';
import { announce, clear, episodeHref, field, h, shortModel } from '../dom.js';
import { serverStatus } from '../state.js';

/** One line of the conversation, kept as data so it can be drawn again after a reload. */
type Entry =
  { kind: 'user'; text: string } | { kind: 'reply'; message: string; out: ChatOut } | { kind: 'error'; text: string };

/** Kept for the browser tab (sessionStorage): a reload keeps the conversation, closing the tab forgets it. */
const STORAGE_KEY = 'pie.chat';
const KEEP = 60;

function loadEntries(): Entry[] {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Entry[]) : [];
  } catch {
    return [];
  }
}

function saveEntries(entries: readonly Entry[]): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(entries.slice(-KEEP)));
  } catch {
    // Storage full or refused: the conversation is still on the page.
  }
}

export async function chatView(main: HTMLElement): Promise<void> {
  const entries = loadEntries();
  const log = h('ol', {
    class: 'chat-log',
    id: 'chat-log',
    role: 'log',
    'aria-live': 'polite',
    'aria-label': 'Conversation',
  });
  const text = h('textarea', {
    rows: 3,
    required: true,
    placeholder: 'Ask “How has Tidepool changed?” or tell “I moved to Lisbon today.”',
  });
  const mode = h(
    'select',
    {},
    h('option', { value: 'auto' }, 'Decide for me'),
    h('option', { value: 'question' }, 'Question (answer it)'),
    h('option', { value: 'statement' }, 'Statement (remember it)'),
  );
  const send = h('button', { type: 'submit' }, 'Send');
  const status = serverStatus();
  const add = (entry: Entry): void => {
    entries.push(entry);
    saveEntries(entries);
    append(log, draw(entry, deliver));
  };
  /** Sends a message the chosen way (or the other way, from a reply's button). */
  function deliver(message: string, how: string): void {
    send.disabled = true;
    add({ kind: 'user', text: message });
    post<ChatOut>('/api/chat', { message, mode: how })
      .then((out) => add({ kind: 'reply', message, out }))
      .catch((error: unknown) => add({ kind: 'error', text: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        send.disabled = false;
        text.focus();
      });
  }
  for (const entry of entries) log.append(draw(entry, deliver));
  const form = h(
    'form',
    {
      class: 'chat-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        const message = text.value.trim();
        if (!message) return;
        text.value = '';
        deliver(message, mode.value);
      },
      onkeydown: (e: Event) => {
        const k = e as KeyboardEvent;
        if (k.key === 'Enter' && (k.ctrlKey || k.metaKey)) form.requestSubmit();
      },
    },
    field('Message (Ctrl+Enter sends)', text),
    field('Treat it as', mode),
    send,
  );
  const forget = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () => {
        entries.length = 0;
        saveEntries(entries);
        clear(log);
      },
    },
    'Clear this conversation',
  );
  clear(
    main,
    h('h1', {}, 'Chat with your memory'),
    h(
      'p',
      { class: 'muted' },
      status?.model
        ? `Questions are answered by ${shortModel(status.model)} from the world model, with sources. Statements are stored as episodes.`
        : 'No model is configured: questions are answered with what your memory holds (entities, changes, sources). Statements are stored as episodes.',
    ),
    log,
    form,
    forget,
  );
  text.focus();
}

function draw(entry: Entry, deliver: (message: string, how: string) => void): HTMLElement {
  if (entry.kind === 'user') return h('li', { class: 'msg user' }, h('strong', {}, 'You'), h('p', {}, entry.text));
  if (entry.kind === 'error') return h('li', { class: 'msg error', role: 'alert' }, entry.text);
  return reply(entry.out, entry.message, deliver);
}

function append(log: HTMLElement, item: HTMLElement): void {
  log.append(item);
  item.scrollIntoView({ block: 'nearest' });
  announce(item.textContent?.slice(0, 200) ?? '');
}

/** The sources an answer cites ([n]) in view, the rest folded away (a context can name many conversations). */
function sources(list: Source[], answer: string | null): HTMLElement | null {
  if (list.length === 0) return null;
  const cited = new Set([...(answer ?? '').matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  const shown = list.filter((s) => cited.has(s.n));
  const rest = list.filter((s) => !cited.has(s.n));
  const items = (l: Source[]) =>
    h('ol', {}, ...l.map((s) => h('li', {}, h('a', { href: episodeHref(s.episodeId) }, `[${s.n}] ${s.title}`))));
  return h(
    'div',
    { class: 'sources' },
    shown.length > 0 ? h('span', {}, 'Cited: ') : null,
    shown.length > 0 ? items(shown) : null,
    rest.length > 0
      ? h(
          'details',
          {},
          h('summary', {}, `${shown.length > 0 ? 'Other sources' : 'Sources'} in the context (${rest.length})`),
          items(rest),
        )
      : null,
  );
}

/** "Remember it instead" / "Ask it instead": the same message sent the other way. */
function otherWay(message: string, to: 'question' | 'statement', deliver: (m: string, how: string) => void) {
  return h(
    'button',
    { type: 'button', class: 'secondary other-route', onclick: () => deliver(message, to) },
    to === 'statement' ? 'Remember it instead' : 'Ask it as a question instead',
  );
}

function reply(r: ChatOut, message: string, deliver: (m: string, how: string) => void): HTMLElement {
  if (r.route === 'small-talk') {
    return h('li', { class: 'msg pie', 'data-route': 'small-talk' }, h('strong', {}, 'PIE'), h('p', {}, r.text));
  }
  if (r.route === 'question') {
    return h(
      'li',
      { class: 'msg pie answer', 'data-route': 'question' },
      h('strong', {}, 'PIE'),
      h('p', { class: 'route-note muted' }, 'Asked as a question.'),
      r.answer
        ? h('p', { class: 'answer-text' }, r.answer.text)
        : h('pre', { class: 'memory-cards' }, r.memory ?? 'Your memory holds nothing about that yet.'),
      h('details', {}, h('summary', {}, 'What the model sees'), h('pre', { class: 'context' }, r.context)),
      sources(r.sources, r.answer?.text ?? null),
      r.answer
        ? h('p', { class: 'muted' }, `Answered by ${shortModel(r.answer.model)}${r.answer.cached ? ' (cached)' : ''}`)
        : null,
      otherWay(message, 'statement', deliver),
    );
  }
  const known = r.entities.map((e) => `${e.name}${e.isNew ? ' (new)' : ''}`).join(', ');
  return h(
    'li',
    { class: 'msg pie stored', 'data-route': 'statement' },
    h('strong', {}, 'PIE'),
    h(
      'p',
      { class: 'stored-text' },
      r.outcome === 'unchanged'
        ? 'I already had this; nothing changed.'
        : r.outcome === 'failed'
          ? `Stored, but extracting it failed (${r.failure ?? 'unknown reason'}); sending it again retries.`
          : `Remembered (episode ${r.episodeId}, ${shortModel(r.extractor)} extraction).`,
    ),
    known ? h('p', {}, `Entities: ${known}`) : null,
    r.changes.length > 0 ? h('ul', {}, ...r.changes.map((c) => h('li', {}, `${c.entity.name}: ${c.summary}`))) : null,
    h('a', { href: episodeHref(r.episodeId) }, 'Open the stored episode'),
    otherWay(message, 'question', deliver),
  );
}
