import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PieError, errorMessage } from '../domain/errors.js';
import { extractionResultSchema, type ExtractionResult } from '../extract/result.js';
import type { Clock } from '../ports/clock.js';
import type { WorldStore } from '../ports/world-store.js';
import { recordBatchObservations } from '../pyramid/from-batch.js';
import type { MatchVerifier } from '../resolve/resolver.js';
import { applyExtraction } from '../world/apply-batch.js';
import { loadResolution } from './name-index-loader.js';

export interface ApplyFileReport {
  runId: string;
  lines: number;
  applied: number;
  invalid: { line: number; reason: string }[];
  failed: { line: number; reason: string }[];
  mutations: Record<string, number>;
}

/**
 * `pie apply`: pre-computed ExtractionResults, one JSON object per line (e.g. from a provider's batch API).
 * Invalid lines are reported by number and skipped; valid results are applied in chronological order of their
 * batch dates, each in its own transaction, so a bad line or a failure never touches the rest.
 */
export async function applyResultsFile(input: {
  store: WorldStore;
  path: string;
  clock: Clock;
  newId: () => string;
  verifier?: MatchVerifier | undefined;
  onProgress?: (done: number, total: number) => void;
}): Promise<ApplyFileReport> {
  const { store, clock } = input;
  if (!existsSync(input.path)) {
    throw new PieError(
      'FILE_NOT_FOUND',
      `There is no file at ${input.path}; give the path of a .jsonl file of extraction results.`,
    );
  }
  const report: ApplyFileReport = {
    runId: input.newId(),
    lines: 0,
    applied: 0,
    invalid: [],
    failed: [],
    mutations: {},
  };
  const valid: { line: number; result: ExtractionResult }[] = [];
  const reader = createInterface({ input: createReadStream(input.path, 'utf8'), crlfDelay: Infinity });
  let n = 0;
  for await (const text of reader) {
    n++;
    if (text.trim() === '') continue;
    report.lines++;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      report.invalid.push({ line: n, reason: 'not valid JSON' });
      continue;
    }
    const parsed = extractionResultSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      report.invalid.push({
        line: n,
        reason: issue ? `${issue.path.join('.') || 'result'}: ${issue.message}` : 'invalid result',
      });
      continue;
    }
    valid.push({ line: n, result: parsed.data });
  }
  valid.sort((a, b) => Date.parse(a.result.batch.date) - Date.parse(b.result.batch.date) || a.line - b.line);

  await store.runs.start({
    id: report.runId,
    startedAt: clock.now(),
    status: 'running',
    source: input.path,
    options: { command: 'apply' },
  });
  const resolution = { store, verifier: input.verifier };
  let { index, resolver } = await loadResolution(resolution);
  for (const [i, { line, result }] of valid.entries()) {
    let observed = 0;
    try {
      const applied = await applyExtraction({
        store,
        result,
        resolver,
        index,
        recordedAt: clock.now(),
        newId: input.newId,
        checkpoint: async (tx, applied) => {
          observed = await recordBatchObservations({ tx, result, ...applied, recordedAt: clock.now() });
          await tx.episodes.setExtraction({ ids: result.batch.episodeIds, status: 'extracted' });
          await tx.runs.saveBatch({
            runId: report.runId,
            key: `${result.batch.id} (line ${line})`,
            status: 'done',
            episodeIds: result.batch.episodeIds,
            tokensIn: 0,
            tokensOut: 0,
            costUsd: 0,
            error: null,
            startedAt: null,
            finishedAt: clock.now(),
          });
        },
      });
      for (const [k, v] of Object.entries({ ...applied.mutations, 'observation.add': observed }))
        report.mutations[k] = (report.mutations[k] ?? 0) + (v ?? 0);
      report.applied++;
    } catch (cause) {
      report.failed.push({ line, reason: errorMessage(cause) });
      ({ index, resolver } = await loadResolution(resolution));
    }
    input.onProgress?.(i + 1, valid.length);
  }
  await store.runs.finish({
    id: report.runId,
    status: report.failed.length > 0 ? 'failed' : 'completed',
    finishedAt: clock.now(),
    counters: {
      lines: report.lines,
      applied: report.applied,
      invalid: report.invalid.length,
      failed: report.failed.length,
    },
  });
  return report;
}
