import type { Command } from 'commander';
import type { ActionRunner } from '../run.js';
import type { BenchFlags } from './bench-shared.js';

export const BENCH_NAMES = [
  'locomo',
  'longmemeval',
  'tot',
  'ablation',
  'context',
  'extraction',
  'personal',
  'scale',
] as const;

export function registerBench(program: Command, run: ActionRunner): void {
  program
    .command('bench')
    .description(
      'evaluate PIE on LoCoMo, LongMemEval and Test of Time (retrieval/context without a model, QA accuracy with --qa), the temporal-format ablation, answer-in-context at token budgets (context), extraction quality on LoCoMo (extraction), on questions made from your own history (personal), or scale',
    )
    .argument('<benchmark>', BENCH_NAMES.join(' | '))
    .option('--data <file>', 'the benchmark file (default under $PIE_BENCH_DATA, else ../shared/data)')
    .option(
      '--limit <n>',
      'only the first N conversations (LoCoMo), questions (LongMemEval, personal) or items per category (Test of Time)',
    )
    .option('--k <list>', 'cut-offs for recall@k and NDCG@k, comma-separated', '5,10')
    .option('--extractor <kind>', 'offline | llm | auto (how each world is extracted)', 'offline')
    .option(
      '--llm <provider:model>',
      'model for --extractor llm and for --qa answers (default $PIE_LLM, else an API key); personal: the model that writes the questions (with --generate) and answers and judges them (only when given)',
    )
    .option(
      '--budget-tokens <n>',
      'stop once the run has used this many tokens (extraction; with --qa also answers and judgements)',
    )
    .option('--chunk-turns <n>', 'turns per chunk of the BM25 baseline', '2')
    .option('--out <file>', 'write the full results as JSON')
    .option('--report <file>', 'write the figures as a marked section of this markdown file (docs/benchmarks.md)')
    .option('--section <name>', 'the section name for --report (default: the benchmark and data file)')
    .option(
      '--qa',
      'answer and grade every question with a model (PIE vs naive_rag; tot: raw facts vs PIE; ablation: each condition; context: both contexts at the first --budgets value, each answer also marked with whether its gold answer was in the context); --out is then the resumable JSONL',
    )
    .option('--judge <provider:model>', 'model of the judge for --qa and personal (default: the --llm model)')
    .option(
      '--time-format <format>',
      'auto | semantic | absolute | hybrid: PIE context format for locomo/longmemeval --qa (the ablation uses --conditions)',
      'auto',
    )
    .option('--rag-chunks <n>', 'BM25 chunks in the naive_rag context for --qa', '10')
    .option(
      '--only <groups>',
      'LoCoMo category numbers or LongMemEval types for --qa, ToT categories, or ablation sets (locomo,longmemeval,tot)',
    )
    .option('--conditions <list>', 'ablation conditions: raw,absolute,relative,semantic,hybrid,auto (default all)')
    .option(
      '--set <name>',
      "context: locomo (default), longmemeval (S dev30, the tuning set), longmemeval-oracle-dev30 (the oracle file's dev30 questions: tuning for the evidence-only setting) or longmemeval-heldout (oracle questions outside dev30)",
    )
    .option(
      '--conversations <list>',
      'context, extraction: LoCoMo conversations by position, e.g. 1-5 (tuning), 6-10 (held out), all',
    )
    .option('--labels <file>', 'extraction: hand labels of entities (default bench/labels/locomo-entities.jsonl)')
    .option(
      '--examples <n>',
      'extraction: examples of hits and of misses of each kind kept per conversation in --out and --json (default 8)',
    )
    .option('--budgets <list>', 'context: token budgets, comma-separated (default 1000,2000,4000,8000)')
    .option('--max-answer-words <n>', 'context: leave out answers longer than this many words a part (default 6)')
    .option('--generate', 'personal: make a new question set from your history, replacing the stored one')
    .option('--compare', 'personal: show the change since the previous run on the same question set')
    // The benchmarks' code (datasets, graders, reports) loads only when a benchmark runs.
    .action((name: string, flags: BenchFlags) =>
      run(async (ctx) => (await import('./bench-run.js')).bench(ctx, name, flags)),
    );
}
