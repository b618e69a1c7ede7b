import type { Command } from 'commander';
import { createEmbedderFromEnv, createQueryModel } from '../../../compose.js';
import type { ContextSource } from '../../../compile/context.js';
import { longDate } from '../../../compile/time-format.js';
import { PieError } from '../../../domain/errors.js';
import {
  answerFromContext,
  buildQueryContext,
  contextBudget,
  DEFAULT_CONTEXT_TOKENS,
  MAX_CONTEXT_TOKENS,
  MIN_CONTEXT_TOKENS,
  type Answer,
} from '../../../query/ask.js';
import { parsePositiveInt } from '../args.js';
import type { PyramidSource } from '../../../query/pyramid-source.js';
import type { TimeFormatChoice } from '../../../query/types.js';
import type { CommandContext } from '../context.js';
import type { ActionRunner } from '../run.js';

interface AskFlags {
  timeFormat: string;
  contextOnly?: boolean;
  llm?: string;
  showContext?: boolean;
  contextTokens?: string;
}

const FORMATS: readonly TimeFormatChoice[] = ['auto', 'semantic', 'absolute', 'hybrid'];

export function registerAsk(program: Command, run: ActionRunner): void {
  program
    .command('ask')
    .description(
      'answer a question from the world model, with sources; without a model (or with --context-only), print the compiled context an LLM would get',
    )
    .argument('<question...>', 'the question, in words')
    .option(
      '--time-format <format>',
      'auto | semantic | absolute | hybrid (how times are written in the context)',
      'auto',
    )
    .option('--context-only', 'print the compiled context and do not call a model')
    .option('--show-context', 'print the compiled context before the answer')
    .option(
      '--context-tokens <n>',
      `the most tokens the compiled context may have (${MIN_CONTEXT_TOKENS}–${MAX_CONTEXT_TOKENS}, default ${DEFAULT_CONTEXT_TOKENS}); it is filled with evidence up to that size`,
    )
    .option(
      '--llm <provider:model>',
      'model for the answer (default $PIE_LLM, else OPENAI_API_KEY / ANTHROPIC_API_KEY)',
    )
    .action((words: string[], flags: AskFlags) => run((ctx) => ask(ctx, words.join(' '), flags)));
}

export function parseTimeFormat(value: string): TimeFormatChoice {
  const found = FORMATS.find((f) => f === value);
  if (!found) {
    throw new PieError('INVALID_ARGUMENT', `--time-format "${value}" is not known; use ${FORMATS.join(', ')}.`);
  }
  return found;
}

async function ask(ctx: CommandContext, question: string, flags: AskFlags): Promise<void> {
  const format = parseTimeFormat(flags.timeFormat);
  const maxTokens = contextBudget(
    flags.contextTokens === undefined ? undefined : parsePositiveInt(flags.contextTokens, '--context-tokens'),
  );
  // Query commands count accesses, so they open the database for writing, but never create it.
  const services = await ctx.services({ existing: true });
  const model = flags.contextOnly ? null : await createQueryModel({ services, llm: flags.llm });
  const now = services.clock.now();
  const warn = (m: string) => ctx.io.stderr(`pie: ${m}\n`);
  const context = await buildQueryContext({
    store: services.store,
    question,
    now,
    tz: ctx.config.tz,
    format,
    client: model?.client ?? null,
    embedder: createEmbedderFromEnv(services.env),
    recordAccess: true,
    maxTokens,
    tokenizer: services.tokenizer(),
    onWarning: warn,
  });
  let answer: Answer | null = null;
  if (model) {
    answer = await answerFromContext({ client: model.client, question, context, now, tz: ctx.config.tz });
  } else if (!flags.contextOnly && !ctx.config.json) {
    warn(
      'no model is configured (--llm, PIE_LLM, OPENAI_API_KEY or ANTHROPIC_API_KEY), so this is the context an LLM would get.',
    );
  }
  const shown = flags.showContext ? context.text : null;
  const text = answer
    ? answerText({ answer, sources: context.sources, pyramid: context.pyramid, context: shown, tz: ctx.config.tz })
    : context.text;
  ctx.emit({
    text,
    json: {
      question: context.plan.question,
      answer: answer?.text ?? null,
      model: answer?.model ?? null,
      usage: answer?.usage ?? null,
      plan: context.plan,
      lanes: context.lanes,
      context: context.text,
      contextTokens: context.tokens,
      maxContextTokens: context.maxTokens,
      sources: context.sources,
      pyramid: context.pyramid,
    },
  });
}

function answerText(input: {
  answer: Answer;
  sources: readonly ContextSource[];
  pyramid: readonly PyramidSource[];
  context: string | null;
  tz: string;
}): string {
  const { answer, sources, context } = input;
  const lines: string[] = [];
  if (context) lines.push(context, '', '—', '');
  lines.push(answer.text);
  const cited = sources.filter((s) => answer.text.includes(`[${s.n}]`));
  const summaries = input.pyramid.filter((s) => answer.text.includes(`[${s.ref}]`));
  if (cited.length + summaries.length > 0) {
    lines.push('', 'Sources:');
    for (const s of cited) lines.push(`  [${s.n}] “${s.title}” (${longDate(s.time, input.tz)})`);
    for (const s of summaries) {
      const end = longDate(s.end - 1, input.tz);
      const start = longDate(s.start, input.tz);
      lines.push(
        `  [${s.ref}] pyramid memory, model "${s.model}", tier ${s.tier} (${start === end ? start : `${start} to ${end}`})`,
      );
    }
  }
  return lines.join('\n');
}
