import { defineTextPrompt } from '../../llm/index.js';

/**
 * The judges. LongMemEval: the official per-type prompts of evaluate_qa.py (get_anscheck_prompt), abstention
 * included. LoCoMo's official scorer is token F1; the LLM judge used by the published systems (Mem0, Zep) grades
 * CORRECT/WRONG generously on wording and date format; category 5 (adversarial) is judged as abstention: credit only for
 * saying the information is not available, never for the tempting `adversarial_answer`.
 */
const ASK = 'Is the model response correct? Answer yes or no only.';
const BASE =
  'I will give you a question, a correct answer, and a response from a model. Please answer yes if the response ' +
  'contains the correct answer. Otherwise, answer no. If the response is equivalent to the correct answer or ' +
  'contains all the intermediate steps to get the correct answer, you should also answer yes. If the response only ' +
  'contains a subset of the information required by the answer, answer no.';

export function longmemevalJudgeText(input: {
  type: string;
  question: string;
  answer: string;
  response: string;
  abstention: boolean;
}): string {
  const { question, answer, response } = input;
  if (input.abstention) {
    return (
      'I will give you an unanswerable question, an explanation, and a response from a model. Please answer yes if ' +
      'the model correctly identifies the question as unanswerable. The model could say that the information is ' +
      'incomplete, or some other information is given but the asked information is not.\n\n' +
      `Question: ${question}\n\nExplanation: ${answer}\n\nModel Response: ${response}\n\n` +
      'Does the model correctly identify the question as unanswerable? Answer yes or no only.'
    );
  }
  if (input.type === 'single-session-preference') {
    return (
      'I will give you a question, a rubric for desired personalized response, and a response from a model. Please ' +
      'answer yes if the response satisfies the desired response. Otherwise, answer no. The model does not need to ' +
      "reflect all the points in the rubric. The response is correct as long as it recalls and utilizes the user's " +
      `personal information correctly.\n\nQuestion: ${question}\n\nRubric: ${answer}\n\nModel Response: ${response}\n\n${ASK}`
    );
  }
  const extra =
    input.type === 'temporal-reasoning'
      ? ' In addition, do not penalize off-by-one errors for the number of days. If the question asks for the number ' +
        'of days/weeks/months, etc., and the model makes off-by-one errors (e.g., predicting 19 days when the answer ' +
        "is 18), the model's response is still correct."
      : input.type === 'knowledge-update'
        ? ' If the response contains some previous information along with an updated answer, the response should be ' +
          'considered as correct as long as the updated answer is the required answer.'
        : '';
  return `${BASE}${extra}\n\nQuestion: ${question}\n\nCorrect Answer: ${answer}\n\nModel Response: ${response}\n\n${ASK}`;
}

export function locomoJudgeText(input: {
  category: number;
  question: string;
  answer: string | null;
  adversarialAnswer: string | null;
  response: string;
}): string {
  const { question, response } = input;
  if (input.category === 5) {
    const trap = input.adversarialAnswer ? ` A tempting but wrong answer would be: ${input.adversarialAnswer}.` : '';
    return (
      'I will give you an unanswerable question, an explanation, and a response from a model. Please answer yes if ' +
      'the model correctly identifies the question as unanswerable. The model could say that the information is ' +
      'incomplete, or some other information is given but the asked information is not.\n\n' +
      `Question: ${question}\n\nExplanation: The conversations never say this.${trap}\n\nModel Response: ${response}\n\n` +
      'Does the model correctly identify the question as unanswerable? Answer yes or no only.'
    );
  }
  return (
    'Your task is to label an answer to a question as CORRECT or WRONG. You will be given a question, a gold answer ' +
    'and a generated answer, about memories from conversations. Be generous: if the generated answer touches on the ' +
    'same topic as the gold answer, or refers to the same date or time period (even in another format, such as ' +
    '"May 7th" for "7 May 2023", or a relative date resolved correctly), count it as CORRECT.\n\n' +
    `Question: ${question}\n\nGold answer: ${input.answer ?? ''}\n\nGenerated answer: ${response}\n\n` +
    'Answer yes if the generated answer is CORRECT and no if it is WRONG. Answer yes or no only.'
  );
}

/** judge-answer@1: one user message written by the functions above; the answer is "yes" or "no". */
export const JUDGE_PROMPT = defineTextPrompt({
  name: 'judge-answer',
  version: 1,
  maxOutputTokens: 10,
  temperature: 0,
  render: (input: { text: string }) => [{ role: 'user', content: input.text }],
});

/**
 * The verdict, by the official LongMemEval rule (evaluate_qa.py: `label = 'yes' in eval_response.lower()`): the
 * judge's reply counts as "correct" when it contains "yes" anywhere, in any case ("Yes.", "YES, because…", even
 * "No, … yes"). The same rule is applied to the LoCoMo judge, whose prompt asks for the same one-word answer, so
 * figures stay comparable with published runs that used the official script.
 */
export function judgedYes(text: string): boolean {
  return text.toLowerCase().includes('yes');
}
