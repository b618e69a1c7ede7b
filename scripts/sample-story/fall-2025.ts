/** August–October 2025: the pre-seed round, the pitch deck, Northgate's SAFE, the gap semester is extended. */
import { assistant, user, type StoryConversation } from './types.js';

export const fall2025: StoryConversation[] = [
  {
    key: 'fundraising-prep',
    title: 'Pre-seed fundraising plan',
    at: '2025-08-19T13:00:00-07:00',
    model: 'gpt-5',
    turns: [
      user(
        'Maya and I are raising a pre-seed round for Tidepool: $750k to hire one engineer and get to 50 paying labs. Maya is leading the investor conversations as CEO. What should we prepare before the first meetings?',
      ),
      assistant(
        'Prepare these before the first meeting:\n\n- **A 10-12 slide deck** and a one-paragraph email version of it\n- **A metrics sheet**: labs, seats, MRR, growth, retention — one page, updated weekly\n- **Three customer references** who will take a call\n- **A target list** of 40-60 investors who do pre-seed in research or developer tools, with warm intro paths\n- **Your terms**: SAFE or priced, target amount, rough cap range\n\nRun the meetings in a tight two- to three-week window so interest builds at the same time.',
      ),
    ],
  },
  {
    key: 'nora-care-package',
    title: 'Care package for a college freshman',
    at: '2025-08-28T10:00:00-07:00',
    model: 'gpt-5',
    turns: [
      user(
        'My sister Nora just started her freshman year at the University of Michigan. I want to send her a care package. What do freshmen actually use?',
      ),
      assistant(
        "Things freshmen actually use:\n\n- A good extension cord and a clip-on desk lamp\n- Shower shoes and a caddy\n- Snacks that survive shipping (granola bars, instant ramen, trail mix)\n- Cold medicine, ibuprofen and cough drops — the first-month dorm cold is real\n- A Michigan-winter item: proper gloves or a warm hat\n\nAdd a handwritten note; that's the part people keep.",
      ),
    ],
  },
  {
    key: 'pitch-deck',
    title: 'Pitch deck outline',
    at: '2025-09-08T14:00:00-07:00',
    model: 'gpt-5-thinking',
    turns: [
      user(
        "I promised Maya I'd finish the pitch deck by Friday, September 12. Can you give me a 10-slide outline for a pre-seed research-tools startup? Our story: Tidepool started as a study-group app for students and we pivoted to research labs after we saw where retention came from.",
        {
          editedFrom: {
            text: "I promised Maya I'd finish the pitch deck by Thursday. Can you give me a 12-slide outline for a pre-seed research-tools company?",
            reply:
              'Here is a 12-slide outline: title, problem, why now, solution, demo, market, business model, traction, competition, team, roadmap, the ask.',
          },
        },
      ),
      assistant(
        'A 10-slide outline:\n\n1. **Title**: Tidepool — the shared memory of a research lab\n2. **Problem**: labs lose experiments, decisions and context every time a student graduates\n3. **Insight**: you found it by accident — the only users who stayed were labs\n4. **Product**: shared experiment logs, reading-group notes, lab memory\n5. **Traction**: labs, seats, MRR, growth since March\n6. **Why now**: LLMs make unstructured lab notes searchable and connected\n7. **Market**: number of research labs × seats × price\n8. **Business model**: per seat, bottom-up adoption, department deals later\n9. **Team**: Maya (CEO), you (CTO), what each has done\n10. **The ask**: $750k, what it buys, milestones for 18 months',
      ),
      user('Should the pivot be in the deck, or is it a red flag?'),
      assistant(
        'Put it in. Told as "we followed the usage", a pivot is evidence that you learn quickly from data — pre-seed investors are mostly betting on that. Keep it to one slide and move straight to traction.',
      ),
    ],
  },
  {
    key: 'espresso-descale',
    title: 'Descaling a Breville espresso machine',
    at: '2025-09-14T10:30:00-07:00',
    model: 'gpt-5',
    turns: [
      user('How do I descale a Breville Bambino? The light is blinking.'),
      assistant(
        '1. Empty the drip tray and fill the tank with water and the descaling solution to the marked line.\n2. Hold the 1-cup and steam buttons for 5 seconds to start the descale mode.\n3. Let it run through the group head and the steam wand as prompted.\n4. Rinse the tank and run a full tank of clean water through.\n\nSF water is soft, so every two to three months is usually enough.',
      ),
    ],
  },
  {
    key: 'northgate-meeting',
    title: 'Investor follow-up email',
    at: '2025-09-23T15:00:00-07:00',
    model: 'gpt-5',
    turns: [
      user(
        'Maya and I met Elena Park, a partner at Northgate Ventures, today and they offered to lead our pre-seed with a $500k SAFE. Can you help me draft a follow-up email from both of us (sign it Maya and Sam): thank them, confirm next steps, and send the data room link?',
      ),
      assistant(
        "Subject: Tidepool — thank you and next steps\n\nHi Elena,\n\nThank you for the time today and for the offer to lead our pre-seed. We're excited about working with Northgate.\n\nAs discussed, here is the data room: [link]. It has the deck, our metrics sheet and references from two pilot labs.\n\nNext steps on our side: we'll review the SAFE with our lawyer this week and come back by Friday with any questions.\n\nBest,\nMaya and Sam",
      ),
    ],
  },
  {
    key: 'half-marathon',
    title: 'Training for a half marathon',
    at: '2025-09-30T09:00:00-07:00',
    model: 'gpt-5',
    turns: [
      user('I want to run the Berkeley half marathon in November. I can run 8 km now. Is 8 weeks enough?'),
      assistant(
        'Yes, if you build gradually. Three or four runs a week: one long run growing by 1.5-2 km each week to about 18 km, one run at a comfortable-hard pace, and easy runs for the rest. Take an easier week in week 5 and taper in the last 10 days. Increase total weekly distance by no more than about 10%.',
      ),
    ],
  },
  {
    key: 'safe-decision',
    title: 'SAFE vs priced round',
    at: '2025-10-02T13:30:00-07:00',
    model: 'gpt-5-thinking',
    turns: [
      user(
        "We decided to take the Northgate SAFE at an $8M post-money cap instead of waiting for a priced round, because a priced round would cost us two more months and legal fees we can't afford. Northgate is putting in $500k and two angels are filling the rest of the $750k. Anything we should double-check before signing?",
      ),
      assistant(
        "With post-money SAFEs the dilution is easy to compute: $750k / $8M ≈ 9.4% in total, fixed regardless of later SAFEs at the same cap.\n\nDouble-check:\n- It's the standard YC post-money SAFE, without custom changes\n- Whether Northgate wants a pro-rata side letter (common; fine to grant)\n- MFN terms if the angels sign at different terms\n- That your option pool plans are reflected in your own cap table model\n\nHave a startup lawyer read it; it's an hour of their time.",
      ),
    ],
  },
  {
    key: 'extend-gap',
    title: 'Extending my gap semester',
    at: '2025-10-14T12:00:00-07:00',
    model: 'gpt-5',
    turns: [
      user(
        "Since I started my gap semester in San Francisco in May, Tidepool went from one pilot lab to 19 labs and a funded company. I decided to extend my gap semester in San Francisco through spring 2026 instead of going back to UMD in January. I'll return to the University of Maryland in fall 2026 to finish my degree. How do I extend a leave of absence without losing my scholarship?",
      ),
      assistant(
        "Steps, in this order:\n\n1. **Advisor first**: tell them the plan and the return term; ask what the extension form is.\n2. **Financial aid and the scholarship office**: ask in writing whether a second semester of leave pauses or cancels the award, and what you need to file.\n3. **Registrar**: file the extension before the spring registration deadline.\n4. **Keep copies** of every approval email.\n\nMany universities allow up to a year of leave without reapplying, but scholarships often have their own rules, so that's the one to confirm.",
      ),
    ],
  },
  {
    key: 'first-hire',
    title: 'Hiring our first engineer',
    at: '2025-10-22T14:15:00-07:00',
    model: 'gpt-5',
    turns: [
      user(
        "The round closed last week, so we're hiring our first engineer for TP. I want someone who is good with Postgres and TypeScript and likes talking to users. Can you help me write a job post that doesn't sound like every other startup?",
      ),
      assistant(
        "**Founding engineer, Tidepool (SF, in person)**\n\nTidepool is the shared memory of a research lab: experiment logs, reading-group notes and a searchable history of what the lab has tried. 19 labs use it every week.\n\nYou'll work directly with Sam (CTO) on:\n- the Postgres data model behind lab memory (entities, facts, history)\n- the TypeScript app researchers use every day\n- weekly calls with the labs that use what you build\n\nYou might like this if you enjoy owning a feature from the first user conversation to production, and you want to build tools for scientists.\n\nSalary range and equity are listed up front: [range].",
      ),
    ],
  },
];
