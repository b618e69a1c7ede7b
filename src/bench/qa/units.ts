import { isObject, stringField } from '../../import/common.js';
import { locomoSampleToConversations } from '../../import/locomo.js';
import { longmemevalQuestionToConversations } from '../../import/longmemeval.js';
import { parseLongMemEvalDate } from '../../import/times.js';
import { afterLast, categoryName, locomoQas } from '../locomo.js';
import { longmemevalQuestion } from '../longmemeval.js';
import { locomoJudgeText, longmemevalJudgeText } from './judge-prompts.js';
import type { QaUnit } from './run.js';

/** LoCoMo: one unit per conversation; `categories` keeps only those categories (the temporal ablation uses [2]). */
export function locomoUnits(input: {
  samples: readonly unknown[];
  tz: string;
  limit?: number | undefined;
  categories?: readonly number[];
}): QaUnit[] {
  const chosen = input.limit === undefined ? input.samples : input.samples.slice(0, input.limit);
  return chosen.map((sample) => {
    const sampleId = isObject(sample) ? (stringField(sample, 'sample_id') ?? '?') : '?';
    const conversations = locomoSampleToConversations(sample, input.tz);
    const now = afterLast(conversations);
    const items = locomoQas(sample).flatMap((qa, i) => {
      if (qa.question.trim() === '') return [];
      if (input.categories && !input.categories.includes(qa.category)) return [];
      return [
        {
          key: `${sampleId}#${i}`,
          group: categoryName(qa.category),
          question: qa.question,
          gold: qa.answer ?? `(not answerable; trap: ${qa.adversarialAnswer ?? '?'})`,
          ...(qa.category !== 5 && qa.answer ? { proxyAnswer: qa.answer } : {}),
          now,
          judgeText: (response: string) =>
            locomoJudgeText({
              category: qa.category,
              question: qa.question,
              answer: qa.answer,
              adversarialAnswer: qa.adversarialAnswer,
              response,
            }),
        },
      ];
    });
    return { label: sampleId, conversations, items };
  });
}

/** LongMemEval: one unit per question (its own haystack); abstention questions are judged by the abstention rule. */
export function longmemevalUnits(input: {
  raws: readonly unknown[];
  tz: string;
  limit?: number | undefined;
  types?: readonly string[];
}): QaUnit[] {
  const chosen = input.limit === undefined ? input.raws : input.raws.slice(0, input.limit);
  return chosen.flatMap((raw) => {
    const q = longmemevalQuestion(raw);
    if (!q || q.question.trim() === '') return [];
    if (input.types && !input.types.includes(q.type)) return [];
    const conversations = longmemevalQuestionToConversations(raw, input.tz);
    const now = parseLongMemEvalDate(q.date, input.tz) ?? afterLast(conversations);
    const group = q.abstention ? 'abstention' : q.type;
    const item = {
      key: q.id,
      group,
      question: q.question,
      gold: q.answer,
      ...(q.abstention ? {} : { proxyAnswer: q.answer }),
      now,
      judgeText: (response: string) =>
        longmemevalJudgeText({
          type: q.type,
          question: q.question,
          answer: q.answer,
          response,
          abstention: q.abstention,
        }),
    };
    return [{ label: q.id, conversations, items: [item] }];
  });
}
