/**
 * Ground truth for the sample: what a good extractor should find. Every event quotes the user's own words; the
 * generator checks that each quote is on the active branch of its conversation and stamps it with that message's
 * date, so sample/ground-truth.json can never drift from sample/chatgpt-export.json.
 */

export type TruthEntityType = 'person' | 'project' | 'tool' | 'organization' | 'place' | 'period' | 'belief';

export interface TruthEntity {
  name: string;
  type: TruthEntityType;
  aliases: string[];
  note: string;
}

export type TruthKind =
  | 'project-stage'
  | 'pivot'
  | 'role'
  | 'person-state'
  | 'organization-state'
  | 'job'
  | 'tool-adopted'
  | 'tool-dropped'
  | 'belief'
  | 'belief-doubt'
  | 'belief-reversal'
  | 'decision'
  | 'preference'
  | 'commitment'
  | 'period-start'
  | 'period-end'
  | 'period-mention'
  | 'move';

export interface TruthEvent {
  kind: TruthKind;
  /** Key of the conversation (see the story modules). */
  conv: string;
  /** Exact words of a user message on the conversation's active branch. */
  quote: string;
  /** The entity the event is about (canonical name). */
  entity: string;
  summary: string;
  /** The new state contradicts the previous one (a pivot, a reversal, a superseded decision). */
  contradiction?: boolean;
  reasons?: string[];
  alternatives?: string[];
  /** For commitments: the promised date. */
  due?: string;
  /** A date stated in the text when it differs from the conversation's date ("we launched on Monday"). */
  statedDate?: string;
}

export interface TruthPeriod {
  name: string;
  aliases: string[];
  start: string;
  /** null: still ongoing at the end of the export. */
  end: string | null;
  evidence: { conv: string; quote: string }[];
  note: string;
}

/** Things an extractor should NOT take as the user's facts. */
export interface Distractor {
  conv: string;
  quote: string;
  /** 'abandoned-branch': only on an edited-away branch; 'active': on the active path but noise. */
  where: 'abandoned-branch' | 'active' | 'hidden';
  why: string;
}

export const entities: TruthEntity[] = [
  {
    name: 'Tidepool',
    type: 'project',
    aliases: ['TP'],
    note: 'The main project: study-group app for students, pivoted to a research-notes tool for labs.',
  },
  { name: 'Maya Chen', type: 'person', aliases: ['Maya'], note: 'Co-founder: design/frontend, then CEO.' },
  { name: 'Nora', type: 'person', aliases: ['my sister Nora'], note: "The user's younger sister." },
  {
    name: 'Daniel Okafor',
    type: 'person',
    aliases: ['Professor Daniel Okafor', 'Prof. Okafor'],
    note: "Mentor; runs the Human-Centered Computing lab at UMD; his lab is Tidepool's first pilot customer.",
  },
  { name: 'Elena Park', type: 'person', aliases: [], note: 'Partner at Northgate Ventures.' },
  { name: 'University of Maryland', type: 'organization', aliases: ['UMD'], note: "The user's university." },
  {
    name: 'Brightline Labs',
    type: 'organization',
    aliases: ['Brightline'],
    note: 'AI memory infrastructure company in SF; research internship June–August 2025.',
  },
  {
    name: 'Northgate Ventures',
    type: 'organization',
    aliases: ['Northgate'],
    note: "Leads Tidepool's pre-seed with a $500k SAFE.",
  },
  {
    name: 'Human-Centered Computing lab',
    type: 'organization',
    aliases: ["Prof. Okafor's lab"],
    note: "Okafor's lab at UMD; Tidepool's heaviest users, then first pilot customer.",
  },
  { name: 'University of Michigan', type: 'organization', aliases: ['Michigan'], note: "Nora's university." },
  { name: 'San Francisco', type: 'place', aliases: ['SF'], note: 'Where the user moved on 2025-05-18.' },
  { name: 'College Park', type: 'place', aliases: [], note: 'Where the user lived during junior year.' },
  { name: 'Firebase', type: 'tool', aliases: ['Firestore', 'Firebase Auth'], note: 'Adopted, then dropped.' },
  { name: 'Supabase', type: 'tool', aliases: [], note: 'Replaced Firebase.' },
  { name: 'Postgres', type: 'tool', aliases: ['Supabase Postgres'], note: 'Chosen over MongoDB.' },
  { name: 'MongoDB', type: 'tool', aliases: ['Mongo', 'MongoDB Atlas'], note: 'Rejected alternative; never used.' },
  { name: 'Notion', type: 'tool', aliases: [], note: 'Dropped for Obsidian.' },
  { name: 'Obsidian', type: 'tool', aliases: [], note: 'Personal notes from February 2025.' },
  { name: 'LangChain', type: 'tool', aliases: [], note: 'Adopted March 2025, dropped June 2025.' },
  { name: 'OpenAI SDK', type: 'tool', aliases: ['plain OpenAI SDK calls'], note: 'Replaced LangChain.' },
  { name: 'TypeScript', type: 'tool', aliases: ['TS'], note: 'Preferred language.' },
  { name: 'React', type: 'tool', aliases: [], note: 'First frontend.' },
  { name: 'Next.js', type: 'tool', aliases: [], note: 'Frontend of the research-notes version.' },
  { name: 'pgvector', type: 'tool', aliases: [], note: 'Vectors inside Postgres.' },
  { name: 'Yjs', type: 'tool', aliases: [], note: 'CRDT for collaborative notes.' },
  { name: 'Neo4j', type: 'tool', aliases: [], note: 'Considered and rejected for the graph layer.' },
  {
    name: 'vector search is enough for memory',
    type: 'belief',
    aliases: [],
    note: 'Held 2024-10-05, doubted 2025-07-09, abandoned 2025-07-29 (contradicted by the next belief).',
  },
  {
    name: 'knowledge graphs beat pure vector search for personal memory',
    type: 'belief',
    aliases: [],
    note: 'Held from 2025-07-29; CONTRADICTS the belief above. One belief entity whose stance flips is also fine.',
  },
];

export const periods: TruthPeriod[] = [
  {
    name: 'junior year at UMD',
    aliases: ['junior year'],
    start: '2024-08-26',
    end: '2025-05-16',
    evidence: [
      { conv: 'junior-year-schedule', quote: 'I just started junior year at UMD (classes started August 26)' },
      { conv: 'junior-year-ending', quote: 'Junior year at UMD ends next week. My last final is May 16' },
    ],
    note: 'Start and end are dates stated in the text; the first mention is 2024-09-03.',
  },
  {
    name: 'gap semester in San Francisco',
    aliases: ['SF gap semester', 'gap semester'],
    start: '2025-05-18',
    end: null,
    evidence: [
      { conv: 'moved-to-sf', quote: 'My gap semester in San Francisco officially starts now!' },
      { conv: 'internship-ends', quote: 'for the rest of my SF gap semester' },
      { conv: 'extend-gap', quote: 'Since I started my gap semester in San Francisco in May' },
      { conv: 'extend-gap', quote: 'extend my gap semester in San Francisco through spring 2026' },
    ],
    note: 'Starts with the move on 2025-05-18; ongoing at the end of the export, planned to run through spring 2026.',
  },
];

export const distractors: Distractor[] = [
  {
    conv: 'supabase-decision',
    quote: 'Should we just move to MongoDB Atlas?',
    where: 'abandoned-branch',
    why: 'The user edited this message; the active branch decides Postgres over MongoDB.',
  },
  {
    conv: 'pitch-deck',
    quote: "I promised Maya I'd finish the pitch deck by Thursday.",
    where: 'abandoned-branch',
    why: 'Edited away; the commitment on the active branch is Friday, September 12.',
  },
  {
    conv: 'pitch-deck',
    quote: 'we pivoted to research labs after we saw where retention came from',
    where: 'active',
    why: 'A retrospective mention of the March 2025 pivot, not a new pivot.',
  },
  {
    conv: 'sourdough',
    quote: 'I switched from all-purpose to whole wheat flour',
    where: 'active',
    why: 'A "switched from X to Y" sentence about flour, not a tool: noise.',
  },
  {
    conv: 'obsidian-switch',
    quote: 'Preferred name: Sam',
    where: 'hidden',
    why: 'Custom instructions (user_editable_context, hidden); not something the user said in the conversation.',
  },
];
