/** March–May 2025: LangChain arrives, the first pilot lab, the Brightline offer, the decision to take a gap semester. */
import { assistant, user, type StoryConversation } from './types.js';

export const lateSpring2025: StoryConversation[] = [
  {
    key: 'langchain-pipeline',
    title: 'LangChain for paper summaries',
    at: '2025-03-12T14:45:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        'For the new Tidepool I started using LangChain to build the paper-summarization pipeline: upload a PDF, chunk it, summarize it, and link it to the lab reading list. Can you show me a minimal LangChain JS setup for PDF to summary with a map-reduce step?',
      ),
      assistant(
        "Sketch with LangChain JS:\n\n```ts\nconst docs = await new PDFLoader(file).load();\nconst chunks = await new RecursiveCharacterTextSplitter({ chunkSize: 4000 }).splitDocuments(docs);\nconst chain = loadSummarizationChain(model, { type: 'map_reduce' });\nconst { text } = await chain.invoke({ input_documents: chunks });\n```\n\nThe map step summarizes each chunk, the reduce step merges them. Store the summary with the paper's DOI so the reading list can link to it.",
      ),
      user('The abstractions are a lot. Is it normal to need five classes for this?'),
      assistant(
        "It's a common complaint. LangChain pays off when you swap models, loaders and vector stores often; for a single fixed pipeline it can be more structure than you need. Keep it if it's saving you time, but keep your prompts in your own files so you can leave later.",
      ),
    ],
  },
  {
    key: 'whiteboard-architecture',
    title: 'Architecture from a whiteboard photo',
    at: '2025-03-20T16:05:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Here's a photo of our whiteboard from today. Maya and I sketched the new Tidepool architecture: a Next.js frontend, Supabase Postgres with pgvector, a worker for PDF parsing, and the LangChain summarizer. Does anything look wrong?",
        { image: { name: 'IMG_4821.jpeg', width: 1536, height: 2048, sizeBytes: 412733 } },
      ),
      assistant(
        "From the photo, the flow is: Next.js → Supabase (auth, Postgres, pgvector) ← worker (PDF parsing → summarizer). Two things stand out:\n\n1. The worker writes straight into the tables the frontend reads. Put a **queue** in between (Supabase Queues / pgmq) so a slow PDF doesn't block anything and failed jobs can be retried.\n2. There's no arrow for **re-processing**: when you change the summarizer you'll want to re-run old papers. Keep the raw extracted text so you don't re-parse PDFs.\n\nOtherwise it's a sensible, boring architecture — which is good.",
      ),
      user('Good call on the queue. We will add pgmq.'),
      assistant(
        'Sounds good. Start with one queue and a dead-letter table; split queues only when you need different priorities.',
      ),
    ],
  },
  {
    key: 'okafor-pilot',
    title: 'Pilot agreement with a university lab',
    at: '2025-03-28T13:30:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "Prof. Okafor's lab is officially our first pilot customer for the research-notes version of Tidepool: 8 people, free for three months, then $40 per seat per month if it works. I promised Prof. Okafor I'd send him a pilot report by Friday, April 11. What should go in a pilot report that a professor will actually read?",
      ),
      assistant(
        "Keep it to one page:\n\n1. **What we set out to test** (two or three sentences)\n2. **Usage**: active members per week, experiments logged, notes written\n3. **Three quotes** from his students, good and bad\n4. **What we changed** because of their feedback\n5. **What's next** and what you're asking of him (continue, pay, introduce other labs)\n\nProfessors read the first paragraph and the numbers. Put the ask where they'll see it.",
      ),
    ],
  },
  {
    key: 'brightline-offer',
    title: 'Internship offer and a gap semester?',
    at: '2025-04-07T15:00:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "I got an offer from Brightline Labs for a research internship on their retrieval team in San Francisco, June to August. Brightline builds memory infrastructure for AI assistants, so it's weirdly close to what Tidepool needs. The catch: if I go, I want to stay in SF after the summer and work on Tidepool full-time instead of coming back to UMD for the fall.",
      ),
      assistant(
        "It's a strong offer, and the overlap with Tidepool is a real bonus. Questions worth answering before you decide:\n\n- **UMD's leave policy**: how long can you step away without reapplying, and what happens to scholarships?\n- **Money**: can the internship pay cover SF rent through the fall?\n- **Tidepool's timing**: when do labs buy? If it's the start of the academic year, being full-time in the fall matters.\n- **Conflicts**: check the internship contract's IP clause against your work on Tidepool.",
      ),
      user(
        "I decided to take a gap semester in San Francisco. I'll do the Brightline internship over the summer, then work on Tidepool full-time in the fall, and come back to UMD for spring 2026. The alternative was going back for senior year in the fall and running Tidepool part-time, but labs buy in September and I don't want to miss that.",
      ),
      assistant(
        "That's a clear decision with a clear reason. Get the leave of absence approved in writing, tell your advisor early, and put the return date in your calendar so future-you sees the plan.",
      ),
    ],
  },
  {
    key: 'student-taxes',
    title: 'Do I need to file taxes as a student?',
    at: '2025-04-10T11:00:00-04:00',
    model: 'gpt-4o-mini',
    turns: [
      user(
        'I made about $6,800 from my campus job in 2024 and my parents claim me as a dependent. Do I need to file a tax return?',
      ),
      assistant(
        "For 2024, a dependent with only earned income generally has to file if that income is over $14,600, so you're probably not required to. But if federal or Maryland tax was withheld from your paychecks, filing is how you get it back — check box 2 of your W-2. Free File options cover a return this simple.",
      ),
    ],
  },
  {
    key: 'telling-parents',
    title: 'Telling my parents about the gap semester',
    at: '2025-04-15T12:00:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        "I need to tell my parents about the gap semester in San Francisco this weekend. My dad is going to worry that I won't finish my degree. My sister Nora already knows and thinks it's great, which may or may not help. How do I frame it?",
      ),
      assistant(
        "Lead with the plan, not the excitement:\n\n- The leave is approved and time-limited; say the return semester out loud.\n- The internship is paid and with a real company.\n- Name the worst case and what you'd do (you come back to UMD on schedule with an internship on your résumé).\n\nLet your dad ask his questions and answer them plainly. Maybe keep Nora's enthusiasm for after.",
      ),
    ],
  },
  {
    key: 'junior-year-ending',
    title: 'Wrapping up the semester before leaving',
    at: '2025-05-08T14:00:00-04:00',
    model: 'gpt-4o',
    turns: [
      user(
        'Junior year at UMD ends next week. My last final is May 16 and I fly to San Francisco on May 18. What should I take care of at the university before a semester away? The leave of absence is already approved.',
      ),
      assistant(
        'A short checklist:\n\n- Confirm the leave appears on your record and there are no registration holds.\n- Ask financial aid what the leave means for your scholarship and loans.\n- Move out and return keys; set up mail forwarding.\n- Set your UMD email to forward somewhere you read.\n- Meet your advisor to sketch your senior-year plan so your return is simple.',
      ),
      user("Also, Prof. Okafor said he'll keep me on the lab's Slack, which is nice."),
      assistant(
        "That's a good sign for the relationship — and a useful channel, since his lab is also your first customer.",
      ),
    ],
  },
];
