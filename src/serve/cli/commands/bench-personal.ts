import { writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createEmbedderFromEnv, createQueryModel, type Services } from '../../../compose.js';
import { longDate } from '../../../compile/time-format.js';
import { PieError } from '../../../domain/errors.js';
import { writeMarkedSection } from '../../../bench/markdown.js';
import { figuresSchema, type RunFigures } from '../../../bench/personal/figures.js';
import { generateQuestionSet, type GeneratedSet } from '../../../bench/personal/generate.js';
import { usageText } from '../../../bench/qa/report.js';
import { readHistory } from '../../../bench/personal/history.js';
import { loadLanguage } from '../../../bench/personal/phrases.js';
import {
  compareRuns,
  comparisonText,
  replacedLine,
  runMarkdown,
  runText,
  setLine,
} from '../../../bench/personal/report.js';
import { runPersonalBench } from '../../../bench/personal/run.js';
import type { PersonalQuestionSet, PersonalSetSummary } from '../../../ports/personal-bench-store.js';
import { parsePositiveInt } from '../args.js';
import type { CommandContext } from '../context.js';
import { createProgress } from '../io.js';
import { optionalInt, sourceRevision, type BenchFlags } from './bench-shared.js';

/**
 * `pie bench personal`: a benchmark made from the user's own history (docs/evaluation.md "Personal benchmark"). The
 * question set is generated once from the raw turns (templates, or the --llm model) and stored; every run is scored
 * against it and stored too, so `--compare` shows what changed since the previous run.
 */
export async function benchPersonal(input: { ctx: CommandContext; flags: BenchFlags; ks: number[] }): Promise<void> {
  const { ctx, flags, ks } = input;
  const limit = optionalInt(flags.limit, '--limit');
  const chunkTurns = parsePositiveInt(flags.chunkTurns, '--chunk-turns');
  const ragChunks = parsePositiveInt(flags.ragChunks, '--rag-chunks');
  const services = await ctx.services({ existing: true });
  const { store } = services;
  const stats = await store.stats();
  if (stats.turns === 0) {
    throw new PieError(
      'NOT_FOUND',
      `The database ${ctx.config.dbPath} holds no conversations yet; run \`pie ingest <your export>\` first, then pie bench personal.`,
    );
  }
  const model = flags.llm ? await createQueryModel({ services, llm: flags.llm }) : null;
  const judge = model && flags.judge ? await createQueryModel({ services, llm: flags.judge }) : model;
  const tz = ctx.config.tz;
  const date = (t: number) => longDate(t, tz);
  const progress = createProgress({ io: ctx.io, enabled: !ctx.config.json });
  const started = Date.now();
  const history = await readHistory({
    store,
    onProgress: (done, total) => progress.update(`reading your history: ${done}/${total} conversations`),
  });
  const now = services.clock.now();
  let set = await store.personalBench.currentSet();
  let replaced: PersonalSetSummary | null = null;
  let written: GeneratedSet['model'] = null;
  const generated = set === null || flags.generate === true;
  if (generated) {
    ({ set, model: written } = await generateQuestionSet({
      history,
      tz,
      now,
      lang: await loadLanguage(),
      model,
      onProgress: (message) => progress.update(message),
    }));
    replaced = await store.personalBench.replaceSet(set);
  }
  if (!set) throw new PieError('INTERNAL', 'No question set was generated.');
  if (set.questions.length === 0) {
    progress.done();
    const text = [`Personal benchmark: ${setLine({ ...set, questions: 0 }, date)}.`, noQuestions(set)].join('\n');
    ctx.emit({
      text,
      json: { benchmark: 'personal', set: { ...set, generated, replaced }, run: null, comparison: null },
    });
    return;
  }
  const result = await runPersonalBench({
    store,
    history,
    set,
    ks,
    now,
    tz,
    tokenizer: services.tokenizer(),
    embedder: createEmbedderFromEnv(services.env),
    limit,
    chunkTurns,
    model: model && judge ? { client: model.client, judge: judge.client, ragChunks } : null,
    onProgress: (done, total, question) => progress.update(`${done}/${total} questions · ${question.slice(0, 60)}`),
  });
  progress.done();
  const previous = (await store.personalBench.runs({ setId: set.id, limit: 1 }))[0] ?? null;
  const figures: RunFigures = {
    version: 1,
    ks,
    now,
    revision: sourceRevision(),
    model: model?.client.label ?? null,
    judge: judge?.client.label ?? null,
    world: await worldCounts(services, stats),
    seconds: (Date.now() - started) / 1000,
    ...(result.usage ? { usage: result.usage } : {}),
    records: result.records,
  };
  await store.personalBench.addRun({ id: randomUUID(), setId: set.id, ranAt: Date.now(), figures });
  const before = previous ? figuresSchema.safeParse(previous.figures) : null;
  const comparison = flags.compare && before?.success ? compareRuns(before.data, figures) : null;
  const head = [
    `Personal benchmark: ${setLine({ ...set, questions: set.questions.length }, date)}, asked as of ${date(now)}.`,
  ];
  if (generated) head.push(generatedLine(set, replaced, date));
  if (written) head.push(writtenLine(written));
  const lines = [...head, '', runText(figures)];
  if (flags.compare) {
    lines.push('');
    if (comparison && previous)
      lines.push(comparisonText(comparison, `${date(previous.ranAt)}, ${clockTime(previous.ranAt, tz)}`));
    else if (previous)
      lines.push('The previous run was stored by another version of PIE in a form this one cannot compare.');
    else lines.push('There is no earlier run on this question set to compare with; this run is stored as the first.');
  }
  if (flags.report) {
    const notes = reportNotes({ set, figures, flags, ctx, date });
    writeMarkedSection(
      flags.report,
      flags.section ?? 'personal',
      runMarkdown({ figures, title: 'Personal benchmark', notes }),
    );
  }
  const json = {
    benchmark: 'personal',
    set: {
      id: set.id,
      generator: set.generator,
      createdAt: set.createdAt,
      generated,
      replaced,
      meta: set.meta,
      questions: set.questions,
    },
    run: figures,
    comparison,
  };
  if (flags.out) writeFileSync(flags.out, `${JSON.stringify(json, null, 2)}\n`);
  ctx.emit({ text: lines.join('\n'), json });
}

async function worldCounts(
  services: Services,
  stats: Awaited<ReturnType<Services['store']['stats']>>,
): Promise<Record<string, number>> {
  return {
    episodes: stats.episodes,
    turns: stats.turns,
    entities: stats.entities,
    'active entities': stats.entitiesByTier.active ?? 0,
    transitions: stats.transitions,
    facts: stats.facts,
    relationships: stats.relationships,
    periods: stats.periods,
    procedures: stats.procedures,
    'maintenance runs': (await services.store.maintenance.list()).length,
  };
}

/** What the model spent writing the set, and what of it was dropped. */
function writtenLine(written: NonNullable<GeneratedSet['model']>): string {
  const dropped = Object.entries(written.dropped).map(([why, n]) => `${n} ${why}`);
  return (
    `Writing the questions took ${usageText(written.usage)}` +
    (dropped.length > 0 ? `; questions dropped: ${dropped.join(', ')}.` : '; no question was dropped.')
  );
}

/** "14:05" in the user's zone. */
function clockTime(ms: number, tz: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit' }).format(ms);
}

function generatedLine(
  set: PersonalQuestionSet,
  replaced: PersonalSetSummary | null,
  date: (t: number) => string,
): string {
  const from = set.generator === 'templates' ? 'the templates over your own turns' : `the model ${set.generator}`;
  const made = `Made a new question set from ${from} and stored it; later runs use it until you run --generate again.`;
  return replaced ? `${made} ${replacedLine(replaced, date, set.id)}` : made;
}

function noQuestions(set: PersonalQuestionSet): string {
  return set.generator === 'templates'
    ? 'None of your turns states a dated change the templates recognize ("I switched from X to Y", "I started using X", "I moved to …"), so there is nothing to score; after importing more, run it with --generate, or let a model write the questions with --generate --llm provider:model.'
    : 'The model wrote no question that passed the checks, so there is nothing to score; try another model with --generate --llm provider:model.';
}

function reportNotes(input: {
  set: PersonalQuestionSet;
  figures: RunFigures;
  flags: BenchFlags;
  ctx: CommandContext;
  date: (t: number) => string;
}): string[] {
  const { set, figures, flags, ctx, date } = input;
  const db = relative(process.cwd(), ctx.config.dbPath);
  const command = [
    `pie --db ${db.startsWith('..') ? basename(db) : db} --tz ${ctx.config.tz}`,
    ctx.config.now === null ? '' : `--now ${new Date(ctx.config.now).toISOString().slice(0, 10)}`,
    'bench personal',
    flags.k === '5,10' ? '' : `--k ${flags.k}`,
    flags.chunkTurns === '2' ? '' : `--chunk-turns ${flags.chunkTurns}`,
    flags.limit ? `--limit ${flags.limit}` : '',
    flags.llm ? `--llm ${flags.llm}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return [
    `Command: \`${command}\`; questions asked as of ${date(figures.now)}.`,
    `Source at ${figures.revision}. Question set: ${setLine({ ...set, questions: set.questions.length }, date)}.`,
    `Run on ${new Date().toISOString().slice(0, 10)} in ${figures.seconds.toFixed(0)} s.`,
    'PIE: the turns its compiled context (4,000 tokens, as `pie ask --context-only` prints it) shows, those its fused',
    `items stand for first; BM25: chunks of ${flags.chunkTurns} turns, best first. "in_context": the share of evidence turns each shows`,
    'within 4,000 tokens; "clear": no near miss shown (docs/evaluation.md "Personal benchmark").',
  ];
}
