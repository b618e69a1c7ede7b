import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parsePositions } from '../../../bench/context/units.js';
import { benchDataDir, DEFAULT_FILES, readJsonArray } from '../../../bench/data.js';
import { readEntityLabels } from '../../../bench/extraction/labels.js';
import { extractionMarkdown, extractionText, type ExtractionRunMeta } from '../../../bench/extraction/report.js';
import { runExtractionBench } from '../../../bench/extraction/run.js';
import { writeMarkedSection } from '../../../bench/markdown.js';
import type { WorldExtraction } from '../../../bench/world.js';
import type { CommandContext } from '../context.js';
import {
  benchProgress,
  commandLine,
  memoryStore,
  optionalInt,
  sourceRevision,
  today,
  type BenchFlags,
} from './bench-shared.js';

/** Where the hand labels live in a source checkout (bench/labels/README.md). */
export const DEFAULT_LABELS = 'bench/labels/locomo-entities.jsonl';

/** `pie bench extraction`: extraction quality on LoCoMo against its annotations and the hand labels. */
export async function benchExtraction(input: {
  ctx: CommandContext;
  flags: BenchFlags;
  extraction: WorldExtraction;
  extractor: string;
}): Promise<void> {
  const { ctx, flags } = input;
  const data = resolve(flags.data ?? `${benchDataDir(ctx.io.env)}/${DEFAULT_FILES.locomo}`);
  const samples = readJsonArray(data, 'LoCoMo');
  const which = flags.conversations ?? 'all';
  const chosen = parsePositions(which, samples.length).map((position) => ({ position, sample: samples[position - 1] }));
  const examples = optionalInt(flags.examples, '--examples');
  const labels = readEntityLabels(resolve(flags.labels ?? DEFAULT_LABELS));
  const progress = benchProgress(ctx);
  const result = await runExtractionBench(chosen, {
    tz: 'UTC',
    extraction: input.extraction,
    openStore: memoryStore(ctx),
    labels,
    ...(examples === undefined ? {} : { examples }),
    onProgress: progress.onProgress,
  });
  progress.done();
  const meta: ExtractionRunMeta = {
    command: [commandLine('extraction', flags), ...(flags.conversations ? [`--conversations ${which}`] : [])].join(' '),
    revision: sourceRevision(),
    data: flags.data ?? `../shared/data/${DEFAULT_FILES.locomo}`,
    extractor: input.extractor,
    date: today(),
    seconds: progress.seconds(),
  };
  const json = { benchmark: 'extraction', meta, labels: labels.size, ...result };
  if (flags.out) writeFileSync(flags.out, `${JSON.stringify(json, null, 2)}\n`);
  if (flags.report) {
    const section = flags.section ?? `extraction-${input.extractor.startsWith('offline') ? 'offline' : 'llm'}`;
    writeMarkedSection(flags.report, section, extractionMarkdown(result, meta));
  }
  const usage = result.conversations.reduce((n, c) => n + c.usage.inputTokens + c.usage.outputTokens, 0);
  const cost = result.conversations.reduce((n, c) => n + c.usage.costUsd, 0);
  ctx.emit({
    text: `${extractionText(result)}\n\n${meta.seconds.toFixed(0)} s, ${input.extractor}; model tokens ${usage}, estimated cost $${cost.toFixed(2)}; ${labels.size} hand labels`,
    json,
  });
}
