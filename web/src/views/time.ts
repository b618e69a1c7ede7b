import { get, type Period } from '../api.js';
import { clear, field, formError, h } from '../dom.js';
import { withProgress } from '../widgets.js';
import type { DiffOut, SnapshotOut } from '../world-shapes.js';
import { renderDiff } from './diff-render.js';
import { renderSnapshot } from './snapshot-render.js';

/** Items per kind of change: a first look, and "show more" (the API's most). */
const DIFF_LIMIT = 20;
const DIFF_MORE = 100;
/** Entities in a snapshot: a first look, and "show more" (the API's most). */
const SNAPSHOT_LIMIT = 40;
const SNAPSHOT_MORE = 200;

async function periodList(): Promise<HTMLDataListElement> {
  const { items } = await get<{ items: Period[] }>('/api/periods');
  return h(
    'datalist',
    { id: 'periods' },
    ...items.map((p) => h('option', { value: p.name })),
    h('option', { value: 'now' }),
  );
}

/** A request started before it is awaited: its failure is handled where it is awaited, not reported as unhandled. */
function early<T>(request: Promise<T>): Promise<T> {
  request.catch(() => undefined);
  return request;
}

/** Two periods (or dates) and what changed between their ends. */
export async function diffView(main: HTMLElement, _arg: string, query: URLSearchParams): Promise<void> {
  const a = query.get('a') ?? '';
  const b = query.get('b') ?? '';
  const limit = Number(query.get('limit')) === DIFF_MORE ? DIFF_MORE : DIFF_LIMIT;
  const diffHref = (x: string, y: string): string => `#/diff?a=${encodeURIComponent(x)}&b=${encodeURIComponent(y)}`;
  if (a && b) document.title = `Diff: ${a} → ${b} — PIE`;
  const inA = h('input', {
    type: 'text',
    list: 'periods',
    value: a,
    required: true,
    placeholder: 'a period or 2024-05-01',
  });
  const inB = h('input', {
    type: 'text',
    list: 'periods',
    value: b,
    required: true,
    placeholder: 'a period, a date or now',
  });
  const out = h('section', { 'aria-live': 'polite', id: 'diff-result' });
  // Both asked for at once (the short one first: the server answers one at a time), not the diff after the list.
  const periods = periodList();
  const diffing = a && b ? early(get<{ text: string; diff: DiffOut }>('/api/diff', { a, b, limit })) : null;
  clear(
    main,
    h('h1', {}, 'What changed between two periods'),
    await periods,
    h(
      'form',
      {
        class: 'row',
        onsubmit: (e: Event) => {
          e.preventDefault();
          location.hash = diffHref(inA.value.trim(), inB.value.trim());
        },
      },
      field('From (period or date)', inA),
      field('To (period, date or now)', inB),
      h('button', { type: 'submit' }, 'Compare'),
    ),
    out,
  );
  if (diffing) {
    try {
      const r = await withProgress(out, `Comparing ${a} with ${b}…`, diffing);
      const moreHref = limit < DIFF_MORE ? `${diffHref(a, b)}&limit=${DIFF_MORE}` : null;
      clear(out, ...renderDiff({ diff: r.diff, text: r.text, moreHref }));
    } catch (error) {
      // The form keeps what was typed; a suggestion replaces the side the server could not read.
      const bad = /"([^"]+)"/.exec(error instanceof Error ? error.message : '')?.[1];
      clear(
        out,
        formError(error, (pick) => {
          const aValue = bad === b ? a : bad === a ? pick : a;
          const bValue = bad === b ? pick : b;
          location.hash = diffHref(aValue, bValue);
        }),
      );
    }
  }
}

/** The world at a date or at the end of a period. */
export async function snapshotView(main: HTMLElement, _arg: string, query: URLSearchParams): Promise<void> {
  const at = query.get('at') ?? '';
  const type = query.get('type') ?? '';
  const limit = Number(query.get('limit')) === SNAPSHOT_MORE ? SNAPSHOT_MORE : SNAPSHOT_LIMIT;
  const snapshotHref = (x: string, t: string): string =>
    `#/snapshot?at=${encodeURIComponent(x)}&type=${encodeURIComponent(t)}`;
  document.title = `Snapshot: ${at || 'now'}${type ? ` (${type})` : ''} — PIE`;
  const inAt = h('input', {
    type: 'text',
    list: 'periods',
    value: at,
    placeholder: '2024-05-01, May 2024 or a period',
  });
  const inType = h('input', { type: 'text', value: type, placeholder: 'any' });
  const out = h('section', { 'aria-live': 'polite', id: 'snapshot-result' });
  const periods = periodList();
  const reading = early(
    get<{ text: string; snapshot: SnapshotOut }>('/api/snapshot', {
      at: at || undefined,
      type: type || undefined,
      limit,
    }),
  );
  clear(
    main,
    h('h1', {}, 'The world at a moment'),
    await periods,
    h(
      'form',
      {
        class: 'row',
        onsubmit: (e: Event) => {
          e.preventDefault();
          location.hash = snapshotHref(inAt.value.trim(), inType.value.trim());
        },
      },
      field('At (date, month or period; empty = now)', inAt),
      field('Type', inType),
      h('button', { type: 'submit' }, 'Show'),
    ),
    out,
  );
  try {
    const r = await withProgress(out, `Reading the world ${at ? `at ${at}` : 'now'}…`, reading);
    const moreHref = limit < SNAPSHOT_MORE ? `${snapshotHref(at, type)}&limit=${SNAPSHOT_MORE}` : null;
    clear(
      out,
      ...renderSnapshot({ snapshot: r.snapshot, text: r.text, typeHref: (t) => snapshotHref(at, t), moreHref }),
    );
  } catch (error) {
    clear(
      out,
      formError(error, (pick) => {
        location.hash = snapshotHref(pick, type);
      }),
    );
  }
}
