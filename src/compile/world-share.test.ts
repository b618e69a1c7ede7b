import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from '../adapters/tokenizer/tiktoken.js';
import { entity, episode, queryPlan, subgraph as subgraphOf, transition, turns } from '../query/test-kit.js';
import { compileContext } from './context.js';

/**
 * How the budget is split between the world model's part and the evidence turns: the world part keeps its intent's
 * share unless the conversations the evidence comes from would fit whole in the rest; then it gives way, down to a
 * floor of a tenth of the budget.
 */
const tokenizer = createTiktokenTokenizer();
const day = (d: number) => Date.UTC(2023, 4, d, 12);
const NOW = day(30);

const marathon = entity({ id: 'm', name: 'Marathon training', firstSeen: day(1), lastSeen: day(20) });
const history = Array.from({ length: 10 }, (_, i) =>
  transition({
    id: `t${i}`,
    entityId: 'm',
    kind: 'update',
    eventTime: day(1) + i * 3_600_000,
    summary: `Ran training session ${i + 1} along the river`,
    episodeId: 'e1',
  }),
);
const subgraph = subgraphOf({
  entities: [
    {
      entity: marathon,
      transitions: history,
      transitionCount: 10,
      changeCount: 9,
      hiddenCount: 0,
      relationships: [],
    },
  ],
});
const plan = queryPlan({
  question: 'What shoes did Melanie buy for the race?',
  intent: 'temporal_diff',
  entityIds: ['m'],
  wantsHistory: true,
});
const e1 = episode({ id: 'e1', title: 'Running talk', createdAt: day(8), turnCount: 10 });
const talk = turns(
  'e1',
  Array.from({ length: 10 }, (_, i): [string, string] =>
    i === 9
      ? ['Melanie', 'In the end I bought the Zephyr Glide shoes for the race.']
      : ['Caroline', `Turn ${i + 1}: we talked about the weather, the river path and how the training was going.`],
  ),
);

function compile(limit: number, conversation = talk, assistantWanted = false) {
  return compileContext({
    plan,
    subgraph,
    time: { now: NOW, tz: 'UTC', format: 'absolute', periods: [] },
    episodes: new Map([['e1', { title: 'Running talk', createdAt: day(8) }]]),
    budget: { limit, tokenizer },
    evidence: {
      // The best match first, then the rest of its conversation.
      candidates: [...conversation].reverse().map((turn) => ({ episode: e1, turn })),
      turnsOf: () => conversation,
      keywords: ['shoes', 'Melanie', 'race'],
      assistantWanted,
    },
  });
}

describe("the world model's share of the budget", () => {
  it('gives way when the conversations would fit whole beside a smaller world part', () => {
    const out = compile(600);
    expect(out.tokens).toBeLessThanOrEqual(600);
    // Every turn of the conversation is shown; the entity's block, which would have taken the room, is not.
    for (const t of talk) expect(out.text).toContain(t.text);
    expect(out.text).not.toContain('Marathon training');
  });

  const long = turns(
    'e1',
    Array.from({ length: 60 }, (_, i): [string, string] => [
      'Caroline',
      `Turn ${i + 1}: we talked about the weather, the river path and how the training was going.`,
    ]),
  );

  it('keeps its share when the conversations could not fit whole anyway', () => {
    const out = compile(600, long);
    expect(out.tokens).toBeLessThanOrEqual(600);
    // Half the budget (a temporal question's share) is the world part's: the entity's block is shown first.
    expect(out.text).toContain('Marathon training');
    expect(out.text.indexOf('Marathon training')).toBeLessThan(out.text.indexOf('From the conversations'));
  });

  it('is smaller when the question asks what the assistant said', () => {
    const out = compile(600, long, true);
    expect(out.tokens).toBeLessThanOrEqual(600);
    expect(out.text).not.toContain('Marathon training');
  });
});
