import { longDate } from '../../compile/time-format.js';
import type { Usage } from '../../extract/types.js';
import type { LlmClient } from '../../llm/index.js';
import {
  PERSONAL_KINDS,
  type PersonalKind,
  type PersonalQuestion,
  type PersonalQuestionSet,
} from '../../ports/personal-bench-store.js';
import { abstentionCount, abstentionQuestions } from './abstention.js';
import { textHash, turnKey, userTurns, type History } from './history.js';
import { modelQuestions } from './model-questions.js';
import type { Language } from './phrases.js';
import { findStatements } from './statements.js';
import { spread, templateQuestions, type DraftQuestion } from './templates.js';

/** At most this many questions of one kind (evenly spread over time): a long history stays quick to score. */
export const MAX_PER_KIND = 40;

export const TEMPLATES_GENERATOR = 'templates';

export interface GenerateOptions {
  history: History;
  tz: string;
  /** The question set's creation time. */
  now: number;
  lang: Language;
  /** With a model the questions are the model's; without one, the templates'. */
  model?: { client: LlmClient; description: string } | null;
  onProgress?: (message: string) => void;
}

/**
 * A question set from the raw history alone (docs/evaluation.md "Personal benchmark"): the templates over the
 * user's turns, or a model's questions. Kinds are interleaved (one of each in turn, each kind oldest first), so the
 * first N questions (`--limit N`) cover every kind. Deterministic without a model.
 */
/** A new set, and what a model spent writing it and which of its questions were dropped (null without a model). */
export interface GeneratedSet {
  set: PersonalQuestionSet;
  model: { usage: Usage; dropped: Record<string, number> } | null;
}

export async function generateQuestionSet(input: GenerateOptions): Promise<GeneratedSet> {
  const { history, tz } = input;
  const turns = userTurns(history);
  const texts = () => [...history.turns.values()].map((t) => t.text);
  const latest = turns.reduce((m, t) => Math.max(m, t.time), 0);
  let drafts: DraftQuestion[];
  let generator: string;
  let meta: Record<string, unknown>;
  let spent: GeneratedSet['model'] = null;
  if (input.model) {
    const made = await modelQuestions({
      client: input.model.client,
      turns,
      texts: texts(),
      dateOf: (t) => longDate(t, tz),
      onProgress: (done, total) => input.onProgress?.(`asking the model for questions: ${done}/${total} batches`),
    });
    drafts = made.questions;
    generator = input.model.client.label;
    meta = { userTurns: turns.length, turnsShown: made.turnsShown, dropped: made.dropped, usage: made.usage };
    spent = { usage: made.usage, dropped: made.dropped };
  } else {
    const statements = turns.flatMap((turn, i) => {
      if (i % 500 === 0) input.onProgress?.(`reading your turns for questions: ${i}/${turns.length}`);
      return findStatements({ turn, tz, lang: input.lang });
    });
    const answerable = capPerKind(templateQuestions({ statements, tz }));
    const abstention = abstentionQuestions({
      count: abstentionCount(answerable.length),
      texts: texts(),
      lang: input.lang,
      time: latest,
    });
    drafts = [...answerable, ...abstention];
    generator = TEMPLATES_GENERATOR;
    meta = { userTurns: turns.length, statements: statements.length };
  }
  const seen = new Set<string>();
  const unique = drafts.filter((d) => !seen.has(d.question.toLowerCase()) && seen.add(d.question.toLowerCase()));
  const questions = interleave(unique).map((d) => finish(d, { history, now: input.now, generator }));
  const id = `ps-${textHash([generator, ...questions.map((q) => q.id)].join('\n'))}`;
  return { set: { id, generator, createdAt: input.now, meta, questions }, model: spent };
}

function capPerKind(drafts: readonly DraftQuestion[]): DraftQuestion[] {
  return PERSONAL_KINDS.flatMap((kind) =>
    spread(
      drafts.filter((d) => d.kind === kind),
      MAX_PER_KIND,
    ),
  );
}

/** One question of each kind in turn (kinds in PERSONAL_KINDS order, each oldest first). */
export function interleave(drafts: readonly DraftQuestion[]): DraftQuestion[] {
  const queues = new Map<PersonalKind, DraftQuestion[]>(
    PERSONAL_KINDS.map((k) => [k, drafts.filter((d) => d.kind === k).sort((a, b) => a.time - b.time)]),
  );
  const out: DraftQuestion[] = [];
  while (out.length < drafts.length) {
    for (const kind of PERSONAL_KINDS) {
      const next = queues.get(kind)?.shift();
      if (next) out.push(next);
    }
  }
  return out;
}

function finish(d: DraftQuestion, ctx: { history: History; now: number; generator: string }): PersonalQuestion {
  const evidence = d.evidence.map((r) => ({
    episodeId: r.episodeId,
    seq: r.seq,
    textHash: textHash(ctx.history.turns.get(turnKey(r))?.text ?? ''),
  }));
  return {
    id: `pq-${textHash([d.kind, d.question, ...evidence.map(turnKey)].join('\n'))}`,
    kind: d.kind,
    question: d.question,
    answer: d.answer,
    evidence,
    createdAt: ctx.now,
    generator: ctx.generator,
  };
}
