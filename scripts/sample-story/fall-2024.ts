/** Fall 2024, junior year at UMD: the Tidepool idea, the prototype, Maya joins, Firebase starts to hurt. */
import { assistant, code, user, type StoryConversation } from './types.js';

export const fall2024: StoryConversation[] = [
  {
    key: 'junior-year-schedule',
    title: 'Junior year course load',
    at: '2024-09-03T15:12:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "I just started junior year at UMD (classes started August 26) and I'm trying to figure out if my schedule is too much. I'm taking CMSC 420, CMSC 421 (intro to AI), STAT 400 and a writing course, plus about 10 hours a week at the campus IT help desk. I live off campus in College Park so there's a commute too. Is that reasonable for a CS major at the University of Maryland?",
      ),
      assistant(
        "It's a heavy but common load. CMSC 420 is known for long projects, so the real risk is the weeks where a 420 project and a 421 assignment land together.\n\nA few things that help:\n- Put project blocks on your calendar now, before the deadlines are visible.\n- Keep the help-desk hours fixed so they don't creep into project weeks.\n- Use the commute for readings or lecture review.\n\nIf you're consistently behind after the first four weeks, the writing course is usually the easiest one to move to a later semester.",
      ),
      user(
        "Ok. The other thing is study groups. Every class has a GroupMe with 200 people in it and nobody actually meets. It's chaos.",
      ),
      assistant(
        'That\'s a very common complaint. Big class chats are good for announcements and bad for coordination: nobody owns the plan, so nothing happens.\n\nWhat tends to stick is a small group (4-6 people) with a fixed weekly slot and one person who books the room. You could post once in the class chat with a concrete proposal — "Tuesdays 7pm, McKeldin, 420 project 1" — and see who shows up.',
      ),
    ],
  },
  {
    key: 'tidepool-idea',
    title: 'Study group app idea',
    at: '2024-09-10T14:05:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Following up on the study group chaos: I want to build something. I'm building Tidepool, an app that helps college students form small study groups for their classes and keep track of what each session covered. You join your class, get matched into a group of 4-6 by schedule, and the group keeps shared notes per session. Does this exist already?",
      ),
      assistant(
        "Pieces of it exist — Discord servers, GroupMe, some LMS features, a few campus-specific apps — but schedule-based matching plus persistent session notes is a reasonable wedge.\n\nBefore building much, I'd try to answer three questions:\n1. Will students commit to a fixed weekly slot?\n2. Who creates the group — the app, a TA, or a student?\n3. What brings people back after the first exam?\n\nThe third one is where most study tools struggle.",
      ),
      user(
        "For the backend I'm going to use Firebase because it's the fastest way to get auth and a realtime database without running a server. Frontend in React. I prefer TypeScript over plain JavaScript for anything that will live longer than a weekend, so TS everywhere.",
      ),
      assistant(
        'Firebase is a sensible choice for a prototype: Auth, Firestore and Hosting get you to a demo quickly.\n\nTwo things to watch:\n- Firestore is a document store, so relational questions ("groups where two members share a free slot") get awkward.\n- Pricing is per document read, so chatty screens get expensive faster than you\'d expect.\n\nA minimal shape:\n- `users/{uid}`: name, courses[], availability\n- `courses/{courseId}`: code, term\n- `groups/{groupId}`: courseId, memberIds[], meetingSlot\n- `groups/{groupId}/sessions/{sessionId}`: date, notes, topics[]',
      ),
    ],
  },
  {
    key: 'tikka-masala',
    title: 'Chicken tikka masala for four',
    at: '2024-09-14T17:30:00-04:00',
    model: 'gpt-4o-mini',
    turns: [
      user('Easy chicken tikka masala for 4 people? I have a dutch oven but no grill.'),
      assistant(
        "Here's a weeknight version:\n\n**Marinade (30 min to overnight):** 700 g chicken thighs in chunks, 200 g yogurt, 1 tbsp garam masala, 1 tsp cumin, 1 tsp chili powder, 2 cloves garlic, 1 tbsp grated ginger, salt.\n\n**Sauce:** Brown the chicken in batches in the dutch oven and set aside. Soften 1 onion in butter, add garlic, ginger and 1 tbsp garam masala, then a 400 g can of crushed tomatoes. Simmer 15 minutes, stir in 150 ml cream, return the chicken and simmer 10 more minutes.\n\nServe with rice and naan. Broiling the marinated chicken for 5 minutes first gets you some of the char you'd get from a grill.",
      ),
      user('Can I use Greek yogurt instead of regular yogurt in the marinade?'),
      assistant(
        'Yes. Greek yogurt is thicker, so loosen it with a spoonful of water or lemon juice so it coats the chicken evenly. The result is the same.',
      ),
    ],
  },
  {
    key: 'pandas-keyerror',
    title: 'KeyError in pandas groupby',
    at: '2024-09-19T13:40:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Getting KeyError: 'course' when I run df.groupby('course')['score'].mean() on my STAT 400 homework data. The CSV definitely has a course column.",
      ),
      code(
        "import pandas as pd\nimport io\n\ncsv = 'course ,score\\nCMSC420,88\\nSTAT400,91\\n'\ndf = pd.read_csv(io.StringIO(csv))\nlist(df.columns)",
        "['course ', 'score']",
      ),
      assistant(
        "The header probably has a trailing space: the column is `'course '`, not `'course'`. That happens when a CSV header is written as `course ,score`.\n\nFix it once after loading:\n\n```python\ndf.columns = df.columns.str.strip()\ndf.groupby('course')['score'].mean()\n```",
      ),
      user('that was it, thanks'),
      assistant('Glad it worked. `print(df.columns.tolist())` is a good first check whenever a column "isn\'t there".'),
    ],
  },
  {
    key: 'firebase-auth',
    title: 'Firebase auth with UMD emails',
    at: '2024-09-27T16:20:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        'How do I restrict Firebase Auth sign-ups to @umd.edu addresses? Tidepool should only let University of Maryland students in for now.',
      ),
      assistant(
        "Firebase Auth has no built-in domain allowlist for email sign-up, so enforce it in two places:\n\n1. **Security rules** (free): only allow reads and writes when `request.auth.token.email.matches('.*@umd[.]edu$')` and the email is verified.\n2. **Blocking function** (`beforeUserCreated`): reject the account before it exists.\n\nAlso check the domain in the sign-up form for a friendly error, but treat the rules as the real gate.",
      ),
      user("The blocking function needs the paid plan, right? I'm trying to keep this free."),
      assistant(
        "Right — blocking functions need the Blaze plan (Identity Platform). On the free Spark plan, use the client-side check plus security rules and require email verification. Accounts with other domains can exist but can't read or write anything, which is good enough for a prototype.",
      ),
    ],
  },
  {
    key: 'vector-memory',
    title: 'Session recall with embeddings',
    at: '2024-10-05T11:10:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "I want Tidepool to have a 'recall' feature: when a group starts a session, it reminds them what they covered last time and which questions were left open. My plan is to embed every session note and do similarity search. I think vector search is enough for memory: you embed everything, retrieve the top few chunks, and the model fills in the rest. Any reason to do something more complicated?",
      ),
      assistant(
        'For a first version that\'s reasonable. Embeddings plus top-k retrieval work well for "what did we say about X?".\n\nWhere it tends to struggle:\n- **Time**: "what changed since last week?" — similarity has no notion of recency.\n- **Updates**: an old note and a newer correction look equally relevant.\n- **Aggregation**: "which topics have we never covered?" isn\'t a nearest-neighbour question.\n\nCheap mitigations: store the session date with each chunk and filter or re-rank by it. Start simple and see where it breaks.',
      ),
      user('Ok, keeping it simple. Which embedding model is cheap enough for a student project?'),
      assistant(
        "OpenAI's `text-embedding-3-small` is inexpensive and good enough for short notes. Firestore's vector search is still in preview, so for the prototype you could also keep the vectors in a small separate index. Either way, store the model name with each vector so you can re-embed later.",
      ),
    ],
  },
  {
    key: 'nora-essay',
    title: "Feedback on my sister's college essay",
    at: '2024-10-12T12:30:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "My sister Nora is a high school senior and she asked me to help with her Common App essay. She's writing about teaching herself to fix bikes in our dad's shop. What should I look for when I give feedback, without rewriting it for her?",
      ),
      assistant(
        'Good instinct not to rewrite it. Useful questions to ask her:\n- Is there one specific moment (a particular repair, a mistake) rather than a summary of years?\n- Does the reader learn how she thinks, not just what she did?\n- Does the ending say something about who she is now, without a moral-of-the-story line?\n- Read it aloud: where does it sound like her, and where like an essay?\n\nMark places that confuse you or drag, and let her decide how to fix them.',
      ),
      user("She's applying early action to Michigan and Georgia Tech. Deadline is November 1."),
      assistant(
        'That leaves about three weeks — enough for two full revisions. Suggest a draft you both read by October 20, then a final polish the week before, so the last days are only for the supplements.',
      ),
    ],
  },
  {
    key: 'prototype-demo',
    title: 'Prototype feedback from my professor',
    at: '2024-10-18T15:45:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        'Tidepool is now a working prototype: sign-up, course matching and shared session notes all work, and 11 friends from CMSC 420 are testing it. I showed it to Professor Daniel Okafor today. He is my mentor and runs the Human-Centered Computing lab at UMD. He said the matching is fine but the session notes are the interesting part. Not sure what to make of that.',
      ),
      assistant(
        "That's useful signal. When an experienced person skips over the feature you're proud of and points at another one, it often means the second one solves a problem they've seen many times.\n\nIt would be worth asking him directly: interesting for whom, and why? His answer may tell you who else has this problem.",
      ),
      user(
        'He also said his grad students lose track of reading-group notes all the time. Probably just a side comment.',
      ),
      assistant(
        "Possibly — but write it down. Side comments from someone who runs a lab are often the most honest product feedback you'll get. If you have time, ask whether one of his students would try the notes feature for a couple of weeks. It costs you little and tells you a lot.",
      ),
    ],
  },
  {
    key: 'git-rebase',
    title: 'Undo a git rebase',
    at: '2024-10-24T14:10:00-04:00',
    model: 'gpt-4o-mini',
    turns: [
      user('I messed up an interactive rebase and lost two commits. How do I get them back?'),
      assistant(
        "They're almost certainly still there. Run:\n\n```\ngit reflog\n```\n\nFind the entry from just before the rebase started (something like `HEAD@{5}: commit: ...`), then either:\n\n```\ngit reset --hard HEAD@{5}\n```\n\nto go back entirely, or `git cherry-pick <sha>` for just the two commits. Stash or commit any uncommitted work before `reset --hard`.",
      ),
    ],
  },
  {
    key: 'bayes-review',
    title: 'Bayes rule for the CMSC 421 midterm',
    at: '2024-10-30T13:00:00-04:00',
    model: 'gpt-4o-mini',
    turns: [
      user(
        'Quick check for my CMSC 421 midterm: a test is 95% sensitive and 90% specific, and 2% of people have the condition. What is P(condition | positive)?',
      ),
      assistant(
        'P(pos) = 0.95 × 0.02 + 0.10 × 0.98 = 0.019 + 0.098 = 0.117.\n\nP(condition | pos) = 0.019 / 0.117 ≈ 0.162, so about 16%. Most positives are false positives because the condition is rare.',
      ),
    ],
  },
];
