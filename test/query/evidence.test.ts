import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { buildWorld, type BenchWorld } from '../../src/bench/world.js';
import type { Conversation, Turn } from '../../src/domain/conversation.js';
import { createOfflineExtractor } from '../../src/extract/offline/index.js';
import { asksWhatAssistantSaid, buildQueryContext } from '../../src/query/ask.js';
import { eachOptionFirst, LATEST_ASKED, latestFirst, rankEvidence } from '../../src/query/evidence.js';

/**
 * Evidence ranking on real SQLite worlds built by the ingest path users run: a two-person chat where the speakers'
 * names are in nearly every turn, and an AI chat whose assistant repeats the user's words at length.
 */
const day = (m: number, d: number) => Date.UTC(2023, m - 1, d, 12);
const conversation = (id: string, at: number, turns: Turn[]): Conversation => ({
  source: 'locomo',
  externalId: id,
  title: id,
  createdAt: at,
  updatedAt: at,
  model: null,
  turns,
});
const said = (speaker: string, role: 'user' | 'assistant', text: string): Turn => ({ role, text, time: null, speaker });
const user = (text: string): Turn => ({ role: 'user', text, time: null });
const bot = (text: string): Turn => ({ role: 'assistant', text, time: null });

const LONG_ANIMAL_TURN =
  'Sure, Friday works. We spent the whole weekend at the lake house with my parents, the weather was warm and the ' +
  'kids swam every morning, then we drove back on Sunday evening through the hills, and now the kids keep ' +
  'feeding their turtles, such calm animals.';
const friends = [
  conversation('s1', day(5, 8), [
    said('Caroline', 'user', 'Hey Melanie! How are the kids, Melanie?'),
    said('Melanie', 'assistant', 'They are great. I bought new running shoes for the charity race.'),
    said('Caroline', 'user', 'Thanks for telling me, Melanie! Melanie, you always inspire me.'),
    said('Melanie', 'assistant', 'Aw, thanks Caroline.'),
  ]),
  conversation('s3', day(5, 20), [
    said('Caroline', 'user', 'Melanie, I like that film you told me about, Melanie, I really like the music too.'),
    said('Melanie', 'assistant', 'I like it as well, Caroline! The kids like the songs.'),
    said('Caroline', 'user', 'Would you like to come over on Friday, Melanie?'),
    said('Melanie', 'assistant', LONG_ANIMAL_TURN),
    said('Caroline', 'user', 'Caroline likes those little guys too, Melanie, I like them.'),
  ]),
  conversation('s2', day(6, 9), [
    said('Caroline', 'user', 'Melanie, I missed you! Melanie, what have you been up to, Melanie?'),
    said('Melanie', 'assistant', 'Painting a lake sunrise, mostly.'),
    said('Caroline', 'user', 'I went to a support group last week. Melanie, it was powerful.'),
  ]),
];
const padding = (topic: string) =>
  `Here are some ideas for your ${topic} collection. Your ${topic} collection deserves care: sort your ${topic} collection by theme, ` +
  `store your ${topic} collection in albums, and share your ${topic} collection with other collectors. `.repeat(3);
const chat = [
  conversation('c1', day(8, 11), [
    user('Can you help me organize my postcard collection?'),
    bot(padding('postcard')),
    user('I have added 25 new postcards to my collection since I started collecting again.'),
    bot(`Congratulations! For display I recommend a simple postcard rack. ${padding('postcard')}`),
  ]),
];

// The same statement twice, the number changed: the later is what holds now.
const followers = [
  conversation('f1', day(3, 2), [user('My Instagram account has 500 followers.'), bot('Nice growth!')]),
  conversation('f2', day(5, 9), [user('My Instagram account has 600 followers.'), bot('Nice growth!')]),
];

// A choice question's options: one said about at length, the other once.
const devices = [
  conversation('d1', day(4, 2), [
    user(
      'I set up the smart thermostat today and the smart thermostat app lets me set a schedule for the first floor.',
    ),
    bot('Nice!'),
    user('The smart thermostat set itself to eco mode first thing, smart move by the thermostat.'),
    bot('Great.'),
  ]),
  conversation('d2', day(4, 20), [user('My new mesh network is finally working in every room.'), bot('Good to hear.')]),
];

// Two things said on other days than the conversations they are in, and a filler conversation between them.
const services = [
  conversation('m1', day(2, 20), [
    user('I volunteer at the soup kitchen on weekends now.'),
    bot('That is generous of you.'),
    user('By the way, I just came from the Ash Wednesday service at the cathedral on February 1st.'),
    bot('That sounds like a moving service.'),
  ]),
  conversation('m2', day(2, 10), [user('What is a good recipe for lentil soup?'), bot('Try red lentils with cumin.')]),
  conversation('m3', day(2, 20), [
    user('I recently attended the Sunday mass at St. Mary’s Church on January 2nd, the sermon was on forgiveness.'),
    bot('Forgiveness is a powerful theme.'),
  ]),
];

let friendsWorld: BenchWorld;
let servicesWorld: BenchWorld;
let devicesWorld: BenchWorld;
let followersWorld: BenchWorld;
let chatWorld: BenchWorld;
const build = (conversations: Conversation[], label: string) =>
  buildWorld({
    conversations,
    extraction: { extractor: createOfflineExtractor() },
    tz: 'UTC',
    label,
    openStore: () => openSqliteStore({ path: ':memory:' }),
  });

beforeAll(async () => {
  friendsWorld = await build(friends, 'friends');
  chatWorld = await build(chat, 'chat');
  followersWorld = await build(followers, 'followers');
  devicesWorld = await build(devices, 'devices');
  servicesWorld = await build(services, 'services');
});
afterAll(async () => {
  await friendsWorld.close();
  await chatWorld.close();
  await followersWorld.close();
  await devicesWorld.close();
  await servicesWorld.close();
});

async function ranked(world: BenchWorld, question: string, now: number) {
  const context = await buildQueryContext({ store: world.store, question, now, tz: 'UTC', format: 'absolute' });
  const evidence = await rankEvidence({
    store: world.store,
    plan: context.plan,
    items: context.items,
    assistantWanted: asksWhatAssistantSaid(question),
    now,
  });
  return { context, evidence: evidence.turns.map((e) => e.turn.text) };
}

describe('rankEvidence', () => {
  it("a named speaker's own turns come before the other person's turns that only address them by name", async () => {
    const { evidence } = await ranked(friendsWorld, 'What did Melanie buy for the race?', day(7, 1));
    expect(evidence[0]).toBe('They are great. I bought new running shoes for the charity race.');
    // The name-only matches still come, after, to fill a larger budget.
    expect(evidence).toContain('Thanks for telling me, Melanie! Melanie, you always inspire me.');
  });

  it("an AI assistant's long echo of the question's words ranks below the user's own statement", async () => {
    const { evidence } = await ranked(chatWorld, 'How many new postcards have I added to my collection?', day(9, 1));
    expect(evidence[0]).toBe('I have added 25 new postcards to my collection since I started collecting again.');
  });

  it('a question about what the assistant said reaches its turns first', async () => {
    const q = 'What postcard display did you recommend to me?';
    expect(asksWhatAssistantSaid(q)).toBe(true);
    const { evidence, context } = await ranked(chatWorld, q, day(9, 1));
    expect(evidence[0]).toMatch(/^Congratulations! For display I recommend a simple postcard rack/);
    expect(context.text).toContain('For display I recommend a simple postcard rack');
  });

  it('a word said in most turns counts less than the word the question is about', async () => {
    // "like" and the names are in nearly every turn of s3, "animals" in one: that turn leads although the others
    // match more of the question's words.
    const { evidence } = await ranked(friendsWorld, 'What animal do Melanie and Caroline both like?', day(7, 1));
    expect(evidence[0]).toBe(LONG_ANIMAL_TURN);
  });

  it('turns in the time the question names move up', async () => {
    const { evidence } = await ranked(friendsWorld, 'What did Caroline do in June 2023?', day(7, 1));
    expect(evidence[0]).toMatch(/support group|missed you|Painting a lake/);
    expect(friends.find((c) => c.externalId === 's2')?.turns.map((t) => t.text)).toContain(evidence[0]);
  });
});

describe('choice questions', () => {
  it('the best turn for each option leads, so the option said about at length does not crowd out the other', async () => {
    const q = 'Which did I set up first, the smart thermostat or the mesh network system?';
    const { evidence } = await ranked(devicesWorld, q, day(5, 1));
    expect(evidence.slice(0, 2)).toContain('My new mesh network is finally working in every room.');
    expect(evidence.slice(0, 2).some((t) => t.includes('smart thermostat'))).toBe(true);
  });

  it('eachOptionFirst moves the best-covering turn of each option up, in ranked order, and leaves the rest', () => {
    const turns = ['a thermostat', 'the smart thermostat', 'thermostat again', 'a mesh network'];
    const options = [
      ['smart', 'therm'],
      ['mesh', 'netwo'],
    ];
    expect(eachOptionFirst(turns, options, (t) => t)).toEqual([
      'the smart thermostat',
      'a mesh network',
      'a thermostat',
      'thermostat again',
    ]);
    expect(eachOptionFirst(turns, [], (t) => t)).toEqual(turns);
  });
});

describe('interval questions', () => {
  it('the context writes the days between the two things named, each dated by the day its turn names', async () => {
    const q = "How many days had passed between the Sunday mass at St. Mary's Church and the Ash Wednesday service?";
    const { context, evidence } = await ranked(servicesWorld, q, day(2, 21));
    // Each end's turn leads the evidence.
    expect(evidence.slice(0, 2).some((t) => t.includes('Sunday mass'))).toBe(true);
    expect(evidence.slice(0, 2).some((t) => t.includes('Ash Wednesday'))).toBe(true);
    // Dated by what the turns say (2 January, 1 February), not by the day they were said (20 February).
    expect(context.text).toMatch(
      /^Time between what the question names \(dated by the turn that best matches each, quoted\): “the Sunday mass at St\. Mary's Church” 2 January 2023 \[\d\] \(“… attended the Sunday mass at St\. Mary’s Church on January 2nd, the sermon was on forgiveness\.”\), then “the Ash Wednesday service” 1 February 2023 \[\d\] \(“… the way, I just came from the Ash Wednesday service at the cathedral on February 1st\.”\): 30 days \(31 counting both days\), 4 weeks and 2 days apart\.$/m,
    );
    // "the Sunday mass" and "Ash Wednesday" are not times the question asks about.
    expect(context.plan.timeRanges).toEqual([]);
  });

  it('a question about how long ago counts back from now', async () => {
    const { context } = await ranked(
      servicesWorld,
      'How many days ago did I attend the Ash Wednesday service?',
      day(2, 21),
    );
    expect(context.text).toMatch(
      /“I attend the Ash Wednesday service” 1 February 2023 \[\d\] \(“… the way, I just came from the Ash Wednesday service at the cathedral on February 1st\.”\): 20 days ago \(21 counting both days\), 2 weeks and 6 days ago\./,
    );
  });

  it('an end whose best turn has fewer than half its words gets no turn, and the context no span line', async () => {
    // "soup" matches the kitchen and the recipe, but "volunteer", "shift" … are in neither: no span is made up.
    const q =
      'How many days passed between my first volunteer shift at the homeless shelter and the Ash Wednesday service?';
    const { context } = await ranked(servicesWorld, q, day(2, 21));
    expect(context.text).not.toMatch(/^Time between/m);
  });

  it('a question that asks for no interval gets no such line', async () => {
    const { context } = await ranked(servicesWorld, 'Which church did I attend mass at?', day(2, 21));
    expect(context.text).not.toMatch(/^Time (between|since)/m);
  });
});

describe('what holds now', () => {
  it('a question that asks what holds now puts the latest of equal statements first', async () => {
    const now = await ranked(followersWorld, 'How many Instagram followers do I currently have?', day(6, 1));
    expect(now.evidence[0]).toBe('My Instagram account has 600 followers.');
  });

  it('latestFirst raises later turns by up to the bonus, and leaves a clear winner first', () => {
    const turns = [
      { id: 'early-strong', score: 2, time: 0 },
      { id: 'early', score: 1, time: 0 },
      { id: 'late', score: 1, time: 10 },
    ];
    expect(latestFirst(turns, 0.2).map((t) => t.id)).toEqual(['early-strong', 'late', 'early']);
    expect(latestFirst(turns, 0).map((t) => t.id)).toEqual(['early-strong', 'early', 'late']);
    expect(LATEST_ASKED.test('What time do I usually go to the gym?')).toBe(false);
    expect(LATEST_ASKED.test('How much did I earn on my most recent visit?')).toBe(true);
  });
});

describe('asksWhatAssistantSaid', () => {
  it.each([
    ['Can you remind me what sealant you recommended?', true],
    ["I'm going back to our previous conversation about decor.", true],
    ['What was the vegan eatery you suggested last time?', true],
    ['Can you suggest some activities for the evening?', false],
    ['Which hotel did you recommend in Kyoto?', true],
    ['Did you know my sister?', false],
    ['How many postcards have I added?', false],
    ['What did Melanie say about the race?', false],
  ])('%s → %s', (question, expected) => {
    expect(asksWhatAssistantSaid(question)).toBe(expected);
  });
});
