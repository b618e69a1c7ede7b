/** January–March 2025: launch at UMD, Notion to Obsidian, the retention problem, the pivot to research labs. */
import { assistant, user, type StoryConversation } from './types.js';

export const spring2025: StoryConversation[] = [
  {
    key: 'launch-checklist',
    title: 'Launch checklist for spring semester',
    at: '2025-01-08T15:00:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        'We want to launch Tidepool to UMD students on January 27, the first day of spring classes. What should be on our launch checklist? Two founders, no budget.',
      ),
      assistant(
        'A launch checklist for two people and no budget:\n\n**Product**\n- Onboarding that gets a student into a group in under two minutes\n- Empty states that explain what to do next\n- A way to report bugs from inside the app\n\n**Distribution**\n- Posts in the big class chats for CMSC 131, 216, 330 and 420\n- Two or three TAs who mention it in discussion sections\n- A one-line pitch that fits in a GroupMe message\n\n**Measurement**\n- Sign-ups, groups formed, first session held, second session held\n\nThe second session is the number that matters.',
        {
          regeneratedFrom:
            'Main items: onboarding, a landing page, analytics, and a post in the class group chats. Keep it small and ship on the 27th.',
        },
      ),
      user(
        "We'll post in the class GroupMes and ask five TAs to mention it. I promised Maya I'd have the onboarding flow done by January 20 so she has a week to polish it.",
      ),
      assistant(
        'Good — a week of buffer before launch is exactly right. Cut scope to hit the 20th: account, pick courses, pick availability, join a suggested group. Everything else (profile photos, settings) can wait until after launch.',
      ),
    ],
  },
  {
    key: 'launch-week',
    title: 'Launch week numbers',
    at: '2025-01-30T14:20:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        'We launched Tidepool on Monday! 140 students signed up in the first three days, mostly from CMSC 330 and CMSC 420, and 23 study groups formed. TP is officially live at UMD. What metrics should we watch in the first month?',
      ),
      assistant(
        "Congratulations — that's a strong first week for a campus launch.\n\nWatch these, weekly:\n- **Activation**: share of sign-ups who join a group and attend a first session\n- **Second-session rate**: groups that meet again within 10 days\n- **Weekly active users** and how they move around exam dates\n- **Notes per session**: whether the notes feature is actually used\n\nWrite down what you expect each to be now, so you can't talk yourself into any result later.",
      ),
      user('Week one retention looks great, but everyone says that about week one.'),
      assistant(
        'Exactly. Week one measures your launch posts, not your product. The real signal comes after the first round of midterms, when urgency drops and only habits remain.',
      ),
    ],
  },
  {
    key: 'obsidian-switch',
    title: 'Setting up an Obsidian vault',
    at: '2025-02-04T12:40:00-05:00',
    model: 'gpt-4o',
    customInstructions: true,
    turns: [
      user(
        'I switched from Notion to Obsidian for my personal notes this week. I prefer local markdown files that I actually own, and Notion got slow with all my class pages. How should I organize a vault for classes plus startup stuff?',
      ),
      assistant(
        "Keep the folder structure shallow and let links do the work:\n\n- `Inbox/` — quick captures, emptied weekly\n- `Classes/` — one folder per course\n- `Tidepool/` — meetings, decisions, user interviews\n- `Daily/` — daily notes (core plugin)\n- `Archive/`\n\nAdd a `decisions.md` note per project where each entry has a date, the choice, and why. You'll thank yourself later.",
      ),
      user('Is there a clean way to import my Notion export?'),
      assistant(
        'Yes: the official **Importer** community plugin handles Notion HTML exports, converts databases to folders of notes and keeps most links. Export from Notion as HTML (not Markdown) with subpages included, then run the importer into a fresh folder and tidy from there.',
      ),
    ],
  },
  {
    key: 'interview-script',
    title: 'Customer interview script',
    at: '2025-02-12T15:30:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Maya took over customer interviews from me — she's much better at it — and she wants a script for talking to students who stopped using Tidepool. Can you draft questions that don't lead them?",
      ),
      assistant(
        'Here are eight non-leading questions:\n\n1. Walk me through the last time you studied with other people.\n2. How did that group get started?\n3. What happened after the first meeting?\n4. When did you last open Tidepool, and what were you trying to do?\n5. What did you use instead?\n6. What was annoying about that?\n7. If Tidepool disappeared tomorrow, what would you miss, if anything?\n8. Who else do you know who struggles with this?\n\nAsk about past behaviour, not hypotheticals, and let silences run.',
      ),
    ],
  },
  {
    key: 'sourdough',
    title: 'Sourdough starter not rising',
    at: '2025-02-22T10:30:00-05:00',
    model: 'gpt-4o-mini',
    turns: [
      user(
        'My sourdough starter is 6 days old and barely rises. I feed it 1:1:1 with all-purpose flour and my kitchen is about 65°F.',
      ),
      assistant(
        "That's normal for a young starter in a cool kitchen. Try:\n- Feed with some whole wheat or rye flour (more wild yeast and nutrients)\n- Keep it somewhere warmer, like the oven with only the light on (75-78°F)\n- Feed every 12 hours and discard down to a small amount each time\n\nMost starters get reliable around day 10-14.",
      ),
      user('Update: I switched from all-purpose to whole wheat flour like you said and it doubled in 5 hours!', {
        at: '2025-02-24T09:15:00-05:00',
      }),
      assistant(
        "That's the sign it's ready. Once it doubles reliably within 4-8 hours of feeding, you can bake. Keep a little in the fridge between bakes and feed it weekly.",
      ),
    ],
  },
  {
    key: 'retention-drop',
    title: 'Retention dropped after midterms',
    at: '2025-02-25T14:00:00-05:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Retention is bad. Weekly active users went from 140 to 38 after midterm week. Maya's interviews say students only want study groups right before exams. The weird part: the most active group on TP isn't students at all, it's Prof. Okafor's lab. Six grad students use it every day for their reading group and experiment notes.",
      ),
      assistant(
        "That's a classic pattern: the usage you didn't design for is the usage that sticks. A few observations:\n\n- Student study groups are seasonal by nature; no feature fixes that.\n- The lab uses the part you considered secondary (shared notes), every day, without being asked.\n- Labs have budgets and a year-round problem.\n\nBefore deciding anything, spend a day with that lab and watch how they use it.",
      ),
      user('So should we chase the lab thing? It feels like giving up on the original idea.'),
      assistant(
        "It's not giving up; it's following the evidence. The original idea taught you what people actually value. Talk to two or three other labs first — if they describe the same pain without prompting, you have your answer.",
      ),
    ],
  },
  {
    key: 'pivot',
    title: 'Pivoting Tidepool to research labs',
    at: '2025-03-04T13:10:00-05:00',
    model: 'gpt-4-5',
    turns: [
      user(
        'Decision time. We pivoted Tidepool from a study-group app for students to a research-notes tool for labs. I decided to pivot because the only retained users were research labs, labs have budgets, and their notes problem is year-round instead of just before exams. The alternatives were keeping the student app and adding paid tutoring, or shutting it down and applying to internships. Maya and I agreed on it yesterday after talking to three more labs. How do I explain this to the 38 students still using it?',
      ),
      assistant(
        'Be direct and generous:\n\n- Tell them what is changing and when (e.g. student groups stay read-only until the end of the semester).\n- Offer an export of their notes in one click.\n- Thank them honestly — their usage is why you learned what you learned.\n\nA short message from you personally lands better than a product announcement.',
      ),
      user(
        "And what does 'research-notes tool' even mean as a product? Right now I'd say: shared experiment logs, reading-group notes, and a searchable memory of what the lab already tried.",
      ),
      assistant(
        "That's a good three-part definition. I'd pick one as the wedge — probably shared experiment logs, since that's where lost information costs labs the most (repeated experiments, lost context when students graduate). Reading-group notes and lab memory can grow out of it.",
      ),
    ],
  },
];
