import Database from 'better-sqlite3';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE } from './cli.js';

/** One `extract-batch@3` rule of a fake model script: the answer to a batch whose prompt holds every string. */
export interface ExtractRule {
  contains: string | string[];
  response: object;
}

/**
 * A scripted model for the sample export (`--llm fake:<file>`): one rule per conversation title, answering a topic
 * entity and a shared project whose state follows the days (so the order of application shows in its facts and
 * transitions), each answer after `delayMs`. `rules` come first (answers for other texts); with `holdWhileExists`,
 * every call waits while that file exists (the test holds the extraction, then deletes the file). Returns the
 * script's path.
 */
export function writeSampleModel(input: {
  dir: string;
  delayMs: number;
  /** The script's file name (default fake-model.json). */
  name?: string;
  rules?: readonly ExtractRule[];
  holdWhileExists?: string;
}): string {
  const titles = (JSON.parse(readFileSync(SAMPLE, 'utf8')) as { title: string }[]).map((c) => c.title);
  const rules = titles.map((title) => ({
    contains: `"${title}"`,
    response: {
      entities: [
        { name: `Topic: ${title}`, type: 'concept', state: { status: 'discussed' } },
        { name: 'Tidepool', type: 'project', state: { latest: title } },
      ],
      relationships: [{ source: 'I', target: `Topic: ${title}`, type: 'EXPLORED' }],
      summary: title,
    },
  }));
  const script = join(input.dir, input.name ?? 'fake-model.json');
  writeFileSync(
    script,
    JSON.stringify({
      delayMs: input.delayMs,
      ...(input.holdWhileExists === undefined ? {} : { holdWhileExists: input.holdWhileExists }),
      prompts: {
        'extract-batch@3': [...(input.rules ?? []), ...rules],
        'verify-entity@1': [{ response: { same: false, reason: 'different topics' } }],
      },
    }),
  );
  return script;
}

/** Batches a running `pie ingest` has applied so far, read like any other reader would (0 before the schema exists). */
export function doneBatches(db: string): number {
  try {
    const d = new Database(db, { readonly: true, timeout: 1000 });
    try {
      return (d.prepare("SELECT count(*) AS n FROM ingest_batches WHERE status = 'done'").get() as { n: number }).n;
    } finally {
      d.close();
    }
  } catch {
    return 0;
  }
}
