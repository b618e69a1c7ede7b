import { z } from 'zod';
import type { Usage } from '../../extract/types.js';
import { addUsage, definePrompt, emptyUsage, type LlmClient } from '../../llm/index.js';
import { PERSONAL_KINDS, type TurnRef } from '../../ports/personal-bench-store.js';
import { tokenize } from '../bm25.js';
import { spread, type DraftQuestion } from './templates.js';
import { uniqueRefs } from './history.js';
import type { HistoryTurn } from './statements.js';

/**
 * Questions written by a model (docs/evaluation.md "Personal benchmark"): dated user turns, sampled evenly over the
 * history, are shown in batches with ids; the model writes natural questions of the benchmark's kinds with their
 * answers and the ids of the turns that hold them. Code checks every question: evidence ids must be ids it was
 * shown; an answerable question needs evidence (a multi-session one, turns of two conversations or more); an
 * abstention question has none and must name a word that no turn of the whole history contains. Others are dropped
 * and counted. The prompt goes through the client, so a cloud model gets it redacted (PIE_REDACT).
 */

/** User turns shown to the model, at most (evenly spread over time), and per request. */
export const MODEL_SAMPLE = 120;
export const MODEL_BATCH = 40;
/** A turn shorter than this many words states nothing worth a question. */
const MIN_WORDS = 6;
/** Characters of a turn shown (its opening). */
const MAX_TURN_CHARS = 700;

const questionSchema = z.object({
  kind: z.enum(PERSONAL_KINDS),
  question: z.string(),
  answer: z.string(),
  evidence: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
});

export const PERSONAL_QUESTIONS_PROMPT = definePrompt({
  name: 'personal-questions',
  version: 1,
  maxOutputTokens: 4000,
  temperature: 0,
  schema: z.object({ questions: z.array(questionSchema) }),
  render: (input: { turns: { id: string; conversation: string; date: string; text: string }[]; perKind: number }) => [
    {
      role: 'system',
      content:
        "You write a memory benchmark from a person's own chat history: questions the person could ask an assistant " +
        'that remembers their past conversations. Write them in the first person ("When did I …?"). Kinds:\n' +
        '- single-fact: one fact the person stated ("What did I switch to from Notion?")\n' +
        '- temporal: when something happened ("When did I move to Denver?"); the answer is a date\n' +
        '- knowledge-update: something that changed, asking for the current value ("What do I use now for notes?"); ' +
        'cite the earlier and the latest turn\n' +
        '- multi-session: how something developed across conversations ("How did my plans for X change?"); cite turns ' +
        'of at least two conversations\n' +
        '- abstention: a plausible question about something the turns never mention; no evidence\n' +
        `Write up to ${input.perKind} questions of each kind. Each answer must follow from the cited turns alone. ` +
        'Answer with JSON {"questions": [{"kind": "...", "question": "...", "answer": "...", "evidence": ["T1"]}]}.',
    },
    {
      role: 'user',
      content: input.turns.map((t) => `[${t.id}] ${t.date}, conversation ${t.conversation}:\n${t.text}`).join('\n\n'),
    },
  ],
});

export interface ModelQuestions {
  questions: DraftQuestion[];
  usage: Usage;
  /** Questions the model wrote that failed a check, by reason. */
  dropped: Record<string, number>;
  turnsShown: number;
}

export async function modelQuestions(input: {
  client: LlmClient;
  turns: readonly HistoryTurn[];
  /** Every turn's text (user's and assistant's), to check that an abstention question names something unsaid. */
  texts: Iterable<string>;
  dateOf: (time: number) => string;
  perKind?: number;
  onProgress?: (done: number, total: number) => void;
}): Promise<ModelQuestions> {
  const shown = spread(
    input.turns.filter((t) => t.text.split(/\s+/).length >= MIN_WORDS),
    MODEL_SAMPLE,
  );
  const words = new Set<string>();
  for (const text of input.texts) for (const w of tokenize(text)) words.add(w);
  const conversations = new Map<string, string>();
  const batches: HistoryTurn[][] = [];
  for (let i = 0; i < shown.length; i += MODEL_BATCH) batches.push(shown.slice(i, i + MODEL_BATCH));
  let usage = emptyUsage();
  const dropped: Record<string, number> = {};
  const drop = (reason: string): void => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };
  const out: DraftQuestion[] = [];
  for (const [b, batch] of batches.entries()) {
    input.onProgress?.(b, batches.length);
    const ids = new Map<string, HistoryTurn>();
    const turns = batch.map((t, i) => {
      const id = `T${b * MODEL_BATCH + i + 1}`;
      ids.set(id, t);
      if (!conversations.has(t.episodeId)) conversations.set(t.episodeId, `C${conversations.size + 1}`);
      return {
        id,
        conversation: conversations.get(t.episodeId) ?? '?',
        date: input.dateOf(t.time),
        text: t.text.slice(0, MAX_TURN_CHARS),
      };
    });
    const result = await input.client.generate({
      prompt: PERSONAL_QUESTIONS_PROMPT,
      input: { turns, perKind: input.perKind ?? 3 },
    });
    usage = addUsage(usage, result.usage);
    for (const q of result.object.questions) {
      const question = q.question.trim();
      if (question === '' || question.length > 300 || q.answer.trim() === '') {
        drop('empty or overlong');
        continue;
      }
      const evidence = q.evidence.map((id) => ids.get(id.trim().replace(/^\[|\]$/g, '')));
      if (evidence.some((t) => t === undefined)) {
        drop('evidence ids it was not shown');
        continue;
      }
      const refs = (evidence as HistoryTurn[]).map((t): TurnRef => ({ episodeId: t.episodeId, seq: t.seq }));
      const problem = checkKind({ kind: q.kind, question, refs, words });
      if (problem) {
        drop(problem);
        continue;
      }
      const times = (evidence as HistoryTurn[]).map((t) => t.time);
      out.push({
        kind: q.kind,
        question,
        answer: q.answer.trim(),
        evidence: uniqueRefs(refs),
        time: times.length > 0 ? Math.max(...times) : (batch[batch.length - 1]?.time ?? 0),
      });
    }
  }
  input.onProgress?.(batches.length, batches.length);
  return { questions: out, usage, dropped, turnsShown: shown.length };
}

function checkKind(input: {
  kind: DraftQuestion['kind'];
  question: string;
  refs: readonly TurnRef[];
  words: ReadonlySet<string>;
}): string | null {
  const { kind, refs } = input;
  if (kind === 'abstention') {
    if (refs.length > 0) return 'abstention with evidence';
    const unsaid = tokenize(input.question).some((w) => w.length >= 4 && !input.words.has(w));
    return unsaid ? null : 'abstention about something the history mentions';
  }
  if (refs.length === 0) return 'answerable without evidence';
  if (kind === 'multi-session' && new Set(refs.map((r) => r.episodeId)).size < 2) {
    return 'multi-session within one conversation';
  }
  return null;
}
