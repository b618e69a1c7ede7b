/** November–December 2024: Maya joins as co-founder, Firestore hurts, the move from Firebase to Supabase. */
import { assistant, user, type StoryConversation } from './types.js';

export const winter2024: StoryConversation[] = [
  {
    key: 'maya-joins',
    title: 'Co-founder agreement basics',
    at: '2024-11-06T13:25:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Big news: Maya Chen joined as my co-founder on Tidepool. She's an information science major at UMD and a really good designer. Maya is handling design and the frontend, and I'm doing the backend and the data side. What should two student co-founders put in writing this early?",
      ),
      assistant(
        'Congrats — a designer co-founder is a real advantage for a consumer app.\n\nEven at this stage, write down:\n- **Equity and vesting**: the split, with 4-year vesting and a 1-year cliff.\n- **IP assignment**: code and designs belong to the project (later, the company).\n- **Roles and decisions**: who decides what, and how you break ties.\n- **Leaving**: what happens to unvested equity if one of you stops.\n\nA one-page founder agreement now avoids a painful conversation later.',
      ),
      user('We are thinking 50/50 with vesting. Is that naive?'),
      assistant(
        'Not naive. Equal splits are common when two people start at roughly the same time, and vesting is what protects you both if things change. The important part is that you talked about it explicitly and wrote it down.',
      ),
    ],
  },
  {
    key: 'firestore-pain',
    title: 'Firestore query limitations',
    at: '2024-11-15T16:00:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Firestore is starting to hurt. I need 'all groups in courses where at least one member is free Tuesday evening' and that's four queries plus a client-side join. Our read count tripled this week with only 30 testers. Is this a sign I picked the wrong database for Tidepool?",
      ),
      assistant(
        "It's a sign your data is relational. Students, courses, groups and availability are a web of many-to-many links, and Firestore makes you do the joins yourself.\n\nOptions:\n1. **Denormalize**: store per-course availability summaries. Fast reads, but you maintain the copies.\n2. **Move to a relational database** such as Postgres (hosted by Supabase, Neon, etc.) where this is one SQL query.\n\nWith 30 testers, a migration is still cheap. With 3,000 it won't be.",
      ),
      user('Maya says the schedule-matching screen takes 3 seconds to load. Let me think about it over Thanksgiving.'),
      assistant(
        'Makes sense. If you want a quick experiment, load a copy of the data into a local Postgres and write the matching query — if it is one short query, that tells you a lot.',
      ),
    ],
  },
  {
    key: 'chicago-thanksgiving',
    title: 'Thanksgiving weekend in Chicago',
    at: '2024-11-22T12:00:00-05:00',
    model: 'gpt-4o-mini',
    turns: [
      user(
        "I'm visiting my cousin in Chicago over Thanksgiving, Wednesday to Sunday. What should I do besides the Bean? I like architecture and cheap food.",
      ),
      assistant(
        "Good city for both.\n\n**Architecture:** the Chicago Architecture Center's walking tours run in winter (the river cruises mostly stop in November), the Rookery lobby, and the Chicago Cultural Center's Tiffany dome (free).\n\n**Cheap food:** an Italian beef at Al's or Johnnie's, tamales and tacos in Pilsen, and deep dish once for the experience.\n\nBring proper layers; the wind off the lake in late November is no joke.",
      ),
      user("Is the L easy from O'Hare?"),
      assistant(
        "Yes. The Blue Line runs from O'Hare to the Loop in about 45 minutes, around the clock. Get a Ventra card or tap a contactless card at the gate.",
      ),
    ],
  },
  {
    key: 'supabase-decision',
    title: 'Firebase vs Supabase for Tidepool',
    at: '2024-12-03T14:30:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Ok, I thought about it over the break. I decided to use Supabase instead of Firebase because our data is relational (students, courses, groups, availability), we need real joins, and Supabase gives us Postgres with row-level security. Firestore's per-read pricing was also getting unpredictable. We're going with Postgres over MongoDB because Mongo would just repeat the Firestore problem. Maya agrees. What's the least painful migration path?",
        {
          editedFrom: {
            text: "Ok, I thought about it over the break. Should we just move to MongoDB Atlas? It's a document store like Firestore, so the migration would be easy and we'd keep the same data model.",
            reply:
              "MongoDB would make the migration mechanically simpler, but it wouldn't fix the underlying issue: your queries are relational. You'd trade Firestore's client-side joins for `$lookup` pipelines. If matching queries are the pain point, a relational database is the more direct fix.",
          },
        },
      ),
      assistant(
        "That's a well-reasoned call. A low-risk path:\n\n1. **Schema first**: tables for users, courses, enrollments, groups, group_members, sessions, availability.\n2. **Export Firestore** with a script that writes JSON per collection, then load it with `COPY` or a small insert script.\n3. **Auth**: Supabase can import Firebase users, including their password hashes, so nobody has to reset a password.\n4. **Run both for a few days**: write to both, read from Supabase, compare.\n5. **Cut over** once the numbers match.\n\nWith 30 testers this is a weekend, not a month.",
      ),
      user('How do I do row-level security so session notes are only visible to group members?'),
      assistant(
        'Enable RLS on `sessions` and add a policy that checks membership:\n\n```sql\nalter table sessions enable row level security;\n\ncreate policy "members read sessions" on sessions\n  for select using (\n    exists (\n      select 1 from group_members gm\n      where gm.group_id = sessions.group_id\n        and gm.user_id = auth.uid()\n    )\n  );\n```\n\nAdd a similar policy for insert and update, and index `group_members (group_id, user_id)`.',
      ),
    ],
  },
  {
    key: 'finals-plan',
    title: 'Finals week plan',
    at: '2024-12-09T11:00:00-05:00',
    model: 'gpt-4o-mini',
    turns: [
      user(
        'Finals for the fall semester of my junior year: CMSC 420 on Dec 14, CMSC 421 on Dec 16, STAT 400 on Dec 18. I can study about 7 hours a day. Help me make a plan.',
      ),
      assistant(
        "Here's a plan that front-loads 420 since it comes first:\n\n- **Dec 9-13**: 4 h/day CMSC 420 (past exams, tree and hashing problems), 2 h 421, 1 h STAT 400.\n- **Dec 14**: 420 exam; light 421 review in the evening.\n- **Dec 15**: 5 h 421 (search, probability, learning), 2 h STAT.\n- **Dec 16**: 421 exam; rest.\n- **Dec 17**: full day of STAT 400 practice problems.\n\nSleep counts as study time for the exam after it.",
      ),
    ],
  },
  {
    key: 'supabase-realtime',
    title: 'Supabase realtime for shared notes',
    at: '2024-12-20T13:15:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        'Update: I switched from Firebase to Supabase last weekend. The migration went fine and the schedule-matching screen loads in about 300 ms now instead of 3 seconds. Next question: what is the best way to do live collaborative session notes on Supabase?',
      ),
      assistant(
        "Nice result. For collaborative text, don't sync raw rows on every keystroke. The usual setup:\n\n- A CRDT such as **Yjs** holds the document in each browser.\n- **Supabase Realtime** (broadcast channels) carries the Yjs updates between clients.\n- Periodically persist the merged document to a `session_notes` table.\n\nThat gives you conflict-free merging and offline edits for free.",
      ),
      user('Yjs it is. Maya wants live cursors too.'),
      assistant(
        "Yjs's awareness protocol handles that: each client broadcasts its cursor position and a name/colour, and you render the others'. It rides on the same Realtime channel.",
      ),
    ],
  },
];
