import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { writeBackup, writeFileAtomically } from '../../../backup/index.js';
import type { IngestBatch, IngestRun } from '../../../ports/world-store.js';
import type { HttpDeps } from '../deps.js';
import { defineRoute, iso, type Route } from '../route.js';

/** Ingest runs with their progress and cost (a run under way in another `pie ingest` shows as running). */
export const runRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/api/ingest-runs',
    summary: 'Ingest runs, newest first: status, batches done/failed/pending, tokens and estimated cost',
    tag: 'maintain',
    query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(10).describe('runs (1–100)') }),
    handler: async ({ query, deps }) => {
      const runs = await deps.store.runs.list(query.limit);
      const items = await Promise.all(runs.map(async (r) => runOut(r, await deps.store.runs.batches(r.id))));
      return { items };
    },
  }),
];

function runOut(run: IngestRun, batches: IngestBatch[]) {
  const by = (status: string) => batches.filter((b) => b.status === status).length;
  return {
    id: run.id,
    status: run.status,
    source: run.source,
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
    batches: { total: batches.length, done: by('done'), failed: by('failed'), pending: by('pending') },
    episodes: batches.reduce((n, b) => n + b.episodeIds.length, 0),
    tokensIn: batches.reduce((n, b) => n + b.tokensIn, 0),
    tokensOut: batches.reduce((n, b) => n + b.tokensOut, 0),
    costUsd: Number(batches.reduce((n, b) => n + b.costUsd, 0).toFixed(6)),
    failures: batches
      .filter((b) => b.status === 'failed')
      .slice(0, 20)
      .map((b) => ({ batch: b.key, error: b.error })),
  };
}

/**
 * `GET /api/backup`: the whole memory as a download in the `pie backup` format (gzip-compressed JSON Lines). It is
 * written to a temporary file first (one consistent read, not held open while a slow client downloads), streamed,
 * then removed.
 */
export async function backupResponse(deps: HttpDeps): Promise<Response> {
  const dir = await mkdtemp(join(tmpdir(), 'pie-backup-'));
  const file = join(dir, 'pie-backup.jsonl.gz');
  try {
    await writeFileAtomically(file, (sink) => writeBackup({ store: deps.store, sink, now: deps.clock.now() }), {
      key: deps.backupKey,
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const stream = createReadStream(file);
  stream.once('close', () => void rm(dir, { recursive: true, force: true }));
  const name = `pie-backup-${new Date(deps.clock.now()).toISOString().slice(0, 10)}.jsonl.gz`;
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, {
    headers: {
      'Content-Type': deps.backupKey === undefined ? 'application/gzip' : 'application/octet-stream',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
    },
  });
}
