import type { Usage } from '../../extract/types.js';
import { addUsage, emptyUsage, type LlmClient } from '../../llm/index.js';
import type { PersonalKind, PersonalQuestion } from '../../ports/personal-bench-store.js';
import { answerFromContext, type QueryContext } from '../../query/ask.js';
import { naiveRagAnswerer } from '../qa/answerers.js';
import { JUDGE_PROMPT, judgedYes, longmemevalJudgeText } from '../qa/judge-prompts.js';
import type { History } from './history.js';

/**
 * Answer accuracy with a model (docs/evaluation.md "Personal benchmark"), as `pie bench longmemeval --qa` measures
 * it: PIE answers from the compiled context of the question, `naive_rag` from the top BM25 chunks, with the same
 * answer prompt; a judge grades each answer with LongMemEval's prompt of the matching type (abstention: credit for
 * saying the history does not tell).
 */

export const QA_TYPES: Record<Exclude<PersonalKind, 'abstention'>, string> = {
  'single-fact': 'single-session-user',
  temporal: 'temporal-reasoning',
  'knowledge-update': 'knowledge-update',
  'multi-session': 'multi-session',
};

export interface QaVerdicts {
  pie: boolean;
  naive_rag: boolean;
}

export type QaUsage = Record<keyof QaVerdicts, Usage>;

export function emptyQaUsage(): QaUsage {
  return { pie: emptyUsage(), naive_rag: emptyUsage() };
}

export function personalJudgeText(question: PersonalQuestion, response: string): string {
  return longmemevalJudgeText({
    type: question.kind === 'abstention' ? 'abstention' : QA_TYPES[question.kind],
    question: question.question,
    answer: question.answer,
    response,
    abstention: question.kind === 'abstention',
  });
}

/** Answers and judges one question with both systems; adds the tokens spent to `usage`. */
export function personalQa(input: {
  client: LlmClient;
  /** The judge (default: the answering model). */
  judge?: LlmClient;
  history: History;
  tz: string;
  chunkTurns: number;
  ragChunks: number;
}): (q: PersonalQuestion, context: QueryContext, now: number, usage: QaUsage) => Promise<QaVerdicts> {
  const { client, tz } = input;
  const rag = naiveRagAnswerer({
    conversations: input.history.conversations,
    client,
    tz,
    chunkTurns: input.chunkTurns,
    chunks: input.ragChunks,
  });
  const judge = async (q: PersonalQuestion, response: string): Promise<{ correct: boolean; usage: Usage }> => {
    const verdict = await (input.judge ?? client).generateText({
      prompt: JUDGE_PROMPT,
      input: { text: personalJudgeText(q, response) },
    });
    return { correct: judgedYes(verdict.text), usage: verdict.usage };
  };
  return async (q, context, now, usage) => {
    const pie = await answerFromContext({ client, question: q.question, context, now, tz });
    const pieVerdict = await judge(q, pie.text);
    usage.pie = addUsage(addUsage(usage.pie, pie.usage), pieVerdict.usage);
    const naive = await rag(q.question, now);
    const naiveVerdict = await judge(q, naive.text);
    usage.naive_rag = addUsage(addUsage(usage.naive_rag, naive.usage), naiveVerdict.usage);
    return { pie: pieVerdict.correct, naive_rag: naiveVerdict.correct };
  };
}
