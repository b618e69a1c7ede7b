import { post, type ChatOut, type Source } from '../api.js';
import { announce, clear, episodeHref, field, h } from '../dom.js';
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
        ? `Questions are answered by ${status.model} from the world model, with sources. Statements are stored as episodes.`
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

function sources(list: Source[]): HTMLElement | null {
  if (list.length === 0) return null;
  return h(
    'div',
    { class: 'sources' },
    h('span', {}, 'Sources: '),
    h('ol', {}, ...list.map((s) => h('li', {}, h('a', { href: episodeHref(s.episodeId) }, `[${s.n}] ${s.title}`)))),
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
      sources(r.sources),
      r.answer
        ? h('p', { class: 'muted' }, `Answered by ${r.answer.model}${r.answer.cached ? ' (cached)' : ''}`)
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
          : `Remembered (episode ${r.episodeId}, ${r.extractor} extraction).`,
    ),
    known ? h('p', {}, `Entities: ${known}`) : null,
    r.changes.length > 0 ? h('ul', {}, ...r.changes.map((c) => h('li', {}, `${c.entity.name}: ${c.summary}`))) : null,
    h('a', { href: episodeHref(r.episodeId) }, 'Open the stored episode'),
  );
}
