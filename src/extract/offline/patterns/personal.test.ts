import { beforeAll, describe, expect, it } from 'vitest';
import type { ExtractionBatch } from '../../types.js';
import { extractOffline } from '../index.js';
import { loadSpanTagger, type SpanTagger } from '../nlp.js';
import { batchOf, T0 } from '../test-kit.js';
import { withoutStrandedClause } from './personal.js';

let tagger: SpanTagger;
beforeAll(async () => {
  tagger = await loadSpanTagger();
});

/** A two-person chat: Caroline (user role) and Melanie (the second speaker, assistant role with a name). */
function chat(lines: [string, string][]): ExtractionBatch {
  return batchOf([
    {
      id: 'c1',
      title: 'Caroline & Melanie',
      createdAt: T0,
      model: null,
      turns: lines.map(([speaker, text], i) => ({
        role: speaker === 'Caroline' ? ('user' as const) : ('assistant' as const),
        speaker,
        text,
        time: T0 + i * 60_000,
      })),
    },
  ]);
}

const day = (offset: number) => new Date(T0 + offset * 86_400_000).toISOString().slice(0, 10);

describe('personal events, pets and observations of both speakers', () => {
  it.each([
    // [speaker, sentence, entity, attribute, value, day of the event]
    [
      'Caroline',
      'I went to a LGBTQ support group yesterday and it was so powerful.',
      'Caroline',
      'went to a LGBTQ support group',
      day(-1),
    ],
    ['Melanie', 'Yeah, I painted that lake sunrise last week!', 'Melanie', 'painted that lake sunrise', '2025-01-09'],
    [
      'Melanie',
      'Lost my job at the bakery this month, so I am looking around.',
      'Melanie',
      'lost my job at the bakery',
      day(0),
    ],
    ['Caroline', "I'm starting a dance studio because I love dancing.", 'Caroline', 'starting a dance studio', day(0)],
    // An abbreviation's point ends no event (LongMemEval S dev30).
    [
      'Caroline',
      "I attended the Sunday mass at St. Mary's Church yesterday.",
      'Caroline',
      "attended the Sunday mass at St. Mary's Church",
      day(-1),
    ],
    // compromise reads "got" as an auxiliary of "back"; the event is "got back from …".
    [
      'Melanie',
      'We just got back from camping with the family.',
      'Melanie',
      'got back from camping with the family',
      day(0),
    ],
    // What happened to the speaker's own people or pets is the speaker's event.
    [
      'Maria',
      "Last week, my grandma passed away and it's been really hard.",
      'Maria',
      'my grandma passed away',
      '2025-01-09',
    ],
    [
      'John',
      "My colleague Rob invited me to a beginner's yoga class.",
      'John',
      "my colleague Rob invited me to a beginner's yoga class",
      day(0),
    ],
    // An object too long to be an event ends before its purpose ("to encourage …")…
    [
      'Caroline',
      'I gave a talk at my school last week to encourage students to get involved in the community.',
      'Caroline',
      'gave a talk at my school',
      '2025-01-09',
    ],
    // … and keeps it when it is short enough to read whole.
    ['Jon', 'I went to a fair to show off my studio.', 'Jon', 'went to a fair to show off my studio', day(0)],
    // compromise's lexicon files "lost" as an adjective; before "my" it is the verb.
    [
      'Melanie',
      'Unfortunately, I also lost my job at the bakery this month.',
      'Melanie',
      'lost my job at the bakery',
      day(0),
    ],
    [
      'Melanie',
      'I just launched an ad campaign for my clothing store in hopes of growing the business.',
      'Melanie',
      'launched an ad campaign for my clothing store',
      day(0),
    ],
    [
      'Melanie',
      'FYI, I finished another pottery project - want to see a pic?',
      'Melanie',
      'finished another pottery project',
      day(0),
    ],
    // An activity told by its gerund needs no object.
    ['Melanie', 'My husband and I went hiking last weekend.', 'Melanie', 'went hiking', '2025-01-12'],
    ['Caroline', 'I went camping with the kids yesterday.', 'Caroline', 'went camping with the kids', day(-1)],
    // A number's comma or point does not end the object.
    ['Caroline', 'I made about $6,800 from my campus job.', 'Caroline', 'made about $6,800 from my campus job', day(0)],
    ['Melanie', 'I ran 2.5 miles yesterday.', 'Melanie', 'ran 2.5 miles', day(-1)],
    // What was done to the speaker is an event.
    ['Melanie', 'I was promoted to manager last week!', 'Melanie', 'was promoted to manager', '2025-01-09'],
    [
      'Caroline',
      'I got accepted for a fashion internship!',
      'Caroline',
      'got accepted for a fashion internship',
      day(0),
    ],
    // A vague time is not what was done; the event keeps the day it was said.
    ['Melanie', 'We went camping with the kids a few weeks ago.', 'Melanie', 'went camping with the kids', day(0)],
    ['Caroline', 'I recently started a pottery class!', 'Caroline', 'started a pottery class', day(0)],
    // A time before the subject is no thing the clause describes.
    ['Melanie', 'This morning I went to the gym.', 'Melanie', 'went to the gym', day(0)],
    ['Melanie', 'In the summer I went to Spain.', 'Melanie', 'went to Spain', day(0)],
    ['Caroline', 'The kids and I baked cookies yesterday.', 'Caroline', 'baked cookies', day(-1)],
    // Words between a determiner and "when" are no thing described ("one that stands out was when I met…").
    [
      'Maria',
      'There are so many, but one that stands out was when I met someone special at the shelter.',
      'Maria',
      'met someone special at the shelter',
      day(0),
    ],
    // A title with its comma inside the quotes keeps its closing quote.
    [
      'Jack',
      'Today I watched a really great one called "Police Story," which tells a story about police.',
      'Jack',
      'watched a really great one called "Police Story"',
      day(0),
    ],
    // Chat drops the subject behind a word or two ("Just started …") and drops "I've" before "been" (LoCoMo).
    ['Maria', 'Just started doing aerial yoga, it’s great.', 'Maria', 'started doing aerial yoga', day(0)],
    ['Tim', 'Finally finished my thesis last week!', 'Tim', 'finished my thesis', '2025-01-09'],
    ['Melanie', 'Been running longer since our last talk.', 'Melanie', 'been running longer', day(0)],
    // A season or month named from the day it was said dates the event at its middle, and leaves the summary.
    ['Tim', 'I took this pic last summer.', 'Tim', 'took this pic', '2024-07-17'],
    ['Maria', 'Last March I ran my first marathon.', 'Maria', 'ran my first marathon', '2024-03-16'],
    // A day said without its year dates the event on it.
    ['Maria', 'I got my new boots on December 20th.', 'Maria', 'got my new boots', '2024-12-20'],
    ['Maria', 'I went to Tokyo in March and loved it.', 'Maria', 'went to Tokyo and loved it', '2024-03-16'],
    // A time in a clause set against the event with "but" is that clause's (LongMemEval S dev30).
    [
      'Maria',
      'I just finished a 416-page novel, but before that, I read "The Power" in December.',
      'Maria',
      'finished a 416-page novel',
      day(0),
    ],
    // The preposition a time came with leaves the summary with it.
    [
      'Maria',
      "I've been experimenting with new cocktail recipes over the past month.",
      'Maria',
      'been experimenting with new cocktail recipes',
      '2024-12-31',
    ],
    // A turn in a life needs no object: a change that befell the speaker, a milestone verb (LoCoMo).
    ['Tim', 'I graduated last week!', 'Tim', 'graduated', '2025-01-09'],
    ['Maria', 'We got engaged yesterday!', 'Maria', 'got engaged', day(-1)],
    ['Maria', 'I retired last year.', 'Maria', 'retired', '2024-07-02'],
    // The present's auxiliary leaves the summary, as with "I'm" (MemoryBank, LongMemEval S dev30).
    ['Maria', 'I am preparing for the interview.', 'Maria', 'preparing for the interview', day(0)],
    ['Maria', 'I have been learning to cook.', 'Maria', 'been learning to cook', day(0)],
    ['Maria', 'I have talked to my boss about it.', 'Maria', 'talked to my boss about it', day(0)],
    // "Not so long ago" is one vague time, all of it out of the object (LoCoMo).
    [
      'Gina',
      'I started my own online clothing store not so long ago.',
      'Gina',
      'started my own online clothing store',
      day(0),
    ],
    // A relative clause on a noun after a preposition tells what the noun names, with where or when it was
    // (LongMemEval S dev30); the same words opening the sentence are a scene.
    [
      'Maria',
      "I'm still recovering from a sunburn I got during my beach trip last month.",
      'Maria',
      'got a sunburn during my beach trip',
      '2024-12-16',
    ],
    [
      'Maria',
      "I'm still waiting on a custom-fit car cover I ordered from Amazon on April 5th.",
      'Maria',
      'ordered a custom-fit car cover from Amazon',
      '2024-04-05',
    ],
    [
      'Tim',
      "I'm still feeling accomplished after that charity run I did last Sunday.",
      'Tim',
      'did that charity run',
      '2025-01-12',
    ],
    ['Tim', 'After the game I went out with Sam.', 'Tim', 'went out with Sam', day(0)],
    // A verb written as its own past, which compromise reads as present, is past with a time before the day.
    ['Tim', 'I quit my job last Friday.', 'Tim', 'quit my job', '2025-01-10'],
    ['Tim', 'I quit last Friday.', 'Tim', 'quit', '2025-01-10'],
    ['Tim', 'I quit smoking two months ago.', 'Tim', 'quit smoking', '2024-11-16'],
    ['Maria', 'I set up my own studio last month.', 'Maria', 'set up my own studio', '2024-12-16'],
    // A run of days dates the event on its first.
    [
      'Maria',
      'I stayed at the Grand Floridian from March 25th to 31st.',
      'Maria',
      'stayed at the Grand Floridian',
      '2024-03-25',
    ],
    // A month written with its year dates the event at its middle (LongMemEval S dev30).
    [
      'Maria',
      'I completed my degree in Computer Science in May 2020.',
      'Maria',
      'completed my degree in Computer Science',
      '2020-05-16',
    ],
    // A holiday is its day ("last Christmas" said on 15 January 2025).
    ['Maria', 'Last Christmas I went skiing in Utah.', 'Maria', 'went skiing in Utah', '2024-12-25'],
    // A day written out with its year is that day, and its words leave the summary, the part after a comma too.
    [
      'Maria',
      'I graduated from Stanford on May 15, 2019 and moved on.',
      'Maria',
      'graduated from Stanford',
      '2019-05-15',
    ],
    // A time that owns a noun says which exhibition, not when the discovery was: it stays in the words (MemoryBank).
    [
      'Susan',
      "I'm happy to say that I discovered one of my paintings was selected for yesterday's exhibition.",
      'Susan',
      "discovered one of my paintings was selected for yesterday's exhibition",
      '2025-01-15',
    ],
    // A clause of the speaker's that ends on its preposition says which shelter; the object read as cut short and told
    // no event (LoCoMo conv-41, session 2).
    [
      'Caroline',
      'In the meantime, I donated my old car to a homeless shelter I volunteer at yesterday.',
      'Caroline',
      'donated my old car to a homeless shelter',
      day(-1),
    ],
    [
      'Melanie',
      'I recently gave a few talks at the shelter we volunteer at.',
      'Melanie',
      'gave a few talks at the shelter',
      day(0),
    ],
    // Time spent with someone, on a day the sentence names (LoCoMo conv-43, session 3).
    [
      'Caroline',
      'Last week, I had a nice chat with a Harry Potter fan in California. It was magical!',
      'Caroline',
      'had a nice chat with a Harry Potter fan in California',
      '2025-01-09',
    ],
    ['Melanie', 'I had dinner with my parents last night.', 'Melanie', 'had dinner with my parents', day(-1)],
    // A long object ends before a second past of the same subject (LoCoMo conv-43, session 2).
    [
      'Caroline',
      'Last night I joined a fantasy literature forum and had a great talk about my fave books.',
      'Caroline',
      'joined a fantasy literature forum',
      day(-1),
    ],
    // A long object ends before a phrase of where or with whom that leaves it short ("stories and sketches" is no
    // second verb; what follows "how to" is the point, not a purpose to cut away); it had told no event (LoCoMo; the Downtown Farmers Market: LongMemEval S dev30).
    [
      'Caroline',
      'I stumbled upon this super cool book from the 1900s with stories and sketches - so awesome to read about the town!',
      'Caroline',
      'stumbled upon this super cool book',
      day(0),
    ],
    [
      'Caroline',
      'I started learning how to play the piano with a teacher from my neighbourhood church choir.',
      'Caroline',
      'started learning how to play the piano with a teacher',
      day(0),
    ],
    [
      'Maria',
      'By the way, speaking of recent sales, I earned $420 at the Downtown Farmers Market on my most recent visit.',
      'Maria',
      'earned $420 at the Downtown Farmers Market',
      day(0),
    ],
    // A hedge holds for its own clause, not the sentence's others (LongMemEval S dev30).
    [
      'Maria',
      "Since I recently upgraded my home Wi-Fi router to a new mesh network, I'm thinking maybe it's time to upgrade my computer too.",
      'Maria',
      'upgraded my home Wi-Fi router to a new mesh network',
      day(0),
    ],
    [
      'Maria',
      'I might move to Denver, since I finally finished my degree last month.',
      'Maria',
      'finished my degree',
      '2024-12-16',
    ],
    // A word with a hyphen is one word of what one had with someone.
    [
      'Maria',
      'By the way, I recently had a follow-up appointment with my orthopedic surgeon on March 20th.',
      'Maria',
      'had a follow-up appointment with my orthopedic surgeon',
      '2024-03-20',
    ],
  ])('%s: %s', (speaker, text, entityName, value, eventDay) => {
    const result = extractOffline(chat([[speaker, text]]), tagger);
    // Every event goes to the one latest_event attribute (a field per verb made a state of a hundred verbs).
    const change = result.stateChanges.find((c) => c.entityName === entityName && c.attribute === 'latest_event');
    expect(change?.newStateAspect).toBe(value);
    expect(change?.eventTime?.slice(0, 10)).toBe(eventDay);
  });

  it.each([
    'I think so too.',
    'Thanks, I really appreciated it.',
    'Did you go to the concert yesterday?',
    'I might go hiking next week.',
    // A long object cut before a phrase would end on an infinitive ("got the chance to speak | at the big …"): no event.
    'I got the chance to speak at the big annual conference in front of hundreds of people.',
    // A hedge in the verb's own clause.
    'If I moved to Denver, I would be happier.',
    "I'm not sure whether I passed the exam.",
    'I never painted anything.',
    "I'm doing great, thanks!",
    "I'm doing this for my kids.",
    'I do think so.',
    'I lost interest.',
    // Had with someone, but no day named: what one had is no event then (a habit or a thing).
    'I had a nice chat with my sister.',
    'I had a dog with a white tail.',
    // What is left without the one spoken to points back; an object that is only how long (LoCoMo conv-42).
    'Got it Nate, I will see you soon!',
    'Got it, Caroline.',
    "I've been working on for a while, such a relief to have it all done!",
    'I have been waiting for a long time.',
    // An "and" inside the object is no second verb of the speaker's; what was learned is a thought, not a thing done.
    "I've learned that taking breaks and looking after myself are important for my inspiration and mental health.",
    // Written as its own past but said with no time before today: present.
    'I cut my hair short.',
    'I quit when I get tired.',
    // The subject follows the thing the clause describes: no event, and not "bought remind me of family love".
    'These figurines I bought yesterday remind me of family love.',
    "I'm truly grateful for all the support I've got from friends and mentors.",
    'Yeah, that pic was from a show I went to.',
    "Yeah, here's one I did last week.",
    'Everything I learned came from my mom.',
    // Such a clause with neither where nor when describes the thing.
    "Whenever I hear this jam, I think about the paths I've taken.",
    // A habit is no event.
    'I have always enjoyed reading.',
    // The speaker's things, "it", "made me …", or a tense other than the simple past: not the speaker's event.
    'My car broke down on the way to work.',
    'Our veterans made it worth it.',
    'Our neighbors made me decide to act.',
    'My friends have played it and recommended it.',
    'My mom thinks I should rest.',
    'We usually went hiking on Sundays.',
    // A feeling is no event.
    "Yep! I'm so excited to explore the nature - it looks amazing!",
    'I was thrilled to see the ocean.',
    "I'm so pumped for the launch tomorrow.",
    'We were so worried about the storm.',
    // The object stops before what it is about.
    "I'm feeling inspired by autumn so I'm planning a few.",
    // The object only points back at the talk: "donated for it" says nothing on its own.
    'I donated for it last week.',
    // Without an object, only a turn in a life is an event.
    'I went yesterday.',
    // A feeling toward the one spoken to is no event of the speaker's (LoCoMo).
    "I'm rooting for you!",
    "Don't worry, I've got your back.",
    'I watched it too, it was great.',
    'Yesterday I finally made this.',
    "Okay, I've taken note of that.",
    'I mixed them together, added light soy sauce and starch.',
    // Three words describe the thing before the subject: still a thing the clause describes.
    'The sweet and sour fish I made was golden crispy, sweet and delicious.',
    // What talking to an AI companion gave: about the conversation, not the speaker's life (MemoryBank).
    "I've learned a lot of useful knowledge and experience during our chat.",
    'In the process of talking to you, I learned a lot of useful insights and reflections.',
    // Nothing in particular, and "been" with no verb of doing after it.
    'Hey Nate! Just finished something - pretty wild journey!',
    "But here's some good news - I've got something to share!",
    // The last talk is when the news starts: "since we spoke last" is no event (LoCoMo).
    "Since we spoke last, I've had quite the adventure!",
    'Been there, done that.',
    'Been thinking about it a lot.',
    'Been doing great!',
    // A guess, a present feeling, a judgement: compromise reads a participle, but nothing happened (MemoryBank).
    'I think I may be easily influenced by others.',
    'Today is Tuesday, and I feel very discouraged and unmotivated to work.',
    'We saw an art film. I found it very interesting.',
    'I found it hard to focus at work last week.',
    'We read it together. I found it very moving and inspiring.',
  ])('no event in: %s', (text) => {
    const result = extractOffline(chat([['Melanie', text]]), tagger);
    expect(result.stateChanges.filter((c) => c.entityName === 'Melanie')).toEqual([]);
  });

  describe('plans: what the speaker is doing or will do at a time still to come', () => {
    const changes = (text: string) =>
      extractOffline(chat([['Melanie', text]]), tagger)
        .stateChanges.filter((c) => c.entityName === 'Melanie')
        .map((c) => [c.attribute, c.newStateAspect, c.eventTime?.slice(0, 10), c.whatChanged]);
    // Said on Wednesday 15 January 2025.
    it.each([
      [
        "I'm flying to Paris tomorrow.",
        'flying to Paris (16 January 2025)',
        'Plan: flying to Paris (tomorrow [16 January 2025])',
      ],
      [
        "I'm moving to Denver next month.",
        'moving to Denver (February 2025)',
        'Plan: moving to Denver (next month [February 2025])',
      ],
      [
        "Next month, I'm running a half marathon.",
        'running a half marathon (February 2025)',
        'Plan: running a half marathon (Next month [February 2025])',
      ],
      // A clause about a noun after a noun and a preposition plans that noun (dev30 had "Plan: hosting").
      [
        "I'm looking for recipe ideas for a dinner party I'm hosting this weekend.",
        'hosting a dinner party (the weekend after 15 January 2025)',
        'Plan: hosting a dinner party (this weekend [the weekend after 15 January 2025])',
      ],
      // "planning" before a noun phrase: the plan is what is planned (LongMemEval S dev30 had "Plan: planning a …").
      [
        "I'm planning a family dinner this weekend.",
        'a family dinner (the weekend after 15 January 2025)',
        'Plan: a family dinner (this weekend [the weekend after 15 January 2025])',
      ],
      [
        "I'm going to visit my grandma next weekend.",
        'visit my grandma (the weekend of 25 January 2025)',
        'Plan: visit my grandma (next weekend [the weekend of 25 January 2025])',
      ],
      [
        'I will host a party on Saturday.',
        'host a party (18 January 2025)',
        'Plan: host a party (on Saturday [18 January 2025])',
      ],
      [
        "We're planning to take a team trip next month to explore a new city.",
        'take a team trip (February 2025)',
        'Plan: take a team trip (next month [February 2025])',
      ],
      // The simple present of a timetable.
      [
        'I start my new job in March.',
        'start my new job (March 2025)',
        'Plan: start my new job (in March [March 2025])',
      ],
      [
        "Sure! I'll come over tomorrow if that's fine.",
        'come over (16 January 2025)',
        'Plan: come over (tomorrow [16 January 2025])',
      ],
    ])('%s → a plan, dated the day it was said', (text, value, summary) => {
      expect(changes(text)).toEqual([['plan', value, day(0), summary]]);
    });

    it.each([
      // The object points back at what was said before.
      "I'm going to make it for my family this weekend - can't wait!",
      // Talk to the listener, a deliberation, a negation, a future with no time.
      "I'll chat with you more tomorrow.",
      "I'm thinking about going camping next month.",
      "I'm not going to run the marathon next month.",
      "I'm going to visit my grandma.",
      // A verb about the conversation or a having, whatever the time.
      'I have a test on Friday.',
      'I think the party is next week.',
    ])('no plan and no event in: %s', (text) => {
      expect(changes(text)).toEqual([]);
    });

    it("a coming time is the plan's only in its own clause; today or a past time makes an event", () => {
      expect(
        changes("I'm moving to Edinburgh in September and I'm trying to finalize my accommodation options."),
      ).toEqual([
        [
          'plan',
          'moving to Edinburgh (September 2025)',
          day(0),
          'Plan: moving to Edinburgh (in September [September 2025])',
        ],
        [
          'latest_event',
          'trying to finalize my accommodation options',
          day(0),
          'Trying to finalize my accommodation options',
        ],
      ]);
      expect(
        changes("I'm dealing with some numbness in my hand, which is why I have a test scheduled on April 1st.").map(
          (c) => c[0],
        ),
      ).toEqual(['latest_event']);
      expect(changes('I went to Paris yesterday.').map((c) => c[0])).toEqual(['latest_event']);
    });
  });

  it("a time in a clause of its own after the event's words is that clause's; a clause about a thing with its own time tells that event", () => {
    // LongMemEval S dev30: each of these had dated the first event at the clause's time.
    const events = (text: string) =>
      extractOffline(chat([['Maria', text]]), tagger)
        .stateChanges.filter((c) => c.attribute === 'latest_event')
        .map((c) => [c.newStateAspect, c.eventTime?.slice(0, 10)]);
    expect(
      events("I've been experimenting with my new acrylic paint, which I purchased online a month ago, and I love it."),
    ).toEqual([
      ['been experimenting with my new acrylic paint', day(0)],
      ['purchased my new acrylic paint online', '2024-12-16'],
    ]);
    expect(events('I just received my limited edition Funko Pop, which I pre-ordered online four months ago.')).toEqual(
      [['received my limited edition Funko Pop', day(0)]],
    );
    expect(events('I finally finished the scarf that I started knitting last winter.')).toEqual([
      ['finished the scarf that I started knitting last winter', day(0)],
      ['started knitting the scarf', '2024-01-15'],
    ]);
    expect(events('I quit my job because we moved to Denver last month.')).toEqual([
      ['quit my job', day(0)],
      ['moved to Denver', '2024-12-16'],
    ]);
    // A word that makes the time rough leaves the summary with it; a clause with another object is no such event.
    expect(events('I fixed my new bike, which I bought about three weeks ago.')).toEqual([
      ['fixed my new bike', day(0)],
      ['bought my new bike', '2024-12-26'],
    ]);
    expect(events('I love the store that I bought shoes at last week.')).toEqual([]);
    // "used to" is a past habit, not something that happened when it was said.
    expect(events('I used to practice yoga three times a week.')).toEqual([]);
    // What is going on now takes no past time of a clause before it; a time opening its own clause it keeps.
    expect(
      events("I recently received my approval three months ago, and I'm trying to figure out what my options are."),
    ).toEqual([
      ['received my approval', '2024-10-16'],
      ['trying to figure out what my options are', day(0)],
    ]);
    expect(events("For the past month I've been learning Spanish.")).toEqual([['been learning Spanish', '2024-12-31']]);
    // An exception's time is not the event's (dev30 had dated the routine last Wednesday).
    expect(
      events(
        "I'm trying to stick to my breakfast routine, which has been pretty consistent except for last Wednesday.",
      ),
    ).toEqual([['trying to stick to my breakfast routine', day(0)]]);
    // A conjunction left at the object's end once a time went leaves with it; "back then" stays whole.
    expect(events('I just got back from a trip to Japan and before that, I had fun.')).toEqual([
      ['got back from a trip to Japan', day(0)],
    ]);
    // A new clause after a comma has its own time; a time after a plain comma is the event's.
    expect(events("I've been enjoying my new bike so far, I bought it last month.")).toEqual([
      ['been enjoying my new bike so far', day(0)],
    ]);
    expect(events('I went to the park with my kids, last Sunday.')).toEqual([
      ['went to the park with my kids', '2025-01-12'],
    ]);
    // A longer noun phrase before the clause is still what it tells about (LongMemEval S dev30).
    expect(events("I'm grateful for the amazing 50th birthday party we threw for her last month.")).toEqual([
      ['threw the amazing 50th birthday party for her', '2024-12-16'],
    ]);
    // A clause that says how something felt is no event; a question with a photo's caption after it is a question.
    expect(events('I felt like I belonged a few times, but last month was the best.')).toEqual([]);
    expect(events('Got any favorite characters from those movies? [shares a photo: a bookcase of dvds]')).toEqual([]);
    // A comma between two adjectives ends no clause (LongMemEval S dev30 had "Using a soft").
    expect(events('I bought a new, shiny bike last week.')).toEqual([['bought a new, shiny bike', '2025-01-09']]);
    expect(events("I'm knitting with a soft, pastel pink yarn that I picked up from Michaels last month.")).toEqual([
      ['picked up a soft, pastel pink yarn from Michaels', '2024-12-16'],
    ]);
    // A verb inside a gerund phrase that is the sentence's subject is no event (LoCoMo 1-5).
    expect(events('Being surrounded by teammates who are equally passionate creates a strong bond.')).toEqual([]);
    expect(events("Knowing I'm helping create a more loving world is amazing.")).toEqual([]);
    expect(events('Going to the gym yesterday, I met Sam.')).toEqual([['met Sam', '2025-01-14']]);
    expect(events("Speaking of loyalty programs, I've also been using Fetch Rewards for my grocery receipts.")).toEqual(
      [['been using Fetch Rewards for my grocery receipts', day(0)]],
    );
    // A statement with a question tag is a statement (LoCoMo).
    expect(events('I started my own online clothing store not so long ago - pretty cool, huh?')).toEqual([
      ['started my own online clothing store', day(0)],
    ]);
    // A deliberation is no event.
    expect(events("I'm leaning towards the Seiko 5 Sports, but I'm worried about the upkeep.")).toEqual([]);
    // A participle the sentence opens with frames it (LongMemEval S dev30 had "Given all of the above"); a past with
    // its subject dropped is still an event, with or without a clause after the comma.
    expect(events('Given all of the above, write me a title for the page.')).toEqual([]);
    expect(events('Based on the above answer, what should I do next?')).toEqual([]);
    expect(events('Inspired by her talk, I signed up for a pottery class yesterday.')).toEqual([
      ['signed up for a pottery class', day(-1)],
    ]);
    expect(events('Finished the book yesterday, it was great.')).toEqual([['finished the book', day(-1)]]);
    expect(events('Been practicing dance routines lately, it keeps my mind focused.')).toEqual([
      ['been practicing dance routines', day(0)],
    ]);
    // A clause after "as" that points at what was said is none ("Discussed earlier" on dev30); one with an object is.
    expect(events("I'm interested in a lightweight boot, as we discussed earlier.")).toEqual([]);
    // An object pointing back through a quantifier, an idiom on "it", and a feeling with "I'm" dropped are none
    // (LoCoMo 1-5); a dropped subject's past is still an event.
    expect(events("I've watched a bunch of them and they're inspiring.")).toEqual([]);
    expect(events('Got it covered!')).toEqual([]);
    expect(events("Excited to see what's next.")).toEqual([]);
    expect(events('Finished my first marathon yesterday.')).toEqual([['finished my first marathon', day(-1)]]);
    // A time's noun before the preposition sets a scene, not a thing the clause is about.
    expect(events('That day at the beach I found a shell.')).toEqual([['found a shell', day(0)]]);
    // An object of adverbs alone is none ("Tried before" twice on dev30); a name is a thing, even one in "-ly".
    expect(events("I've tried before, but they always turn out a bit misshapen.")).toEqual([]);
    expect(events("I've used Shutterfly before.")).toEqual([['used Shutterfly before', day(0)]]);
    expect(events('As I walked home yesterday, I saw a fox.')).toEqual([['walked home', day(-1)]]);
    // A clause about things with no determiner describes them ("Accumulated over the years" on dev30), as one with a
    // determiner does; after a subject pronoun such a word is a verb.
    const accumulated = events(
      "I've got a bunch of canvases, paints, markers, and other materials that I've accumulated over the years.",
    );
    expect(accumulated.filter(([what]) => what?.startsWith('accumulated'))).toEqual([]);
    expect(events('It shows that I finished the race yesterday.')).toEqual([['finished the race', day(-1)]]);
    // A number can head the thing ("a 3-pounder I caught using a silver lure" had been "Caught using a silver lure").
    expect(events('We caught a dozen trout yesterday, including a 3-pounder I caught using a silver lure.')).toEqual([
      ['caught a dozen trout', day(-1)],
    ]);
    // A clause about a thing in the sentence's subject ends where the main verb begins; a particle compromise joins
    // to the verb says where ("Took in The photos Paris are amazing" before).
    expect(events('The photos that I took in Paris yesterday are amazing.')).toEqual([
      ['took the photos in Paris', day(-1)],
    ]);
    expect(events('I just got back from a trip I took to Tibet yesterday.')).toEqual([
      ['got back from a trip I took to Tibet', day(-1)],
      ['took a trip to Tibet', day(-1)],
    ]);
  });

  it('a story told in one turn keeps its time in the sentences that go on with it, until the turn is back in the present', () => {
    const events = (text: string) =>
      extractOffline(chat([['Melanie', text]]), tagger)
        .stateChanges.filter((c) => c.entityName === 'Melanie')
        .map((c) => [c.newStateAspect, c.eventTime?.slice(0, 10), c.whatChanged]);
    expect(events('Yesterday I went hiking with my brother. We ran out of water on the way down.')).toEqual([
      ['went hiking with my brother', day(-1), 'Went hiking with my brother (Yesterday [14 January 2025])'],
      ['ran out of water on the way down', day(-1), 'Ran out of water on the way down (Yesterday [14 January 2025])'],
    ]);
    // Back in the present: "now" stops the story's time; a time of its own wins; another turn starts afresh.
    expect(events('Yesterday I went hiking. Now I finally finished my essay.').map((e) => e[1])).toEqual([
      day(-1),
      day(0),
    ]);
    expect(events('Last year I went to Spain. I visited Madrid yesterday.').map((e) => e[1])).toEqual([
      '2024-07-02',
      day(-1),
    ]);
    const twoTurns = extractOffline(
      chat([
        ['Melanie', 'Yesterday I went hiking with my brother.'],
        ['Melanie', 'We ran out of water on the way down.'],
      ]),
      tagger,
    ).stateChanges.filter((c) => c.entityName === 'Melanie');
    expect(twoTurns.map((c) => c.eventTime?.slice(0, 10))).toEqual([day(-1), day(0)]);
  });

  it('pets named after the talk turned to them, across turns; a baby named so is no pet', () => {
    const result = extractOffline(
      chat([
        ['Melanie', "We've got a pup and a kitty. That's the dog, and here's our cat!"],
        ['Caroline', "Ah, they're adorable! What are their names?"],
        ['Melanie', 'Luna and Oliver! They are so sweet and playful.'],
        ['Caroline', 'Wow, how cute! What is her name? Does she get along with your other dog?'],
        ['Melanie', 'Her name is Shadow! She is full of energy.'],
        ['Caroline', 'That baby in the pic is adorable! What is his name?'],
        ['Melanie', 'His name is Kyle!'],
      ]),
      tagger,
    );
    const pets = result.entities.filter((e) => e.type === 'pet').map((e) => [e.name, e.state.species]);
    // Two kinds were named before "Luna and Oliver": which is which is not said, so neither has a species.
    expect(pets.sort()).toEqual([
      ['Luna', undefined],
      ['Oliver', undefined],
      ['Shadow', 'dog'],
    ]);
    expect(result.entities.find((e) => e.name === 'Kyle')?.type).not.toBe('pet');
    expect(result.relationships.filter((r) => r.type === 'OWNS').map((r) => `${r.source}→${r.target}`)).toEqual([
      'Melanie→Luna',
      'Melanie→Oliver',
      'Melanie→Shadow',
    ]);
  });

  it("an event's vague time stays in its summary as said, unresolved", () => {
    const result = extractOffline(chat([['Melanie', 'We went camping with the kids a few weeks ago.']]), tagger);
    const change = result.stateChanges.find((c) => c.attribute === 'latest_event');
    expect(change?.whatChanged).toBe('Went camping with the kids (a few weeks ago)');
  });

  it('a clause after a noun hung on a past the lexicon does not know tells what was done to that noun', () => {
    // compromise knows no "skyped" or "facetimed": the clause "I met in CA" had told "Met in CA and had a great time".
    const events = (text: string) =>
      extractOffline(chat([['Caroline', text]]), tagger)
        .stateChanges.filter((c) => c.attribute === 'latest_event')
        .map((c) => c.newStateAspect);
    expect(events('Just skyped with that Harry Potter fan I met in CA and had a great time.')).toEqual([]);
    expect(events('I facetimed with the friend I met in Rome last week.')).toContain('met the friend in Rome');
  });

  it('a pet the speaker owns, whatever the tagger thinks of its name', () => {
    const result = extractOffline(
      chat([
        ['Melanie', 'My dog Max loves the beach and our cat Luna hates it.'],
        ['Caroline', 'I got a puppy, a beagle called Biscuit!'],
        ['Melanie', "They're good - we got another cat named Bailey too."],
      ]),
      tagger,
    );
    const pets = result.entities.filter((e) => e.type === 'pet').map((e) => [e.name, e.state.species]);
    expect(pets.sort()).toEqual([
      ['Bailey', 'cat'],
      ['Biscuit', 'beagle'],
      ['Luna', 'cat'],
      ['Max', 'dog'],
    ]);
    expect(result.entities.find((e) => e.name === 'Max')?.type).toBe('pet');
    expect(
      result.relationships
        .filter((r) => r.type === 'OWNS')
        .map((r) => `${r.source}→${r.target}`)
        .sort(),
    ).toEqual(['Caroline→Biscuit', 'Melanie→Bailey', 'Melanie→Luna', 'Melanie→Max']);
  });

  it('a pet named in answer is the answerer’s; the asker repeating the name owns nothing (LoCoMo)', () => {
    const result = extractOffline(
      chat([
        ['Caroline', "Your pup is so cute, remind me what's their name?"],
        ['Melanie', "His name's Ned and he's been awesome since I adopted him."],
        ['Caroline', "That's right, his name is Ned, how could I forget?!"],
      ]),
      tagger,
    );
    expect(result.entities.find((e) => e.name === 'Ned')?.type).toBe('pet');
    expect(result.relationships.filter((r) => r.type === 'OWNS').map((r) => `${r.source}→${r.target}`)).toEqual([
      'Melanie→Ned',
    ]);
  });

  it('a pet the speaker named ("I named it Ned") after telling of the animal in the turn (LoCoMo)', () => {
    const result = extractOffline(
      chat([
        ['Melanie', 'I adopted a pup from a shelter in Stamford last week. I named it Ned. Any news?'],
        ['Caroline', 'I named it Clara, my new bike.'],
      ]),
      tagger,
    );
    expect(result.entities.filter((e) => e.type === 'pet').map((e) => [e.name, e.state.species])).toEqual([
      ['Ned', 'dog'],
    ]);
    expect(result.relationships.filter((r) => r.type === 'OWNS').map((r) => `${r.source}→${r.target}`)).toEqual([
      'Melanie→Ned',
    ]);
  });

  it('a pet is owned from when the speaker got it, if the sentence or the one before says when', () => {
    const result = extractOffline(
      chat([
        ['Melanie', 'I adopted my dog Luna in 2019.'],
        ['Caroline', 'Guess what - I got a puppy two weeks ago! Her name is Coco.'],
        ['Melanie', 'My cat Oliver loves the sun, we sat out yesterday.'],
      ]),
      tagger,
    );
    const since = Object.fromEntries(
      result.relationships.filter((r) => r.type === 'OWNS').map((r) => [r.target, r.eventTime?.slice(0, 10)]),
    );
    // Luna: the middle of 2019; Coco: the middle of the week two weeks before (a Thursday); Oliver: no getting
    // told, so the day said.
    expect(since).toEqual({ Luna: '2019-07-02', Coco: day(-13), Oliver: day(0) });
    const adopted = result.stateChanges.find((c) => c.whatChanged.startsWith('Adopted my dog Luna'));
    expect([adopted?.whatChanged, adopted?.eventTime?.slice(0, 10)]).toEqual([
      'Adopted my dog Luna (in 2019)',
      '2019-07-02',
    ]);
  });

  it.each([
    // [speaker, sentence, title, type, relation from the speaker or null]
    ['Melanie', 'I loved reading "Charlotte\'s Web" as a kid.', "Charlotte's Web", 'book', 'READ'],
    [
      'Melanie',
      'I recently finished rereading "The Alchemist" - it was really inspiring.',
      'The Alchemist',
      'book',
      'READ',
    ],
    // "saw that" is noticing: without a word for a kind of work the title is nothing (it was a movie).
    ['Caroline', 'I saw that you had "The Alchemist" on there.', 'The Alchemist', undefined, null],
    ['Caroline', 'I saw that you had "The Alchemist" on your bookshelf.', 'The Alchemist', 'book', null],
    ['Caroline', 'We watched "The Santa Clause" last night.', 'The Santa Clause', 'movie', 'WATCHED'],
    ['Melanie', 'I just saw "Elf" again, so funny.', 'Elf', 'movie', 'WATCHED'],
    ['Caroline', 'I keep listening to "Summer Sounds", such a good song.', 'Summer Sounds', 'song', 'LISTENED_TO'],
    // The word right after the title says what it is before the verb does (LongMemEval S dev30).
    [
      'Caroline',
      'I am actually listening to "The 7 Habits of Highly Effective People" audiobook right now.',
      'The 7 Habits of Highly Effective People',
      'book',
      null,
    ],
    // A podcast is none of the kinds of work: no song, no LISTENED_TO.
    ['Caroline', 'As for podcasts, I enjoy listening to "The Daily Boost" most.', 'The Daily Boost', undefined, null],
    // Nor is an earlier sentence's podcast, an Instagram account or an exhibition (LongMemEval S dev30).
    [
      'Caroline',
      'I need some new podcasts. I have been listening to "How I Built This" for months now.',
      'How I Built This',
      undefined,
      null,
    ],
    [
      'Caroline',
      'I love the recipes I watched on the "Vegan Recipes" account on Instagram.',
      'Vegan Recipes',
      undefined,
      null,
    ],
    ['Caroline', 'I saw the "Women in Art" exhibition last Saturday.', 'Women in Art', undefined, null],
    [
      'Caroline',
      'I just wrapped up a local production of "A Midsummer Night\'s Dream" where I played Puck.',
      "A Midsummer Night's Dream",
      undefined,
      null,
    ],
    // A book one wants to read is a book, not yet read; one read after a sentence about an event is read.
    ['Caroline', 'I\'ve been wanting to read "The Power of Now" for a while now.', 'The Power of Now', 'book', null],
    [
      'Caroline',
      'I went to a book launch event. I have read "The Art of Falling", and I loved it.',
      'The Art of Falling',
      'book',
      'READ',
    ],
    // Not watched when the speaker says so, or only means to (MemoryBank).
    [
      'Gary',
      "Oh, I've heard of \"Doctor Who,\" but haven't watched it yet. I'll try to watch this TV show.",
      'Doctor Who',
      'movie',
      null,
    ],
    ['Gary', 'I have never seen "Blade Runner", the movie everyone talks about.', 'Blade Runner', 'movie', null],
    ['Gary', 'I didn\'t really get to read "Dune", the book you lent me.', 'Dune', 'book', null],
    ['Gary', 'I watched "Blade Runner" last night, a movie I had not seen before.', 'Blade Runner', 'movie', 'WATCHED'],
    // The sentence before says what kind of work the title is when its own sentence does not (MemoryBank); it was
    // recommended, not watched.
    [
      'Emily',
      'I also like sci-fi movies. If you like, you can go see "The Wandering Earth".',
      'The Wandering Earth',
      'movie',
      null,
    ],
    // Not two sentences back, and not after a sentence about a podcast.
    ['Emily', 'I like movies. It rained all day. I said "Good Morning" to him.', 'Good Morning', undefined, null],
    ['Emily', 'That podcast episode was great. The host loves "Clair de Lune" too.', 'Clair de Lune', undefined, null],
    // A kind written in the plural names it too.
    ['Emily', 'I love old movies, "Casablanca" most of all.', 'Casablanca', 'movie', null],
  ])('a work in quotes: %s: %s', (speaker, text, title, type, relation) => {
    const result = extractOffline(chat([[speaker, text]]), tagger);
    expect(result.entities.find((e) => e.name === title)?.type).toBe(type);
    const edge = result.relationships.find((r) => r.target === title);
    expect(edge ? `${edge.source} ${edge.type}` : null).toBe(relation === null ? null : `${speaker} ${relation}`);
  });

  it("keeps each speaker's sentences about themselves as observations, not reactions or talk to the other", () => {
    const result = extractOffline(
      chat([
        ['Caroline', "I'm keen on counseling or working in mental health."],
        ['Melanie', "Wow, that's so cool, you'd be a great counselor!"],
        ['Melanie', "I'm swamped with the kids and work this week."],
        ['Caroline', 'Thanks, Melanie! That is really sweet of you.'],
      ]),
      tagger,
    );
    expect(result.observations?.map((o) => [o.about, o.text])).toEqual([
      ['Caroline', "Caroline: I'm keen on counseling or working in mental health."],
      ['Melanie', "Melanie: I'm swamped with the kids and work this week [the week of 15 January 2025]."],
    ]);
  });
});

describe('withoutStrandedClause', () => {
  it.each([
    ['my old car to a homeless shelter I volunteer at', 'my old car to a homeless shelter'],
    ['a few talks at the shelter that we help out at', 'a few talks at the shelter'],
    // Nothing stranded, or what is left would end on a preposition itself: as it was.
    ['my old car to a homeless shelter', 'my old car to a homeless shelter'],
    ['my mom I was moving', 'my mom I was moving'],
    ['to the I went to', 'to the I went to'],
    ['a gift for Ida to', 'a gift for Ida to'],
  ])('%s → %s', (object, expected) => {
    expect(withoutStrandedClause(object)).toBe(expected);
  });
});
