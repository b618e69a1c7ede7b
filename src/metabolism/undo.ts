import { PieError } from '../domain/errors.js';
import { MAINTAINED_TABLES, type MaintainedTable, type RawRow } from '../ports/maintenance-store.js';
import { isDeepStrictEqual } from 'node:util';
import type { JournalEntry, MaintenanceLogEntry, WorldStore } from '../ports/world-store.js';
import { undoneRow } from './undo-merge.js';

export interface UndoReport {
  runId: string;
  restored: number;
  /** Rows changed after the run whose later changes a forced undo kept (what the run changed in them went back). */
  kept: number;
  /** Journal rows `pie forget` removed from this run (what they changed stays as it is: forgotten). */
  forgotten: number;
  undoneAt: number;
}

/** How many of a run's journal rows a forget removed (recorded in its report by the forget). */
function forgottenRows(report: Record<string, unknown>): number {
  const removed = (report.forget as { journalRowsRemoved?: unknown } | undefined)?.journalRowsRemoved;
  return typeof removed === 'number' ? removed : 0;
}

const LOOKBACK = 1000;

function isTable(name: string): name is MaintainedTable {
  return (MAINTAINED_TABLES as readonly string[]).includes(name);
}

function recentIds(log: MaintenanceLogEntry[]): string {
  if (log.length === 0) return 'No maintenance runs are recorded yet.';
  const ids = log.filter((e) => e.status !== 'undone').slice(0, 5);
  return ids.length === 0
    ? `Every recorded run is undone already (the latest: ${log[0]?.id ?? ''}); pie health lists them.`
    : `Recent runs: ${ids.map((e) => `${e.id} (${e.kind}, ${e.status})`).join(', ')}.`;
}

/**
 * Reverts one maintenance run (a sleep, or a KIP command: any run that journaled its rows): every journaled row goes
 * back to its `before` image, newest change first, in one transaction; the run's log entry becomes "undone". Only the
 * latest run of its kind that is still in effect can be undone, and only while every row it changed is as it left
 * it, so later changes are never silently lost; `force` undoes it over later changes, keeping them (undoneRow).
 */
export async function undoRun(input: {
  store: WorldStore;
  runId: string;
  now: number;
  /** Undo even over rows that changed after the run: what the run changed goes back, the later changes stay. */
  force?: boolean;
}): Promise<UndoReport> {
  return input.store.transaction(async (tx) => {
    const log = await tx.maintenance.list(LOOKBACK);
    const entry = log.find((e) => e.id === input.runId);
    if (entry === undefined) {
      throw new PieError('NOT_FOUND', `No maintenance run "${input.runId}". ${recentIds(log)}`);
    }
    if (entry.status === 'undone') throw new PieError('CONFLICT', `Run ${entry.id} has already been undone.`);
    if (entry.status !== 'completed') {
      throw new PieError(
        'CONFLICT',
        `Run ${entry.id} ${entry.status === 'failed' ? 'failed and changed nothing' : `is ${entry.status}`}; there is nothing to undo.`,
      );
    }
    const later = log.find(
      (e) => e.id !== entry.id && e.kind === entry.kind && e.status === 'completed' && isAfter(e, entry, log),
    );
    if (later !== undefined) {
      throw new PieError(
        'CONFLICT',
        `Run ${later.id} ran after ${entry.id} and may build on it; undo ${later.id} first.`,
      );
    }
    const journal = await tx.journal.forRun(entry.id);
    const force = input.force === true;
    if (!force) await assertUnchangedSince(tx, entry.id, journal);
    const kept = new Set<string>();
    for (const change of [...journal].reverse()) {
      if (!isTable(change.table)) {
        throw new PieError('DB_CORRUPT', `The journal of run ${entry.id} names an unknown table "${change.table}".`);
      }
      const before = change.before as RawRow | null;
      let row = before;
      if (force) {
        // Forced over later changes: the run's changes go back, the later ones stay (undo-merge.ts).
        const now = await tx.upkeep.getRow({ table: change.table, id: change.rowId });
        row = undoneRow({ before, after: change.after as RawRow | null, now });
        if (!isDeepStrictEqual(row, before)) kept.add(`${change.table}\u0000${change.rowId}`);
      }
      await tx.upkeep.putRow({ table: change.table, id: change.rowId, row });
    }
    await tx.maintenance.update({
      id: entry.id,
      finishedAt: entry.finishedAt ?? input.now,
      status: 'undone',
      report: { ...entry.report, undoneAt: input.now, restored: journal.length },
    });
    return {
      runId: entry.id,
      restored: journal.length,
      kept: kept.size,
      forgotten: forgottenRows(entry.report),
      undoneAt: input.now,
    };
  });
}

/** Log order is newest first; a run listed before `entry` started after it (or at the same time, later). */
/** The log is newest first in recording order; the configured "now" of a run (startedAt) is data only. */
function isAfter(candidate: MaintenanceLogEntry, entry: MaintenanceLogEntry, log: MaintenanceLogEntry[]): boolean {
  return log.indexOf(candidate) < log.indexOf(entry);
}

/** Every row must still be as the run left it; otherwise undo would silently drop later changes (ingest, edits). */
async function assertUnchangedSince(tx: WorldStore, runId: string, journal: JournalEntry[]): Promise<void> {
  const last = new Map<string, JournalEntry>();
  for (const change of journal) last.set(`${change.table}\u0000${change.rowId}`, change);
  const changed: string[] = [];
  for (const change of last.values()) {
    if (!isTable(change.table)) continue;
    const now = await tx.upkeep.getRow({ table: change.table, id: change.rowId });
    if (!isDeepStrictEqual(now, change.after)) changed.push(`${change.table} ${change.rowId}`);
  }
  if (changed.length > 0) {
    throw new PieError(
      'CONFLICT',
      `${changed.length} row(s) changed after run ${runId} (e.g. ${changed.slice(0, 3).join(', ')}); undoing it would lose those changes. Run pie undo ${runId} --force to restore anyway.`,
      { details: { changed } },
    );
  }
}
