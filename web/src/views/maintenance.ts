import { download, get, post, type SleepOut } from '../api.js';
import { announce, clear, field, h } from '../dom.js';
import {
  healthView,
  logView,
  report,
  runsView,
  type Health,
  type IngestRunOut,
  type LogEntry,
} from './maintenance-render.js';
import { serverStatus } from '../state.js';
import { PROGRESS_AFTER_MS, withProgress } from '../widgets.js';
import { streamPreview } from './sleep-preview.js';

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
    result.prepend(staleNote());
  });
  const staleNote = (): HTMLElement =>
    h('p', { class: 'muted', id: 'sleep-stale' }, 'The scope changed: preview again before applying.');

  async function runSleep(dryRun: boolean, replan = false): Promise<void> {
    if (!dryRun && shown === null) return;
    preview.disabled = true;
    apply.disabled = true;
    try {
      if (dryRun) {
        shown = null;
        const previewed = scope.value;
        const done = await streamPreview({
          out: result,
          scope: previewed,
          replan,
          onReplan: () => void runSleep(true, true),
        });
        if (done === null) return;
        // The menu changed while the preview was planned: it is shown, but Apply waits for a preview of the new scope.
        if (scope.value !== previewed) {
          result.prepend(staleNote());
        } else {
          shown = { id: done.previewId, scope: done.scope };
        }
        announce('Sleep preview ready');
      } else {
        const body = { scope: shown?.scope, dry_run: false, preview_id: shown?.id };
        const r = await withProgress(result, 'Applying the sleep…', post<SleepOut>('/api/sleep', body));
        shown = null;
        clear(result, report(r, refresh));
        announce(`Sleep ${r.runId} applied`);
        await refresh();
      }
    } catch (error) {
      shown = null;
      clear(result, h('p', { class: 'error', role: 'alert' }, error instanceof Error ? error.message : String(error)));
    } finally {
      preview.disabled = false;
      apply.disabled = shown === null || readOnly;
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
