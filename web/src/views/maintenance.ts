import { download, get, post, type SleepOut } from '../api.js';
import { announce, clear, date, field, h } from '../dom.js';
import { serverStatus } from '../state.js';
import { PROGRESS_AFTER_MS, withProgress } from '../widgets.js';

interface Health {
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
interface IngestRunOut {
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
interface LogEntry {
  id: string;
  kind: string;
  status: string;
  startedAt: string;
  finishedAt: string | null;
}

/** Sleep (dry run first, then apply), undo, the health report and the maintenance log. */
export async function maintenanceView(main: HTMLElement): Promise<void> {
  const readOnly = serverStatus()?.readOnly ?? false;
  const scope = h(
    'select',
    {},
    h('option', { value: 'full' }, 'full (every phase: merges, contradictions, commitments, dreams …)'),
    h('option', { value: 'quick' }, 'quick (importance, tiers, sleep tasks)'),
    h('option', { value: 'daydream' }, 'daydream (importance only)'),
  );
  const result = h('section', { id: 'sleep-result', 'aria-live': 'polite' });
  const healthBox = h('section', { 'aria-labelledby': 'health-h' });
  const logBox = h('section', { 'aria-labelledby': 'log-h' });
  const runsBox = h('section', { 'aria-labelledby': 'runs-h', 'aria-live': 'polite' });
  const backup = h('button', { type: 'button', id: 'backup' }, 'Download a backup');
  const backupStatus = h('p', { id: 'backup-status', role: 'status' });
  backup.addEventListener('click', () => {
    backup.disabled = true;
    // A backup of a large memory takes seconds: say so after 300 ms; an error stays next to the button.
    const timer = setTimeout(
      () => clear(backupStatus, h('progress', { 'aria-label': 'Writing the backup' }), ' Writing the backup…'),
      PROGRESS_AFTER_MS,
    );
    download('/api/backup')
      .then(() => {
        clear(backupStatus, 'Backup downloaded.');
        announce('Backup downloaded');
      })
      .catch((error: unknown) =>
        clear(backupStatus, h('span', { class: 'error' }, error instanceof Error ? error.message : String(error))),
      )
      .finally(() => {
        clearTimeout(timer);
        backup.disabled = false;
      });
  });
  const preview = h('button', { type: 'button', id: 'sleep-preview' }, 'Preview (dry run)');
  preview.addEventListener('click', () => void runSleep(true));
  const apply = h('button', { type: 'button', id: 'sleep-apply', disabled: true, class: 'danger' }, 'Apply this sleep');
  apply.addEventListener('click', () => void runSleep(false));
  /** The preview on screen: Apply applies exactly it (its scope and identity), never what the menu says now. */
  let shown: { id: string; scope: string } | null = null;
  scope.addEventListener('change', () => {
    if (shown === null) return;
    shown = null;
    apply.disabled = true;
    result.prepend(h('p', { class: 'muted', id: 'sleep-stale' }, 'The scope changed: preview again before applying.'));
  });

  async function runSleep(dryRun: boolean): Promise<void> {
    if (!dryRun && shown === null) return;
    preview.disabled = true;
    apply.disabled = true;
    try {
      const body = dryRun
        ? { scope: scope.value, dry_run: true }
        : { scope: shown?.scope, dry_run: false, preview_id: shown?.id };
      const r = await withProgress(
        result,
        dryRun ? 'Previewing the sleep (a full one can take several seconds)…' : 'Applying the sleep…',
        post<SleepOut>('/api/sleep', body),
      );
      shown = dryRun && r.previewId ? { id: r.previewId, scope: r.scope } : null;
      clear(result, report(r, refresh));
      announce(dryRun ? 'Sleep preview ready' : `Sleep ${r.runId} applied`);
      apply.disabled = shown === null || readOnly;
      if (!dryRun) await refresh();
    } catch (error) {
      clear(result, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error)));
    } finally {
      preview.disabled = false;
    }
  }

  async function refresh(): Promise<void> {
    const [health, log] = await Promise.all([
      get<Health>('/api/health'),
      get<{ items: LogEntry[] }>('/api/maintenance', { limit: 20 }),
    ]);
    clear(healthBox, h('h2', { id: 'health-h' }, 'Health'), healthView(health));
    clear(logBox, h('h2', { id: 'log-h' }, 'Maintenance log'), logView(log.items, readOnly, refresh));
    await refreshRuns();
  }

  /** Ingest runs; while one is running (a pie ingest elsewhere), polled every 5 s as long as this page is shown. */
  async function refreshRuns(): Promise<void> {
    const runs = await get<{ items: IngestRunOut[] }>('/api/ingest-runs', { limit: 10 });
    clear(runsBox, h('h2', { id: 'runs-h' }, 'Ingest runs'), runsView(runs.items));
    if (runs.items.some((r) => r.status === 'running')) {
      setTimeout(() => {
        if (document.body.contains(runsBox)) void refreshRuns();
      }, 5000);
    }
  }

  clear(
    main,
    h('h1', {}, 'Maintenance'),
    h('h2', {}, 'Sleep cycle'),
    h(
      'p',
      { class: 'muted' },
      'A sleep recomputes importance, moves entities between tiers (summarize, archive), merges duplicates, settles contradictions, sweeps commitments, links entities often mentioned together and mines procedures; with a model it also confirms merges and stores insights. Preview it first (a preview calls no model); an applied sleep is journaled and can be undone.',
    ),
    h(
      'div',
      { class: 'row' },
      field('Scope', scope),
      preview,
      readOnly ? h('span', { class: 'muted' }, 'Read-only server: preview only.') : apply,
    ),
    result,
    healthBox,
    runsBox,
    logBox,
    h('h2', {}, 'Backup'),
    h('p', { class: 'muted' }, 'The whole memory in the pie backup format (restore it with pie restore <file>).'),
    backup,
    backupStatus,
  );
  await refresh();
}

function report(r: SleepOut, _refresh: () => Promise<void>): HTMLElement {
  return h(
    'div',
    { class: 'card', 'data-dry-run': String(r.dryRun) },
    h('h3', {}, r.dryRun ? `Preview of a ${r.scope} sleep (nothing written)` : `Applied ${r.scope} sleep ${r.runId}`),
    h(
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
      h(
        'tbody',
        {},
        ...r.phases.map((p) =>
          h(
            'tr',
            {},
            h('td', {}, p.name),
            h('td', {}, p.status, p.reason ? ` — ${p.reason}` : ''),
            h('td', {}, p.changes),
          ),
        ),
      ),
    ),
    r.dryRun ? null : h('p', {}, `${r.journaled} rows journaled; undo it from the log below.`),
  );
}

function healthView(x: Health): HTMLElement {
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

function logView(items: LogEntry[], readOnly: boolean, refresh: () => Promise<void>): HTMLElement {
  if (items.length === 0) return h('p', {}, 'No maintenance runs yet.');
  return h(
    'table',
    { class: 'list' },
    h('thead', {}, h('tr', {}, ...['Run', 'Kind', 'Status', 'Started', ''].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      ...items.map((e) => {
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
          h('td', {}, e.kind),
          h('td', {}, e.status),
          h('td', {}, date(e.startedAt)),
          h('td', {}, undo),
        );
      }),
    ),
  );
}

function runsView(items: IngestRunOut[]): HTMLElement {
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
