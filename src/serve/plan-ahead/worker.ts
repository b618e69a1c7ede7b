import { parentPort, workerData } from 'node:worker_threads';
import { compose, createQueryModel } from '../../compose.js';
import { errorMessage } from '../../domain/errors.js';
import { runSleep } from '../../metabolism/sleep.js';
import type { PlanRequest, PlanResult } from './thread.js';

/**
 * The thread a sleep plan is made in ahead of time (thread.ts starts it): it opens the memory read-only as the
 * server's configuration names it, with the server's model choice (a preview says what a model would do), plans a
 * dry run at the instant given, posts the report and ends.
 */
async function main(request: PlanRequest): Promise<PlanResult> {
  const services = await compose({ config: request.config, env: request.env, readonly: true });
  try {
    const llm = (await createQueryModel({ services, llm: request.llm }))?.client ?? null;
    const report = await runSleep({
      store: services.store,
      scope: request.scope,
      dryRun: true,
      now: request.now,
      runId: request.runId,
      newId: services.newId,
      llm,
    });
    return { report };
  } finally {
    await services.close();
  }
}

main(workerData as PlanRequest).then(
  (result) => parentPort?.postMessage(result),
  (error: unknown) => parentPort?.postMessage({ error: errorMessage(error) } satisfies PlanResult),
);
