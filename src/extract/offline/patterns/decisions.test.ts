import { describe, expect, it } from 'vitest';
import { known, run } from '../test-kit.js';

const preamble = { mentionedEntities: [known('Tidepool', 'project')] };

describe('decisions', () => {
  it.each([
    [
      'I decided to use Supabase instead of Firebase because our data is relational.',
      { summary: 'use Supabase', alternatives: ['Firebase'], reasoning: 'our data is relational' },
    ],
    [
      "We're going with Postgres over MongoDB because Mongo would repeat the Firestore problem.",
      { summary: 'go with Postgres', alternatives: ['MongoDB'], reasoning: 'Mongo would repeat the Firestore problem' },
    ],
    [
      "For the backend I'm going to use Firebase because it's the fastest way to get auth.",
      { summary: 'use Firebase', alternatives: [], reasoning: "it's the fastest way to get auth" },
    ],
    [
      "I've decided to take a gap semester in San Francisco.",
      { summary: 'take a gap semester in San Francisco', alternatives: [] },
    ],
    [
      'We decided to build the graph layer inside Postgres instead of adopting Neo4j, because we want one database.',
      { summary: 'build the graph layer inside Postgres', alternatives: ['Neo4j'], reasoning: 'we want one database' },
    ],
    [
      'We decided to take the SAFE instead of waiting for a priced round.',
      { summary: 'take the SAFE', alternatives: ['waiting for a priced round'] },
    ],
    ['I decided against moving to Berlin.', { summary: 'not moving to Berlin' }],
    ['Decision: we ship the beta on Friday.', { summary: 'we ship the beta on Friday' }],
    [
      'I decided to upgrade my pedals today, specifically the Shimano Ultegra pedals.',
      { summary: 'upgrade my pedals today', alternatives: [] },
    ],
    ["I've settled on a 3:1 ratio with a dash of bitters.", { summary: 'choose a 3:1 ratio with a dash of bitters' }],
    // A pronoun that names something after it is no pointing back.
    [
      'I decided to go with the plan that Maya suggested.',
      { summary: 'go with the plan that Maya suggested', alternatives: [] },
    ],
  ])('%s', (text, expected) => {
    expect(run([text]).decisions[0]).toMatchObject(expected);
  });

  it('a one-word decision names the project in focus, and "The alternatives were" attaches to it', () => {
    const r = run(
      [
        'Tidepool retention is bad. I decided to pivot because the only retained users were labs. The alternatives were keeping the student app, or shutting it down.',
      ],
      { preamble },
    );
    expect(r.decisions).toEqual([
      expect.objectContaining({
        summary: 'pivot Tidepool',
        reasoning: 'the only retained users were labs',
        alternatives: ['keeping the student app', 'shutting it down'],
        relatedEntities: ['Tidepool'],
      }),
    ]);
  });

  it.each([
    'Should I decide to use Supabase?',
    "I'm going to the gym.",
    "I'm going to use Postgres.",
    'I decided.',
    'Have you decided to use Redis?',
    'If I decide to move, I will tell you.',
    // The object only points back at the talk.
    'I decided to write about this.',
    "I've decided to include this at the beginning.",
    'We decided to go for it!',
  ])('not a decision: %s', (text) => {
    expect(run([text]).decisions).toEqual([]);
  });

  // 2025-01-15: yesterday is 14 January, last week's middle 9 January; December (2024) its middle, 16 December.
  it.each([
    ['Last week I decided to use Supabase.', '2025-01-09'],
    ['Yesterday I chose to go to networking events.', '2025-01-14'],
    ['I decided to use Supabase.', undefined],
    // An alternative weighed against the decision is not when it was made.
    ['I decided to stay in SF instead of going back to UMD in December.', undefined],
    // Nor is a reason with a subject of its own.
    ['I decided to sell my car because I moved last month.', undefined],
    // One still to be made has no past.
    ["We're going with Postgres, we tried it last week.", undefined],
  ])('%s → dated %s', (text, day) => {
    const found = run([text], { preamble }).decisions[0];
    expect(found).toBeDefined();
    expect(found?.eventTime?.slice(0, 10)).toBe(day);
  });
});
