import type { MaintainedTable } from '../ports/maintenance-store.js';
import type { JournalEntry, WorldStore } from '../ports/world-store.js';

/**
 * Records every row a maintenance run changes, with its exact stored image before and after, in the transaction
 * that makes the change (`tx`), so that `undo` can put every row back.
 */
export class RunJournal {
  private seq = 0;

  constructor(
    private readonly tx: WorldStore,
    readonly runId: string,
    private readonly now: number,
  ) {}

  get entries(): number {
    return this.seq;
  }

  /** Runs `mutate` (which changes the row `table`/`id` through the store) and journals the row's before/after. */
  async change(table: MaintainedTable, id: string, mutate: () => Promise<void>): Promise<void> {
    const before = await this.tx.upkeep.getRow({ table, id });
    await mutate();
    const after = await this.tx.upkeep.getRow({ table, id });
    const op: JournalEntry['op'] = before === null ? 'insert' : after === null ? 'delete' : 'update';
    await this.tx.journal.append({
      runId: this.runId,
      seq: this.seq,
      table,
      rowId: id,
      op,
      before,
      after,
      at: this.now,
    });
    this.seq += 1;
  }
}

/**
 * One maintenance run outside a sleep (an audit fix, a person's decision in the inbox): in one transaction, a log
 * entry of `kind` (running, then completed with the report `work` returns) and a journal for `work`'s changes, so
 * `pie undo <runId>` reverts it like a sleep. When `work` throws, nothing is kept, the log entry included.
 */
export async function journaledRun<T extends Record<string, unknown>>(input: {
  store: WorldStore;
  runId: string;
  kind: string;
  now: number;
  work: (tx: WorldStore, journal: RunJournal) => Promise<T>;
}): Promise<T & { journaled: number }> {
  const { runId, now } = input;
  return input.store.transaction(async (tx) => {
    await tx.maintenance.append({
      id: runId,
      kind: input.kind,
      startedAt: now,
      finishedAt: null,
      status: 'running',
      report: {},
    });
    const journal = new RunJournal(tx, runId, now);
    const result = await input.work(tx, journal);
    const report = { ...result, journaled: journal.entries };
    await tx.maintenance.update({ id: runId, finishedAt: now, status: 'completed', report: { ...report } });
    return report;
  });
}
