import { Worker } from 'node:worker_threads';
import type { Config, Env } from '../../config/config.js';
import { PieError } from '../../domain/errors.js';
import type { SleepScope } from '../../metabolism/plan.js';
import type { SleepReport } from '../../metabolism/sleep.js';

/** What the planning thread is given (worker.ts). */
export interface PlanRequest {
  config: Config;
  env: Env;
  /** The server's `--llm` (its model choice shapes what a preview says a model would do). */
  llm: string | undefined;
  scope: SleepScope;
  now: number;
  runId: string;
}

export type PlanResult = { report: SleepReport } | { error: string };

/** Plans a sleep dry run away from the server's thread; aborting ends the thread. */
export type ThreadPlanner = (input: {
  scope: SleepScope;
  now: number;
  runId: string;
  signal: AbortSignal;
}) => Promise<SleepReport>;

/**
 * A planner that runs each dry run in its own worker thread, on its own read-only connection, so the server's
 * thread stays free to answer while a whole memory is read. Run from the TypeScript sources (tests, `tsx`), the
 * thread registers tsx first: a worker does not inherit the loader of the thread that starts it.
 */
export function threadPlanner(input: { config: Config; env: Env; llm: string | undefined }): ThreadPlanner {
  return ({ scope, now, runId, signal }) =>
    new Promise<SleepReport>((resolve, reject) => {
      const workerData: PlanRequest = { ...input, scope, now, runId };
      const worker = startWorker(workerData);
      const onAbort = (): void => void worker.terminate();
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (): void => signal.removeEventListener('abort', onAbort);
      worker.once('message', (result: PlanResult) => {
        settle();
        if ('report' in result) resolve(result.report);
        else reject(new PieError('INTERNAL', result.error));
      });
      worker.once('error', (error) => {
        settle();
        reject(error);
      });
      worker.once('exit', (code) => {
        settle();
        reject(new PieError('INTERNAL', `The sleep planning thread ended (code ${code}) before it planned.`));
      });
    });
}

function startWorker(workerData: PlanRequest): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./worker.js', here), { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./worker.ts', here).href;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
