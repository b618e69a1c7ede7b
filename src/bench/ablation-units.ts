import type { Conversation } from '../domain/conversation.js';
import { isObject, stringField } from '../import/common.js';
import { locomoUnits, longmemevalUnits } from './qa/units.js';
import { firstPerCategory, type TotItem } from './tot/items.js';
import { totConversation, TOT_NOW } from './tot/world.js';

/** The three question sets of the temporal-format ablation (issue 6; pie-paper §5.1). */
export const ABLATION_SETS = ['locomo', 'longmemeval', 'tot'] as const;
export type AblationSet = (typeof ABLATION_SETS)[number];

export const SET_TITLES: Record<AblationSet, string> = {
  locomo: 'LoCoMo temporal questions (category 2)',
  longmemeval: 'LongMemEval temporal-reasoning',
  tot: 'Test of Time arithmetic',
};

/** How an answer is graded: by the benchmark's LLM judge prompt, or by the ToT exact-match rule. */
export type AblationGrading = { kind: 'judge'; text: (response: string) => string } | { kind: 'tot'; item: TotItem };

export interface AblationItem {
  key: string;
  /** The row group: the set for LoCoMo/LongMemEval, the ToT category for ToT. */
  group: string;
  /** What PIE is queried with. */
  question: string;
  /** What the model is asked (ToT: the asking sentence and the answer-format instruction). */
  answerQuestion: string;
  gold: string;
  now: number;
  /** ToT: the quantities the statement states (the facts an answer depends on). */
  facts?: readonly string[];
  grading: AblationGrading;
}

export interface AblationUnit {
  label: string;
  conversations: Conversation[];
  items: AblationItem[];
}

/** LoCoMo: one unit per conversation (its category-2 questions); `limit` = conversations. */
export function locomoAblationUnits(samples: readonly unknown[], limit: number | undefined): AblationUnit[] {
  return locomoUnits({ samples, tz: 'UTC', limit, categories: [2] }).map((u) => ({
    label: u.label,
    conversations: u.conversations,
    items: u.items.map((i) => ({
      key: `locomo:${i.key}`,
      group: 'locomo',
      question: i.question,
      answerQuestion: i.question,
      gold: i.gold,
      now: i.now,
      grading: { kind: 'judge', text: (r: string) => i.judgeText(r) },
    })),
  }));
}

/** LongMemEval: one unit per temporal-reasoning question (abstention ones included); `limit` = questions. */
export function longmemevalAblationUnits(raws: readonly unknown[], limit: number | undefined): AblationUnit[] {
  const temporal = raws.filter((r) => isObject(r) && stringField(r, 'question_type') === 'temporal-reasoning');
  return longmemevalUnits({ raws: temporal, tz: 'UTC', limit }).map((u) => ({
    label: u.label,
    conversations: u.conversations,
    items: u.items.map((i) => ({
      key: `longmemeval:${i.key}`,
      group: 'longmemeval',
      question: i.question,
      answerQuestion: i.question,
      gold: i.gold,
      now: i.now,
      grading: { kind: 'judge', text: (r: string) => i.judgeText(r) },
    })),
  }));
}

/** ToT arithmetic: one unit per item (its statement as a note); `limit` = items per category. */
export function totAblationUnits(items: readonly TotItem[], limit: number | undefined): AblationUnit[] {
  return firstPerCategory(items, limit).map((item) => ({
    label: item.key,
    conversations: [totConversation(item, 'UTC')],
    items: [
      {
        key: `tot:${item.key}`,
        group: 'tot',
        question: item.ask,
        answerQuestion: `${item.ask} ${item.instruction}`.trim(),
        gold: JSON.stringify(item.label),
        now: TOT_NOW,
        facts: item.facts,
        grading: { kind: 'tot', item },
      },
    ],
  }));
}
