import type { TimeFormat } from '../compile/time-format.js';
import type { WorldStore } from '../ports/world-store.js';
import { buildQueryContext } from '../query/ask.js';
import type { TimeFormatChoice } from '../query/types.js';
import { MetricTable } from './metrics.js';
import { locomoUnits } from './qa/units.js';
import type { ProgressEvent } from './retrieval-options.js';
import { buildWorld, type WorldExtraction } from './world.js';

/**
 * The temporal-format ablation (pie-paper §5.1) without a model: for LoCoMo temporal questions (category 2), PIE's
 * context is compiled in each time format and measured for what a model would have to work with — whether the gold
 * answer (or its year) is written in the context, and how long the context is. Accuracy per format needs a model:
 * `pie bench locomo --qa --only 2 --time-format F`. Paper conditions: B formatted dates = `absolute`, D full semantic
 * = `semantic`; PIE adds `hybrid` and `auto`. A (raw timestamps) and C (relative only) have no compiler format.
 */
export const ABLATION_FORMATS: readonly TimeFormatChoice[] = ['absolute', 'semantic', 'hybrid', 'auto'];

export interface AblationResult {
  table: MetricTable;
  questions: number;
  /** Format actually chosen by `auto`, counted. */
  autoChose: Record<TimeFormat, number>;
}

const norm = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export async function runTemporalAblation(input: {
  samples: readonly unknown[];
  limit?: number | undefined;
  extraction: WorldExtraction;
  openStore: () => Promise<WorldStore>;
  onProgress?: (event: ProgressEvent) => void;
}): Promise<AblationResult> {
  const units = locomoUnits({ samples: input.samples, tz: 'UTC', limit: input.limit, categories: [2] });
  const table = new MetricTable();
  table.declare([...ABLATION_FORMATS]);
  const autoChose: Record<TimeFormat, number> = { absolute: 0, semantic: 0, hybrid: 0 };
  const total = units.reduce((n, u) => n + u.items.length, 0);
  let done = 0;
  for (const unit of units) {
    const world = await buildWorld({ ...input, conversations: unit.conversations, tz: 'UTC', label: unit.label });
    try {
      for (const item of unit.items) {
        done += 1;
        input.onProgress?.({ phase: 'query', label: item.key, done, total });
        const gold = norm(item.gold);
        const year = /\b(19|20)\d\d\b/.exec(item.gold)?.[0];
        for (const format of ABLATION_FORMATS) {
          const context = await buildQueryContext({
            store: world.store,
            question: item.question,
            now: item.now,
            tz: 'UTC',
            format,
          });
          if (format === 'auto') autoChose[context.plan.timeFormat] += 1;
          const text = norm(context.text);
          table.add(format, 'pie', {
            answer_in_context: gold !== '' && text.includes(gold) ? 1 : 0,
            year_in_context: year !== undefined && text.includes(year) ? 1 : 0,
            context_chars: context.text.length,
          });
        }
      }
    } finally {
      await world.close();
    }
  }
  return { table, questions: done, autoChose };
}

export function ablationMarkdown(
  r: AblationResult,
  meta: { command: string; data: string; date: string; revision?: string },
): string {
  const rows = r.table.groups.map((f) => {
    const v = (m: string): number => r.table.mean(f, 'pie', m) ?? 0;
    return `| ${f} | ${(v('answer_in_context') * 100).toFixed(1)} | ${(v('year_in_context') * 100).toFixed(1)} | ${v('context_chars').toFixed(0)} |`;
  });
  return [
    '## Temporal context formats on LoCoMo temporal questions (contexts only, no LLM)',
    '',
    `Command: \`${meta.command}\`. Source at ${meta.revision ?? 'an unknown revision'}. Data: \`${meta.data}\`, category 2 (${r.questions} questions). Extractor: offline ` +
      `rules. Run on ${meta.date}. For each format, PIE compiles the context of every question; "answer in context" ` +
      'is the share whose gold answer is written in it verbatim (after lower-casing and dropping punctuation), ' +
      '"year in context" the share whose gold answer\'s year is. Accuracy per format needs a model (see ' +
      `docs/evaluation.md). \`auto\` chose absolute ${r.autoChose.absolute}, semantic ${r.autoChose.semantic}, ` +
      `hybrid ${r.autoChose.hybrid} times.`,
    '',
    '| format | answer in context % | year in context % | context chars (mean) |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
