import { get, post } from '../api.js';
import { announce, clear, errorBox, formError, h } from '../dom.js';
import { serverStatus } from '../state.js';
import {
  contradictionCard,
  findingCard,
  FINDING_TITLES,
  mergeCard,
  taskCard,
  type Choice,
  type ContradictionOut,
  type FindingOut,
  type MergeOut,
  type TaskOut,
} from './inbox-items.js';

interface Page<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}
interface Decision {
  runId: string;
  kind: string;
  message: string;
}
type Card = { body: HTMLElement[]; choices: Choice[]; title: string };

const PAGE = 20;

/** The count beside the Inbox link: open contradictions, merge pairs and other sleep tasks (not the audit). */
export async function refreshInboxCount(): Promise<void> {
  const badge = document.getElementById('inbox-count');
  if (!badge) return;
  try {
    const c = await get<{ contradictions: number; merges: number; tasks: number; total: number }>('/api/inbox/counts');
    badge.textContent = c.total > 0 ? String(c.total) : '';
    badge.hidden = c.total === 0;
    badge.title = `${c.contradictions} contradictions, ${c.merges} merge pairs, ${c.tasks} sleep tasks wait for you`;
  } catch (error) {
    // The count is a hint: without it the link still works (the inbox shows its own errors).
    badge.hidden = true;
    badge.title = error instanceof Error ? error.message : String(error);
  }
}

/** Only the latest decision of each kind can be undone (pie undo's rule); earlier ones lose their Undo button. */
const undoable = new Map<string, HTMLElement>();

function undoControl(d: Decision, reload: () => Promise<void>): HTMLElement {
  const slot = h('span', { class: 'inbox-undo' });
  const button = h('button', { type: 'button', class: 'small', 'aria-label': `Undo: ${d.message}` }, 'Undo');
  const failure = h('span', {});
  button.addEventListener('click', () => {
    button.disabled = true;
    button.textContent = 'Undoing…';
    post('/api/undo', { run_id: d.runId })
      .then(async () => {
        undoable.delete(d.kind);
        announce(`Undone: ${d.message}`);
        const section = slot.closest('section');
        await reload();
        section?.querySelector<HTMLElement>('h2')?.focus();
        await refreshInboxCount();
      })
      .catch((error: unknown) => {
        button.disabled = false;
        button.textContent = 'Undo';
        failure.replaceChildren(formError(error));
      });
  });
  const previous = undoable.get(d.kind);
  if (previous && document.body.contains(previous)) {
    previous.replaceChildren(
      h('span', { class: 'muted' }, 'To undo this, undo the later decisions first (the Maintenance log lists them).'),
    );
  }
  undoable.set(d.kind, slot);
  slot.append(button, failure);
  return slot;
}

/** A card with its decision buttons: while one runs all are disabled; an error stays next to them. */
function itemCard(
  card: Card,
  readOnly: boolean,
  hooks: { reload: () => Promise<void>; decided: () => void },
): HTMLElement {
  const li = h('li', { class: 'card inbox-item', 'data-title': card.title }, ...card.body);
  if (readOnly || card.choices.length === 0) return li;
  const status = h('div', { class: 'inbox-status', 'aria-live': 'polite' });
  const buttons = card.choices.map((c, i) =>
    h('button', { type: 'button', class: i === 0 ? '' : 'secondary', title: c.description }, c.label),
  );
  const group = h('div', { class: 'inbox-actions', role: 'group', 'aria-label': `Decide: ${card.title}` }, ...buttons);
  buttons.forEach((button, i) => {
    const choice = card.choices[i];
    if (!choice) return;
    button.addEventListener('click', () => {
      for (const b of buttons) b.disabled = true;
      const label = button.textContent ?? '';
      button.textContent = 'Working…';
      li.setAttribute('aria-busy', 'true');
      status.replaceChildren();
      post<Decision>(choice.path, choice.body)
        .then((d) => {
          li.classList.add('inbox-done');
          const result = h(
            'p',
            { class: 'inbox-result', tabindex: -1 },
            '✓ ',
            d.message,
            ' ',
            h('span', { class: 'muted' }, `Journaled as run ${d.runId}.`),
            ' ',
            undoControl(d, hooks.reload),
          );
          clear(li, result);
          // The clicked button is gone: focus stays in the card, on what was done (Undo is the next stop).
          result.focus();
          hooks.decided();
          announce(d.message);
          return refreshInboxCount();
        })
        .catch((error: unknown) => {
          button.textContent = label;
          for (const b of buttons) b.disabled = false;
          status.replaceChildren(formError(error));
        })
        .finally(() => li.removeAttribute('aria-busy'));
    });
  });
  li.append(group, status);
  return li;
}

interface SectionSpec<T> {
  id: string;
  title: string;
  intro: string;
  empty: string;
  load: (offset: number) => Promise<Page<T>>;
  card: (item: T) => Card;
}

/** A section: heading with its count, its items (a page at a time), its empty state. */
function section<T>(spec: SectionSpec<T>, readOnly: boolean): { el: HTMLElement; load: () => Promise<void> } {
  const el = h('section', { id: spec.id, 'aria-labelledby': `${spec.id}-h` });
  const badge = h('span', { class: 'badge' });
  const heading = (count: string) => {
    badge.textContent = count;
    return h('h2', { id: `${spec.id}-h`, tabindex: -1 }, spec.title, ' ', badge);
  };
  // A decision taken here leaves one item fewer (an undo reloads the section).
  const decided = () => (badge.textContent = String(Math.max(0, Number(badge.textContent) - 1)));
  async function load(): Promise<void> {
    clear(el, heading('…'), h('p', { class: 'muted', role: 'status' }, 'Loading…'));
    try {
      const first = await spec.load(0);
      const list = h('ul', { class: 'inbox-list' });
      const more = h('button', { type: 'button', class: 'secondary' }, 'Show more');
      const add = (page: Page<T>) => {
        for (const item of page.items) list.append(itemCard(spec.card(item), readOnly, { reload: load, decided }));
        const shown = page.offset + page.items.length;
        more.hidden = shown >= page.total;
        more.textContent = `Show more (${shown} of ${page.total} shown)`;
      };
      more.addEventListener('click', () => {
        more.disabled = true;
        spec
          .load(list.children.length)
          .then(add)
          .catch((error: unknown) => more.after(formError(error)))
          .finally(() => (more.disabled = false));
      });
      add(first);
      clear(
        el,
        heading(String(first.total)),
        h('p', { class: 'muted' }, spec.intro),
        first.total === 0 ? h('p', { class: 'inbox-empty' }, spec.empty) : list,
        more,
      );
    } catch (error) {
      clear(el, heading('!'), errorBox(error));
    }
  }
  return { el, load };
}

/** The audit's findings (in the audit's order: by kind), each labelled with its kind. */
function auditSection(readOnly: boolean): { el: HTMLElement; load: () => Promise<void> } {
  return section<FindingOut>(
    {
      id: 'inbox-audit',
      title: 'Audit findings',
      intro:
        'What pie audit finds: junk names, likely duplicates, entities without a source, changes that changed nothing, conflicting facts, overdue commitments. A safe fix is the one pie audit --fix would apply; the others are for you to judge.',
      empty:
        'The audit finds nothing to fix. Junk names, likely duplicates, overdue commitments and facts that conflict would appear here.',
      load: (offset) => get<Page<FindingOut>>('/api/inbox/audit', { offset, limit: 50 }),
      card: (f) => {
        const c = findingCard(f);
        return { ...c, body: [h('p', { class: 'badge' }, FINDING_TITLES[f.kind] ?? f.kind), ...c.body] };
      },
    },
    readOnly,
  );
}

/** The Inbox: the maintenance that needs a person, each decision journaled and undoable. */
export async function inboxView(main: HTMLElement): Promise<void> {
  const readOnly = serverStatus()?.readOnly ?? false;
  const page =
    <T>(key: 'contradictions' | 'merges' | 'tasks') =>
    (offset: number) =>
      get<Record<string, Page<T>>>('/api/inbox', { section: key, offset, limit: PAGE }).then((r) => r[key] as Page<T>);
  const sections = [
    section<ContradictionOut>(
      {
        id: 'inbox-contradictions',
        title: 'Contradictions',
        intro:
          'A conversation said something that conflicts with what was known, and the sleep cycle could not settle it. Keep the new claim, keep the old one, or say both were true at different times (it changed).',
        empty:
          'No open contradictions. When a project pivots against its earlier plan or a belief is reversed and the sleep cycle cannot settle it, both claims appear here with their conversations.',
        load: page<ContradictionOut>('contradictions'),
        card: contradictionCard,
      },
      readOnly,
    ),
    section<MergeOut>(
      {
        id: 'inbox-merges',
        title: 'Merge pairs',
        intro:
          'Two entities that may be one: ingestion or the sleep cycle found them close but could not confirm it. Merging keeps both histories; keeping apart stops PIE proposing the pair again.',
        empty:
          'No merge pairs to review. When two names look like one thing (“UMD” and “University of Maryland”) and no model confirmed it, the pair appears here.',
        load: page<MergeOut>('merges'),
        card: mergeCard,
      },
      readOnly,
    ),
    section<TaskOut>(
      {
        id: 'inbox-tasks',
        title: 'Sleep tasks',
        intro:
          'Work left for the sleep cycle that a person can close sooner: important entities no conversation mentioned for months, facts recorded with low confidence. A sleep closes them too.',
        empty:
          'No sleep tasks waiting. Reviews of stale entities and low-confidence facts left by ingestion and questions would appear here.',
        load: page<TaskOut>('tasks'),
        card: taskCard,
      },
      readOnly,
    ),
    auditSection(readOnly),
  ];
  clear(
    main,
    h('h1', {}, 'Inbox'),
    h(
      'p',
      { class: 'muted' },
      'The maintenance PIE leaves for you. Every decision is one journaled run you can undo: here, right after taking it; later from the Maintenance log or with pie undo <run> (latest first).',
    ),
    readOnly ? h('p', { class: 'warning' }, 'This server is read-only: you can look, not decide.') : null,
    ...sections.map((s) => s.el),
  );
  // The audit reads the whole memory (tens of seconds on a large one, during which the server answers nothing
  // else): the other sections are the page. On a small memory the audit's findings follow in their own section; on
  // a large one the section offers to run it.
  const audit = sections.at(-1);
  await Promise.all(sections.slice(0, -1).map((s) => s.load()));
  if (!audit) return;
  if ((serverStatus()?.stats.entities ?? 0) <= AUDIT_AUTO_ENTITIES) {
    void audit.load();
    return;
  }
  const run = h('button', { type: 'button', class: 'secondary', id: 'inbox-audit-run' }, 'Run the audit');
  run.addEventListener('click', () => void audit.load());
  clear(
    audit.el,
    h('h2', { id: 'inbox-audit-h', tabindex: -1 }, 'Audit findings'),
    h(
      'p',
      { class: 'muted' },
      `The audit reads the whole memory (${(serverStatus()?.stats.entities ?? 0).toLocaleString()} entities): on one this size it takes a while, and the server answers nothing else meanwhile.`,
    ),
    run,
  );
}

/** Memories up to this many entities are audited as the Inbox opens; larger ones on request. */
const AUDIT_AUTO_ENTITIES = 5000;
