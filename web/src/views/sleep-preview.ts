import { postLines, type PhaseOut } from '../api.js';
import { h } from '../dom.js';
import { PROGRESS_AFTER_MS } from '../widgets.js';
import { phaseRow, phasesTable } from './maintenance-render.js';

/** A finished preview: what Apply sends back (the server applies exactly this plan, or refuses with 409). */
export interface PreviewDone {
  previewId: string;
  scope: string;
}

/** A phase not planned yet: its name, and whether it is the one being planned now. */
function waitingRow(name: string, current: boolean): HTMLElement {
  return h(
    'tr',
    { 'data-phase': name, class: 'pending' },
    h('td', {}, name),
    h('td', { class: 'muted' }, current ? 'planning…' : 'waiting'),
    h('td', { class: 'muted' }, '…'),
  );
}

/** Says the preview is a plan kept from the memory as it is now (made ahead, or by an earlier preview). */
function keptNote(iso: string, onReplan: (() => void) | undefined): HTMLElement {
  const at = iso.replace('T', ' ').slice(0, 16);
  const again = h('button', { type: 'button', id: 'sleep-replan' }, 'Plan again now');
  if (onReplan) again.addEventListener('click', onReplan);
  return h(
    'p',
    { class: 'muted', id: 'sleep-kept' },
    `Planned at ${at} UTC and kept: the memory has not changed since, so this is the plan Apply runs. `,
    ...(onReplan ? [again] : []),
  );
}

/**
 * A sleep preview shown phase by phase as the server plans it (POST /api/sleep/preview, JSON lines): every phase is
 * listed at once, each row filled in when its phase arrives; after 300 ms a progress bar counts the phases planned.
 * The card is marked `data-planned` ("kept" for a plan kept from the memory as it is now, with a "Plan again now"
 * button; "now") and `data-complete` when the last line has arrived. Resolves with the preview's identity, or null
 * when the card was taken off the page meanwhile (the request is then abandoned). Errors are thrown.
 */
export async function streamPreview(input: {
  out: HTMLElement;
  scope: string;
  /** Plan now even when a plan kept from the same memory could be shown. */
  replan?: boolean;
  /** What "Plan again now" does, offered beside a kept plan. */
  onReplan?: () => void;
}): Promise<PreviewDone | null> {
  const { out, scope } = input;
  const tbody = h('tbody');
  const bar = h('progress', { 'aria-label': 'Phases of the sleep planned', max: 1, value: 0 });
  const label = h('span', {}, 'Previewing the sleep…');
  const progress = h('p', { class: 'progress', role: 'status', hidden: true }, bar, ' ', label);
  const table = phasesTable([]);
  table.querySelector('tbody')?.replaceWith(tbody);
  table.setAttribute('aria-busy', 'true');
  const card = h(
    'div',
    { class: 'card', 'data-dry-run': 'true', 'data-complete': 'false' },
    h('h3', {}, `Preview of a ${scope} sleep (nothing written)`),
    progress,
    table,
  );
  out.replaceChildren(card);
  const timer = setTimeout(() => progress.removeAttribute('hidden'), PROGRESS_AFTER_MS);
  const abort = new AbortController();
  let names: string[] = [];
  let planned = 0;
  const finished: { done: PreviewDone | null } = { done: null };
  const show = (line: Record<string, unknown>): void => {
    if (!document.body.contains(card)) {
      abort.abort();
      return;
    }
    if (line.type === 'start') {
      card.setAttribute('data-planned', line.kept === true ? 'kept' : 'now');
      if (line.kept === true) progress.after(keptNote(String(line.now), input.onReplan));
      names = (line.phases as string[] | undefined) ?? [];
      bar.max = Math.max(1, names.length);
      tbody.replaceChildren(...names.map((name, i) => waitingRow(name, i === 0)));
    } else if (line.type === 'phase') {
      const index = Number(line.index);
      const row = phaseRow(line.phase as PhaseOut);
      const old = tbody.children[index];
      if (old) old.replaceWith(row);
      else tbody.append(row);
      planned = index + 1;
      tbody.children[planned]?.replaceWith(waitingRow(names[planned] ?? '', true));
      bar.value = planned;
      label.textContent = `Previewing the sleep: ${planned} of ${names.length} phases planned${
        names[planned] ? ` (now ${names[planned]})` : ''
      }…`;
    } else if (line.type === 'done') {
      finished.done = { previewId: String(line.previewId), scope };
    }
  };
  try {
    await postLines('/api/sleep/preview', { scope, replan: input.replan ?? false }, show, abort.signal);
  } catch (error) {
    if (abort.signal.aborted) return null;
    throw error;
  } finally {
    clearTimeout(timer);
  }
  if (abort.signal.aborted) return null;
  if (finished.done === null) throw new Error('The preview ended before all its phases were planned; preview again.');
  progress.remove();
  table.removeAttribute('aria-busy');
  card.setAttribute('data-complete', 'true');
  return finished.done;
}
