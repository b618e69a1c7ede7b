import { post, type ChatOut, type Source } from '../api.js';
import { announce, clear, episodeHref, field, h, shortModel } from '../dom.js';
import { serverStatus } from '../state.js';

/** Kept while the page lives, so going to a source and back keeps the conversation. */
const history: HTMLElement[] = [];

export async function chatView(main: HTMLElement): Promise<void> {
  const log = h(
    'ol',
    { class: 'chat-log', id: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' },
    ...history,
  );
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
  const form = h(
    'form',
    {
      class: 'chat-form',
      onsubmit: (e: Event) => {
        e.preventDefault();
        const message = text.value.trim();
        if (!message) return;
        send.disabled = true;
        append(log, h('li', { class: 'msg user' }, h('strong', {}, 'You'), h('p', {}, message)));
        text.value = '';
        post<ChatOut>('/api/chat', { message, mode: mode.value })
          .then((r) => append(log, reply(r)))
          .catch((error: unknown) =>
            append(
              log,
              h('li', { class: 'msg error', role: 'alert' }, error instanceof Error ? error.message : String(error)),
            ),
          )
          .finally(() => {
            send.disabled = false;
            text.focus();
          });
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
  clear(
    main,
    h('h1', {}, 'Chat with your memory'),
    h(
      'p',
      { class: 'muted' },
      status?.model
        ? `Questions are answered by ${shortModel(status.model)} from the world model, with sources. Statements are stored as episodes.`
        : 'No model is configured: questions show the compiled context with its sources. Statements are stored as episodes.',
    ),
    log,
    form,
  );
  text.focus();
}

function append(log: HTMLElement, item: HTMLElement): void {
  history.push(item);
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

function reply(r: ChatOut): HTMLElement {
  if (r.route === 'question') {
    return h(
      'li',
      { class: 'msg pie answer', 'data-route': 'question' },
      h('strong', {}, 'PIE'),
      r.answer
        ? h('p', { class: 'answer-text' }, r.answer.text)
        : h('p', { class: 'answer-text' }, 'No model is configured; this is what PIE knows (the compiled context):'),
      r.answer
        ? h('details', {}, h('summary', {}, 'Context'), h('pre', { class: 'context' }, r.context))
        : h('pre', { class: 'context' }, r.context),
      sources(r.sources, r.answer?.text ?? null),
      r.answer
        ? h('p', { class: 'muted' }, `Answered by ${shortModel(r.answer.model)}${r.answer.cached ? ' (cached)' : ''}`)
        : null,
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
  );
}
