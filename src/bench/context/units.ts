import type { Conversation } from '../../domain/conversation.js';
import { PieError } from '../../domain/errors.js';
import { isObject, stringField } from '../../import/common.js';
import { locomoSampleToConversations } from '../../import/locomo.js';
import { longmemevalQuestionToConversations } from '../../import/longmemeval.js';
import { parseLongMemEvalDate } from '../../import/times.js';
import { afterLast, categoryName, locomoQas } from '../locomo.js';
import { longmemevalQuestion } from '../longmemeval.js';

/** One question of the answer-in-context benchmark. */
export interface ContextItem {
  key: string;
  /** LoCoMo category name or LongMemEval question type. */
  group: string;
  question: string;
  /** The gold answer (LoCoMo category 5: the adversarial answer, reported apart as "trap in context"). */
  answer: string;
  now: number;
  /** Counted in "all" (LoCoMo categories 1–4; LongMemEval questions that are not abstentions). */
  headline: boolean;
}

/** The questions of one world: a LoCoMo conversation, or one LongMemEval question's haystack. */
export interface ContextUnit {
  label: string;
  conversations: Conversation[];
  items: ContextItem[];
}

/**
 * "1-5", "6-10", "3", "1,4-5", "all" → the 1-based positions chosen (LoCoMo conversations are numbered in file order:
 * 1–5 are the tuning half, 6–10 the held-out half).
 */
export function parsePositions(text: string, count: number): number[] {
  if (text.trim() === 'all') return Array.from({ length: count }, (_, i) => i + 1);
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    const from = Number(m?.[1]);
    const to = m?.[2] === undefined ? from : Number(m[2]);
    if (!m || from < 1 || to < from || to > count) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `--conversations "${text}" is not a list of positions between 1 and ${count}; use e.g. 1-5, 6-10, 3,7 or all.`,
      );
    }
    for (let i = from; i <= to; i++) out.add(i);
  }
  return [...out].sort((a, b) => a - b);
}

/** LoCoMo: one unit per chosen conversation; "now" is a day after its last session. */
export function locomoContextUnits(input: { samples: readonly unknown[]; positions: readonly number[]; tz: string }) {
  return input.positions.flatMap((position): ContextUnit[] => {
    const sample = input.samples[position - 1];
    if (sample === undefined) return [];
    const sampleId = isObject(sample) ? (stringField(sample, 'sample_id') ?? `#${position}`) : `#${position}`;
    const conversations = locomoSampleToConversations(sample, input.tz);
    const now = afterLast(conversations);
    const items = locomoQas(sample).flatMap((qa, i): ContextItem[] => {
      const answer = qa.category === 5 ? (qa.adversarialAnswer ?? qa.answer) : qa.answer;
      if (qa.question.trim() === '' || answer === null || answer.trim() === '') return [];
      const group = categoryName(qa.category);
      return [{ key: `${sampleId}#${i}`, group, question: qa.question, answer, now, headline: qa.category !== 5 }];
    });
    return [{ label: sampleId, conversations, items }];
  });
}

/** LongMemEval: one unit per question (its own haystack); abstention questions are left out (no answer to find). */
export function longmemevalContextUnits(input: {
  raws: readonly unknown[];
  tz: string;
  /** Question ids to leave out (the dev30 tuning set when the held-out questions are measured). */
  exclude?: ReadonlySet<string>;
  /** Only these question ids (the dev30 questions in the oracle file: the tuning analogue of the held-out set). */
  only?: ReadonlySet<string>;
  limit?: number | undefined;
}): ContextUnit[] {
  const units: ContextUnit[] = [];
  for (const raw of input.raws) {
    if (input.limit !== undefined && units.length >= input.limit) break;
    const q = longmemevalQuestion(raw);
    if (!q || q.abstention || q.question.trim() === '' || q.answer.trim() === '') continue;
    if (input.exclude?.has(q.id)) continue;
    if (input.only && !input.only.has(q.id)) continue;
    const conversations = longmemevalQuestionToConversations(raw, input.tz);
    const now = parseLongMemEvalDate(q.date, input.tz) ?? afterLast(conversations);
    const item = { key: q.id, group: q.type, question: q.question, answer: q.answer, now, headline: true };
    units.push({ label: q.id, conversations, items: [item] });
  }
  return units;
}

/** The question ids of a LongMemEval file (to exclude the tuning set from a held-out run). */
export function longmemevalIds(raws: readonly unknown[]): Set<string> {
  return new Set(raws.flatMap((r) => (isObject(r) && typeof r.question_id === 'string' ? [r.question_id] : [])));
}
