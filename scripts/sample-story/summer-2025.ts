/** May–August 2025, the gap semester in San Francisco: Brightline internship, LangChain dropped, Maya becomes CEO. */
import { assistant, user, type StoryConversation } from './types.js';

export const summer2025: StoryConversation[] = [
  {
    key: 'moved-to-sf',
    title: 'First days in San Francisco',
    at: '2025-05-20T11:30:00-07:00',
    model: 'gpt-4o',
    turns: [
      user(
        "I moved to San Francisco on Sunday, May 18. I'm subletting a room in the Mission until mid-August. My gap semester in San Francisco officially starts now! Tips for the first week: transit, groceries, not looking like a tourist?",
      ),
      assistant(
        "Welcome to SF. Practical basics:\n\n- **Transit**: add a Clipper card to your phone's wallet; it works on Muni and BART. The J-Church and the 14/49 buses cover the Mission well.\n- **Groceries**: Rainbow Grocery for bulk and produce, the Mission's produce markets for cheap fruit.\n- **Weather**: it's colder than you think. Always carry a layer, even in July.\n- **Not a tourist**: don't call it San Fran, and don't wear shorts to watch the sunset.",
      ),
      user('Is biking from the Mission to SoMa reasonable?'),
      assistant(
        "Very. It's flat and about 15 minutes via Valencia and the protected lanes on Folsom or Howard. Get a solid U-lock; bike theft is common.",
      ),
    ],
  },
  {
    key: 'brightline-first-week',
    title: 'First week at Brightline',
    at: '2025-06-04T15:40:00-07:00',
    model: 'gpt-4o',
    turns: [
      user(
        "I'm working at Brightline Labs as a research intern on the retrieval team. First week done. My project is evaluating memory retrieval for long chat histories, comparing pure vector retrieval against a few hybrid setups. Any advice for making a 12-week internship count?",
      ),
      assistant(
        'Three habits that make internships go well:\n\n1. **Write a one-page plan in week 2**: the question, the evaluation, what "done" looks like. Get your manager to agree to it.\n2. **Share results weekly**, even when they\'re boring or negative. A short written update beats a polished demo at the end.\n3. **Leave something reusable**: an eval set or a harness the team keeps using after you\'re gone.\n\nRetrieval evals are a great project for this; a good test set outlives any model.',
      ),
    ],
  },
  {
    key: 'drop-langchain',
    title: 'Replacing LangChain with plain SDK calls',
    at: '2025-06-12T15:10:00-07:00',
    model: 'gpt-4o',
    customInstructions: true,
    turns: [
      user(
        'I stopped using LangChain in Tidepool. Debugging the summarizer meant reading through five layers of abstractions, and every upgrade broke one of our chains. I replaced it with plain OpenAI SDK calls and about 150 lines of our own code. I prefer plain SDK calls and small functions over frameworks. Can you review this retry wrapper?\n\n```ts\nasync function withRetry<T>(fn: () => Promise<T>, tries = 3): Promise<T> {\n  try { return await fn(); }\n  catch (e) { if (tries <= 1) throw e; return withRetry(fn, tries - 1); }\n}\n```',
      ),
      assistant(
        'It works, but it retries everything immediately. Improvements:\n\n- Retry only transient errors (429, 5xx, timeouts), not 400s.\n- Back off exponentially with jitter.\n- Keep the original error as the `cause` when you give up.\n\n```ts\nasync function withRetry<T>(fn: () => Promise<T>, tries = 3, delayMs = 500): Promise<T> {\n  try {\n    return await fn();\n  } catch (e) {\n    if (tries <= 1 || !isTransient(e)) throw e;\n    await sleep(delayMs + Math.random() * delayMs);\n    return withRetry(fn, tries - 1, delayMs * 2);\n  }\n}\n```',
      ),
    ],
  },
  {
    key: 'maya-ceo',
    title: 'Changing co-founder roles',
    at: '2025-06-20T13:00:00-07:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Maya and I changed roles. Maya is now our CEO: she's taking over fundraising, sales and every customer conversation, since she's the one the labs trust. I'm moving to CTO and I'll own product and engineering. How do we tell our pilot labs without it looking like drama?",
      ),
      assistant(
        'Frame it as a formalization, not a shake-up — which is what it is:\n\n- Send one short note from both of you: "Maya is CEO and your main contact; Sam leads product and engineering."\n- Say what stays the same for them (the product, the support channel, the pricing).\n- Introduce Maya properly to anyone who mostly talked to you.\n\nLabs care that their contact answers quickly, not about titles.',
      ),
    ],
  },
  {
    key: 'tp-growth',
    title: 'Metrics for a B2B research tool',
    at: '2025-06-28T11:20:00-07:00',
    model: 'gpt-4o',
    turns: [
      user(
        'TP now has 12 labs using it and about 180 weekly active researchers, up from one lab in March. Three labs are paying. Which metrics should we show investors for a tool like this?',
      ),
      assistant(
        'For a seat-based B2B tool, in this order:\n\n1. **Paying labs and MRR**, with month-over-month growth\n2. **Seat expansion**: do labs add people after they start?\n3. **Weekly active researchers / total seats** (engagement depth)\n4. **Logo retention**: has any lab left?\n5. **Sales cycle**: days from first call to pilot to paid\n\nThe story you want to tell: labs adopt bottom-up and expand on their own.',
      ),
    ],
  },
  {
    key: 'vector-doubts',
    title: 'Why vector retrieval misses updates',
    at: '2025-07-09T14:00:00-07:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Interesting result at Brightline: on our eval set, pure vector retrieval gets the 'what is X now?' questions wrong about 40% of the time, because it happily retrieves the old state. I'm starting to doubt my assumption that vector search is enough for memory.",
      ),
      assistant(
        'That\'s a well-known failure mode. Similarity search has no notion of time or of one fact replacing another, so an old statement that matches the wording of the question can outrank the correction.\n\nCommon fixes: attach valid-from/valid-to times to facts, re-rank by recency, or store facts as entities with explicit "replaced by" links and retrieve through those.',
      ),
    ],
  },
  {
    key: 'yosemite',
    title: 'Weekend trip to Yosemite without a car',
    at: '2025-07-16T12:00:00-07:00',
    model: 'gpt-4o-mini',
    turns: [
      user('Weekend trip to Yosemite from SF with two friends, no car. Is that doable?'),
      assistant(
        'Yes. Take Amtrak from Emeryville or Oakland to Merced, then the YARTS bus into Yosemite Valley; book both ahead on summer weekends. Stay in the Valley (Curry Village or a campsite) so you can walk or use the free shuttle.\n\nGood hikes without a car: Mist Trail to Vernal Fall, Mirror Lake, and the Lower Yosemite Fall loop. Check whether a park entry reservation is required for your dates.',
      ),
    ],
  },
  {
    key: 'apartment-hunt',
    title: 'Finding a room after my sublet ends',
    at: '2025-07-22T12:45:00-07:00',
    model: 'gpt-4o-mini',
    turns: [
      user(
        'My sublet ends August 15. I need a room in SF for about six months, budget $1,600. Where should I look, and how do I avoid scams?',
      ),
      assistant(
        'At $1,600 you\'re looking at a room in a shared flat. Neighbourhoods with more options in that range: the Inner Sunset, the Richmond, Excelsior and parts of the Mission.\n\nWhere: SF-specific Facebook housing groups, Craigslist, and word of mouth at work.\n\nScam signals: the owner is "abroad", they want a deposit before you see the room, or the price is far below the area. Never wire money; see the place (or a live video tour) and sign something before paying.',
      ),
    ],
  },
  {
    key: 'kg-reversal',
    title: 'Knowledge graph vs vector memory',
    at: '2025-07-29T15:30:00-07:00',
    model: 'o3',
    turns: [
      user(
        "I've changed my mind. I no longer think vector search is enough for memory. I now think knowledge graphs beat pure vector search for personal memory, because memory is mostly about entities whose state changes over time, and a graph can say 'this replaced that' while embeddings can't. For Tidepool that means modelling experiments, people and results as entities with a history. We decided to build the graph layer inside Postgres instead of adopting Neo4j, because we don't want a second database to run. Sanity check?",
      ),
      assistant(
        "Your reasoning holds up, with one nuance: the graph doesn't replace vectors, it gives them structure.\n\nIn Postgres this is straightforward:\n- `entities` (id, type, name, aliases)\n- `facts` (entity_id, attribute, value, valid_from, valid_to, source)\n- `edges` (src, dst, type, valid_from, valid_to)\n- recursive CTEs for multi-hop questions, pgvector for fuzzy lookup of entity names and notes\n\nQuery flow: find entities by text/embedding, then answer from their current facts and history. Staying on one database is a good call at your size.",
        {
          thoughts: [
            {
              summary: 'Weighing graph versus vector retrieval',
              content:
                'The user moved from pure vector retrieval to a graph view of memory after seeing stale answers. The point to confirm is that supersession and time are explicit in a graph, while embeddings only measure similarity. Vectors still help for fuzzy lookup.',
            },
            {
              summary: 'Checking the Postgres-only plan',
              content:
                'They want to avoid running Neo4j. Postgres can model entities, facts with validity intervals and edges; recursive CTEs cover a few hops. That is enough at their scale. Suggest a schema and a hybrid query flow.',
            },
          ],
        },
      ),
      user('So vector search stays, just not as the whole memory.'),
      assistant('Exactly: vectors to find candidates, the graph to know which facts are current and how they connect.'),
    ],
  },
  {
    key: 'internship-ends',
    title: 'Last week of my internship',
    at: '2025-08-08T16:00:00-07:00',
    model: 'gpt-5',
    turns: [
      user(
        "My internship at Brightline Labs ended today. My manager said they'd be happy to have me back, and my eval write-up on temporal retrieval is going into their internal docs. Now I'm full-time on Tidepool for the rest of my SF gap semester. How do I keep a good relationship with the team?",
      ),
      assistant(
        "Nice way to finish. To keep the relationship warm:\n\n- Send a short thank-you to your manager and the people you worked with most, naming something specific each one helped with.\n- Connect on LinkedIn while it's fresh.\n- Share one useful thing every few months (a paper, a result from Tidepool relevant to their retrieval work).\n\nAnd check your offboarding: return equipment, and make sure your Tidepool work stays clearly separate from anything you built there.",
      ),
    ],
  },
];
