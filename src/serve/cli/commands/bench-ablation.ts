import { resolve } from 'node:path';
import { parseConditions } from '../../../bench/ablation-conditions.js';
import { ablationSection } from '../../../bench/ablation-report.js';
import {
  ABLATION_SETS,
  locomoAblationUnits,
  longmemevalAblationUnits,
  totAblationUnits,
  type AblationSet,
  type AblationUnit,
} from '../../../bench/ablation-units.js';
import { runTemporalAblation } from '../../../bench/ablation.js';
import { benchDataDir, DEFAULT_FILES, readJsonArray } from '../../../bench/data.js';
import { writeMarkedSection } from '../../../bench/markdown.js';
import { ResultsFile } from '../../../bench/qa/results-file.js';
import { usageText } from '../../../bench/qa/report.js';
import { readTotItems } from '../../../bench/tot/items.js';
import type { WorldExtraction } from '../../../bench/world.js';
import { PieError } from '../../../domain/errors.js';
import type { CommandContext } from '../context.js';
import {
  benchProgress,
  commandLine,
  memoryStore,
  optionalInt,
  qaModels,
  sourceRevision,
  today,
  type BenchFlags,
} from './bench-shared.js';

/** The ablation's data: LoCoMo, the LongMemEval oracle (its 133 temporal-reasoning questions), ToT arithmetic. */
const ABLATION_FILES: Record<AblationSet, string> = {
  locomo: DEFAULT_FILES.locomo,
  longmemeval: DEFAULT_FILES.longmemevalOracle,
  tot: DEFAULT_FILES.tot,
};

function parseSets(text: string | undefined): AblationSet[] {
  if (text === undefined) return [...ABLATION_SETS];
  return text.split(',').map((s) => {
    const found = ABLATION_SETS.find((x) => x === s.trim());
    if (!found)
      throw new PieError(
        'INVALID_ARGUMENT',
        `--only: "${s.trim()}" is not an ablation set; use ${ABLATION_SETS.join(', ')}.`,
      );
    return found;
  });
}

/**
 * `pie bench ablation [--only locomo,longmemeval,tot] [--conditions …] [--limit N] [--qa]`: one report section per
 * set (`ablation-<set>`). `--limit` = LoCoMo conversations, LongMemEval questions, ToT items per category.
 */
export async function benchAblation(input: {
  ctx: CommandContext;
  flags: BenchFlags;
  extraction: WorldExtraction;
  extractor: string;
}): Promise<void> {
  const { ctx, flags } = input;
  if (flags.data) {
    throw new PieError(
      'INVALID_ARGUMENT',
      'pie bench ablation reads three files from $PIE_BENCH_DATA (or ../shared/data); --data does not apply, set PIE_BENCH_DATA instead.',
    );
  }
  const sets = parseSets(flags.only);
  const conditions = parseConditions(flags.conditions);
  const limit = optionalInt(flags.limit, '--limit');
  const budget = optionalInt(flags.budgetTokens, '--budget-tokens');
  const models = flags.qa ? await qaModels(ctx, flags) : null;
  const results = new ResultsFile(flags.out ?? null);
  const texts: string[] = [];
  const json: Record<string, unknown> = {};
  let spent = 0;
  for (const set of sets) {
    const path = resolve(`${benchDataDir(ctx.io.env)}/${ABLATION_FILES[set]}`);
    const raws = readJsonArray(
      path,
      set === 'locomo' ? 'LoCoMo' : set === 'longmemeval' ? 'LongMemEval' : 'Test of Time',
    );
    const units: AblationUnit[] =
      set === 'locomo'
        ? locomoAblationUnits(raws, limit)
        : set === 'longmemeval'
          ? longmemevalAblationUnits(raws, limit)
          : totAblationUnits(readTotItems(raws).items, limit);
    const progress = benchProgress(ctx);
    const result = await runTemporalAblation({
      units,
      conditions,
      extraction: input.extraction,
      openStore: memoryStore(ctx),
      budgetTokens: budget === undefined ? undefined : Math.max(1, budget - spent),
      qa: models ? { answerClient: models.answer.client, judgeClient: models.judge.client, results } : undefined,
      onProgress: progress.onProgress,
    });
    progress.done();
    spent += Object.values(result.usage).reduce((n, u) => n + u.inputTokens + u.outputTokens, 0);
    const markdown = ablationSection({
      set,
      result,
      conditions,
      meta: {
        command: commandLine('ablation', { ...flags, only: set }),
        revision: sourceRevision(),
        data: `../shared/data/${ABLATION_FILES[set]}`,
        extractor: input.extractor,
        date: today(),
        seconds: progress.seconds(),
        models: models ? { answer: models.answer.description, judge: models.judge.description } : undefined,
      },
    });
    if (flags.report) writeMarkedSection(flags.report, `ablation-${set}`, markdown);
    const cost = models
      ? `\nanswers ${usageText(result.usage.answers)}; judge ${usageText(result.usage.judge)}; extraction ${usageText(result.usage.extraction)}`
      : '';
    texts.push(markdown + cost);
    json[set] = { ...result, table: result.table.toJSON(), accuracy: result.accuracy?.toJSON() ?? null };
    if (result.stoppedByBudget) break;
  }
  ctx.emit({ text: texts.join('\n\n'), json: { benchmark: 'ablation', conditions, sets: json } });
}
