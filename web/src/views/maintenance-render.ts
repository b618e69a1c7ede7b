import { post, type PhaseOut, type SleepOut } from '../api.js';
import { announce, date, entityHref, h } from '../dom.js';

/** The Maintenance view's parts: a sleep's report with its phases, the health report, the log and ingest runs. */
export interface Health {
  entities: number;
  byTier: Record<string, number>;
  meanImportance: number;
  isolated: number;
  isolatedShare: number;
  unresolvedContradictions: number;
  procedures: number;
  warnings: string[];
  pending: { importance: number; tiers: number };
}
export interface IngestRunOut {
  id: string;
  status: string;
  source: string;
  startedAt: string;
  finishedAt: string | null;
  batches: { total: number; done: number; failed: number; pending: number };
  episodes: number;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
}
export interface LogEntry {
  id: string;
  kind: string;
  status: string;
  startedAt: string;
  finishedAt: string | null;
  report: { scope?: string; durationMs?: number; phases?: { changes?: number }[]; error?: string };
}

export function report(r: SleepOut, _refresh: () => Promise<void>): HTMLElement {
  return h(
    'div',
    { class: 'card', 'data-dry-run': String(r.dryRun) },
    h('h3', {}, r.dryRun ? `Preview of a ${r.scope} sleep (nothing written)` : `Applied ${r.scope} sleep ${r.runId}`),
    phasesTable(r.phases.map(phaseRow)),
    r.dryRun ? null : h('p', {}, `${r.journaled} rows journaled; undo it from the log below.`),
  );
}

/** The table of a sleep's phases (a report's, or a preview's filled in as its phases arrive). */
export function phasesTable(rows: HTMLElement[]): HTMLElement {
  return h(
    'table',
    { class: 'list', id: 'sleep-phases' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Phase'),
        h('th', { scope: 'col' }, 'Status'),
        h('th', { scope: 'col' }, 'Changes'),
      ),
    ),
    h('tbody', {}, ...rows),
  );
}

/** One phase's row: its name (folding what it does), its status, its changes. */
export function phaseRow(p: PhaseOut): HTMLElement {
  return h(
    'tr',
    { 'data-phase': p.name, 'data-status': p.status },
    h('td', {}, phaseCell(p)),
    h('td', {}, p.status, p.reason ? ` — ${p.reason}` : ''),
    h('td', {}, p.changes),
  );
}

/** A phase's name; with what it did (which entities move tier, merge, decay …) folded under it when there is any. */
function phaseCell(p: PhaseOut): HTMLElement | string {
  const items = p.items ?? [];
  if (items.length === 0) return p.name;
  return h(
    'details',
    { class: 'phase' },
    h('summary', {}, p.name),
    h(
      'ul',
      {},
      ...items.map((item) =>
        h(
          'li',
          {},
          item.text,
          ...item.entities.flatMap((e, i) => [
            i === 0 ? ' ' : ', ',
            h('a', { href: entityHref(e.name, e.id) }, e.name),
          ]),
        ),
      ),
    ),
  );
}

export function healthView(x: Health): HTMLElement {
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `${x.entities.toLocaleString()} entities (${Object.entries(x.byTier)
        .map(([t, n]) => `${n} ${t}`)
        .join(
          ', ',
        )}), mean importance ${x.meanImportance.toFixed(2)}; ${x.isolated} without relationships (${(x.isolatedShare * 100).toFixed(1)}%); ${x.unresolvedContradictions} open contradictions; ${x.procedures} procedures.`,
    ),
    x.warnings.length === 0
      ? h('p', {}, 'All health targets met.')
      : h('ul', {}, ...x.warnings.map((w) => h('li', { class: 'warning' }, w))),
    h(
      'p',
      { class: 'muted' },
      `A sleep now would change ${x.pending.importance} importance scores and ${x.pending.tiers} tiers.`,
    ),
  );
}

export function logView(items: LogEntry[], readOnly: boolean, refresh: () => Promise<void>): HTMLElement {
  if (items.length === 0) return h('p', {}, 'No maintenance runs yet.');
  return h(
    'table',
    { class: 'list' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Run', 'Kind', 'Status', 'Started', 'Changes', 'Took', ''].map((t) => h('th', { scope: 'col' }, t)),
      ),
    ),
    h(
      'tbody',
      {},
      ...items.map((e, i) => {
        const undo =
          !readOnly && e.status === 'completed'
            ? h('button', { type: 'button', class: 'small', 'aria-label': `Undo run ${e.id}` }, 'Undo')
            : null;
        undo?.addEventListener('click', () => {
          if (!confirm(`Undo run ${e.id}? Its changes are reverted.`)) return;
          post('/api/undo', { run_id: e.id })
            .then(() => {
              announce(`Run ${e.id} undone`);
              return refresh();
            })
            .catch((error: unknown) => alert(error instanceof Error ? error.message : String(error)));
        });
        return h(
          'tr',
          {},
          h('td', {}, h('code', {}, e.id)),
          h('td', {}, e.report.scope ? `${e.kind} (${e.report.scope})` : e.kind),
          h('td', {}, e.status, e.report.error ? ` — ${e.report.error}` : ''),
          h('td', {}, date(e.startedAt)),
          h('td', {}, changesCell(e, items.slice(i + 1))),
          h('td', {}, e.report.durationMs === undefined ? '∅' : seconds(e.report.durationMs)),
          h('td', {}, undo),
        );
      }),
    ),
  );
}

/**
 * A sleep's changes summed over its phases, linked to the Diff of the world between the previous sleep and this one
 * (what the history added that this sleep worked on).
 */
function changesCell(e: LogEntry, older: readonly LogEntry[]): HTMLElement | string {
  const phases = e.report.phases;
  if (!phases) return '∅';
  const total = phases.reduce((n, p) => n + (p.changes ?? 0), 0);
  const previous = older.find((o) => o.kind === e.kind && o.status === 'completed');
  if (!previous) return `${total}`;
  const day = (iso: string) => iso.slice(0, 10);
  const href = `#/diff?a=${encodeURIComponent(day(previous.startedAt))}&b=${encodeURIComponent(day(e.startedAt))}`;
  return h(
    'span',
    {},
    `${total} · `,
    h('a', { href, title: 'What changed in the world since the previous sleep' }, 'diff'),
  );
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function runsView(items: IngestRunOut[]): HTMLElement {
  if (items.length === 0) return h('p', {}, 'No ingest runs yet (pie ingest <export>).');
  return h(
    'table',
    { class: 'list', id: 'ingest-runs' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['Started', 'Source', 'Status', 'Batches (done / failed / pending)', 'Tokens in / out', 'Cost'].map((t) =>
          h('th', { scope: 'col' }, t),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...items.map((r) =>
        h(
          'tr',
          {},
          h('td', {}, date(r.startedAt)),
          h('td', {}, r.source),
          h('td', {}, r.status),
          h(
            'td',
            {},
            h('progress', {
              max: Math.max(1, r.batches.total),
              value: r.batches.done,
              'aria-label': `${r.batches.done} of ${r.batches.total} batches done`,
            }),
            ` ${r.batches.done} / ${r.batches.failed} / ${r.batches.pending} of ${r.batches.total}`,
          ),
          h('td', {}, `${r.tokensIn.toLocaleString()} / ${r.tokensOut.toLocaleString()}`),
          h('td', {}, `$${r.costUsd.toFixed(4)}`),
        ),
      ),
    ),
  );
}
