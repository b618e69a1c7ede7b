import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { LATEST_SCHEMA_VERSION, openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import type { Conversation, Turn } from '../../src/domain/conversation.js';
import type {
  EntityState,
  Fact,
  Period,
  Procedure,
  Relationship,
  StateValue,
  Transition,
  WorldStats,
} from '../../src/domain/world.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { normalizeName } from '../../src/resolve/normalize.js';
import { BENCH_TMP, removeDb } from '../workspace.js';
import { createRng, pick } from './prng.js';

/**
 * A synthetic world model at the scale of four years of heavy use (~50k episodes, ~20k entities, ~200k transitions,
 * ~40k relationships), written through the storage port the way extraction writes it. Deterministic (seeded).
 * Episodes are processed in time order: each mentions a few entities drawn with a skewed (Zipf-like) popularity, so
 * a few hubs collect thousands of mentions and changes; every mention of a known entity may change one attribute
 * (an update; ~2 % contradictions, about half resolved later), with the fact chain per attribute closed as it goes;
 * co-mentioned entities get relationships (some ended), new entities a DURING edge to the period they appeared in.
 * Bump WORLD_VERSION whenever the output changes, so cached databases are rebuilt.
 */
export const WORLD_VERSION = 'world-v1';

export const WORLD_SHAPE = {
  episodes: 50_000,
  start: Date.UTC(2022, 0, 1),
  end: Date.UTC(2026, 0, 1),
  seed: 20_260_101,
  /** Entities besides the user's own ("self") and the periods. */
  entities: {
    person: 4000,
    project: 1500,
    tool: 2500,
    belief: 2500,
    decision: 2500,
    concept: 4500,
    organization: 1500,
    place: 1000,
  } as Record<string, number>,
  /** Other entities mentioned per episode (besides those it introduces). */
  mentions: [3, 6] as const,
  updateRate: 0.8,
  relationshipRate: 0.58,
  endedRate: 0.25,
  resolveRate: 0.05,
  procedures: 30,
};

/** A moment after the world ends, used as "now" by the query benchmark. */
export const WORLD_NOW = Date.UTC(2026, 0, 12, 12);

const DAY = 86_400_000;
const d = (s: string): number => Date.parse(`${s}T00:00:00Z`);

const PERIODS: [string, string, string][] = [
  ['freshman spring at UMD', '2022-01-24', '2022-05-20'],
  ['summer 2022 research at NIST', '2022-06-01', '2022-08-19'],
  ['sophomore year at UMD', '2022-08-29', '2023-05-19'],
  ['winter break 2022', '2022-12-20', '2023-01-24'],
  ['Copenhagen exchange semester', '2023-01-16', '2023-05-12'],
  ['marathon training block', '2023-02-01', '2023-04-30'],
  ['summer 2023 startup accelerator', '2023-06-05', '2023-08-18'],
  ['junior year at UMD', '2023-08-28', '2024-05-17'],
  ['Tidepool launch sprint', '2024-02-15', '2024-04-10'],
  ['summer 2024 internship', '2024-06-03', '2024-08-23'],
  ['senior year at UMD', '2024-08-26', '2025-05-16'],
  ['winter break 2024', '2024-12-18', '2025-01-20'],
  ['thesis semester', '2025-01-21', '2025-05-09'],
  ['job search 2025', '2025-02-01', '2025-04-30'],
  ['gap semester in San Francisco', '2025-06-02', '2025-12-19'],
];

/** The hubs: most mentioned first. [type, name, aliases] */
const HUBS: [string, string, string[]][] = [
  ['project', 'Tidepool', []],
  ['person', 'Maya Chen', ['Maya']],
  ['tool', 'TypeScript', ['TS']],
  ['concept', 'knowledge graphs', []],
  ['organization', 'University of Maryland', ['UMD']],
  ['project', 'Lanternfish', []],
  ['tool', 'Python', []],
  ['person', 'Daniel Okafor', ['Daniel']],
  ['concept', 'retrieval augmented generation', ['RAG']],
  ['tool', 'SQLite', []],
  ['project', 'Kestrel Notes', ['Kestrel']],
  ['person', 'Priya Raman', ['Priya']],
  ['belief', 'graph databases beat vector stores for personal memory', []],
  ['tool', 'FalkorDB', []],
  ['organization', 'Anthropic', []],
  ['concept', 'spaced repetition', []],
  ['place', 'San Francisco', ['SF']],
  ['person', 'Leo Martinez', ['Leo']],
  ['project', 'Sunbeam Tutor', []],
  ['belief', 'shipping weekly matters more than polishing', []],
  ['decision', 'Use SQLite for Tidepool', []],
  ['tool', 'React', []],
  ['organization', 'Y Combinator', ['YC']],
  ['concept', 'temporal reasoning', []],
  ['place', 'College Park', []],
  ['person', 'Sofia Novak', ['Sofia']],
  ['tool', 'Neo4j', []],
  ['project', 'Harbor Metrics', []],
  ['belief', 'RAG is enough for long-term memory', []],
  ['organization', 'NIST', []],
];

const w = (s: string): string[] => s.trim().split(/\s+/);
const FIRST = w(`Aaron Abby Adam Aisha Alex Alice Amir Ana Andre Anya Ben Bianca Caleb Carmen Chloe Chris Dana Dev Diego
  Elena Eli Emma Ethan Farah Felix Fiona Gabe Grace Hana Hugo Ian Ines Isaac Jade Jamal James Jin Jonah Julia Kai Kara
  Kenji Lara Liam Lina Lucas Luna Malik Marco Mei Mila Nadia Nate Nina Noah Nora Omar Owen Paula Quinn Rafael Rania
  Reza Rosa Ryan Sam Sara Sean Selin Simone Tara Theo Tomas Uma Vera Victor Wei Will Yara Yusuf Zara Zoe Arjun Beatriz
  Cyrus Dina Emil Freya Goran Helga Ivan Jonas Kofi Leila Mateo Naomi Oscar Pia`);
const LAST =
  w(`Abbott Adeyemi Alvarez Anders Bauer Becker Bianchi Brooks Carter Castillo Cho Costa Dalton Das Diaz Dubois
  Eriksen Evans Farouk Fischer Flores Garcia Greene Gupta Haddad Hansen Hoang Hughes Ibrahim Ito Jensen Johansson Kaur
  Kim Kowalski Kruger Larsen Lee Lopez Mahmoud Mendes Meyer Miller Moreau Murphy Nakamura Nguyen Nielsen Novak Obi Ortiz
  Park Patel Perez Petrov Quinn Ramos Reyes Rossi Sato Schmidt Shah Silva Singh Sokolov Suzuki Tanaka Torres Tran Turner
  Vargas Vogel Wagner Walker Wang Weber Wilson Wong Yamamoto Yilmaz Young Zhang Ziegler Zhou Abe Banerjee Costello Dunn
  Engel Ferrari Gallo Horvat Ivanova Jovanovic Keller Lindqvist Marsh Nilsson Okoro Pham`);
const WORDS =
  w(`Kestrel Lantern Juniper Meridian Harbor Cobalt Driftwood Foxglove Granite Heron Ivy Jetstream Kelp Lumen
  Marigold Nimbus Orchard Pebble Quill Rook Saffron Thistle Umber Vesper Willow Yarrow Zephyr Acorn Bramble Cinder Dune
  Ember Fern Glacier Hollow Inlet Jasper Kite Lark Moss Nettle Onyx Pine Quartz Reef Sorrel Tundra Vale Wren Alder Birch
  Cedar Delta Fjord Grove Hazel Iris Knoll Lotus Maple Nova Prism Sage Vista Whirl Aspen Canyon Dawn Elm Flint Garnet
  Heath Isle Kiln Lichen Mesa Nook Opal Pollen Ridge Slate Thorn Vine Wisp Amber Basalt Coral Dusk Estuary Falcon Gull
  Harrow Ibis Kettle Loam Newt Osprey Plume Raven Shoal Teal Vireo Wicker Bluebird Clover Dahlia Egret Finch Gale Hearth`);
const PROJECT_SUFFIX =
  w(`_ Notes API App Bot Tutor Metrics Sync Studio Lab CLI Engine Site Dashboard Garden Journal Planner
  Tracker Cloud Desk`).map((s) => (s === '_' ? '' : ` ${s}`));
const TOOLS =
  w(`Postgres Docker Kubernetes Notion Obsidian Figma Cursor LangChain LlamaIndex Rust Go Redis Supabase Vercel
  Jupyter pandas NumPy PyTorch Ollama Anki Zotero LaTeX Overleaf Linear Slack Discord Tailwind Vite Vitest Playwright
  Prisma Drizzle FastAPI Flask Django Express Deno Bun Electron Tauri Svelte Vue Astro Terraform Cloudflare Sentry PostHog
  Stripe Airtable Zapier Raycast Excalidraw Miro Trello Todoist Readwise Logseq Mermaid Graphviz DuckDB ClickHouse Kafka
  Elasticsearch Meilisearch Qdrant Chroma Pinecone Weaviate pgvector Whisper spaCy Streamlit Gradio Modal Homebrew tmux
  Neovim Git Copilot`);
const TOOL_SUFFIX = ['', 'DB', 'JS', 'Kit', 'Flow', 'Stack', 'Hub', 'ly'];
const ADJ =
  w(`temporal sparse dense hierarchical probabilistic causal incremental distributed semantic episodic adaptive
  contrastive generative symbolic federated streaming bayesian low-rank multimodal self-supervised lifelong robust
  interpretable efficient approximate local-first event-driven functional declarative reactive typed lazy persistent
  immutable concurrent lexical hybrid neural statistical deliberate cognitive behavioral social product growth systems
  visual mobile offline realtime privacy-preserving open-ended structured collaborative personal iterative modular
  continual retrieval-based agentic relational graph-native long-context few-shot zero-shot online batch spatial
  narrative critical experimental empirical formal informal quantitative qualitative peer async remote embodied
  compositional differentiable discrete`);
const NOUN =
  w(`memory retrieval attention embeddings search ranking indexing caching learning inference reasoning planning
  scheduling compression summarization clustering classification segmentation alignment evaluation benchmarking sampling
  optimization regularization tokenization parsing versioning replication consensus sharding migration testing profiling
  logging monitoring onboarding pricing retention habits motivation practice note-taking ontologies taxonomies
  pipelines modeling design architecture workflows interfaces prototyping storytelling negotiation leadership writing
  reading forecasting debugging refactoring documentation analytics experimentation metrics tooling automation
  visualization navigation feedback collaboration mentorship budgeting communication estimation prioritization
  delegation critique synthesis abstraction composition control transfer distillation personalization recommendation
  moderation annotation curation deduplication provenance`);
const PLACE_KIND = [' Cafe', ' Library', ' Park', ' Street', ' Hall', ' Coworking', ' Gym'];
const CITIES =
  w(`Baltimore Washington Boston Seattle Austin Chicago Denver Portland Brooklyn Oakland Berkeley Toronto Montreal
  London Berlin Paris Lisbon Madrid Copenhagen Stockholm Amsterdam Zurich Vienna Prague Tokyo Seoul Singapore Bangalore
  Nairobi Lagos Sydney Melbourne Dublin Edinburgh Barcelona Rome Athens Istanbul Toronto Vancouver`);
const ORG_KIND = [' Labs', ' Capital', ' Foundation', ' Institute', ' Systems', ' Ventures', ' Health', ' Analytics'];
const TOPICS =
  w(`onboarding-flow pricing-page database-schema retrieval-quality user-interviews exam-prep thesis-outline
  pitch-deck deployment-pipeline weekly-planning reading-list training-plan sleep-schedule monthly-budget apartment-search
  interview-prep lecture-notes problem-set research-paper API-design test-coverage query-latency entity-resolution
  prompt-design error-handling data-model caching-layer landing-page fundraising-plan cofounder-search hiring-plan
  code-review release-notes bug-triage roadmap metrics-dashboard user-retention grant-application conference-talk
  blog-post internship-applications course-selection study-group travel-plans visa-paperwork meal-prep side-projects
  open-source-contribution performance-tuning security-review accessibility-audit mobile-app offline-sync
  search-ranking evaluation-harness`).map((t) => t.replace(/-/g, ' '));
const ACTIONS = [
  'write a short design doc',
  'sketch the data model first',
  'run a small experiment',
  'ask for feedback early',
  'timebox it to a week',
  'measure before optimizing',
  'split it into smaller tasks',
  'talk to three users',
  'start with the tests',
  'draft an outline',
  'compare two options side by side',
  'ship a rough version',
  'read the docs end to end',
  'pair on it with someone',
  'revisit it next week',
  'list the open questions',
  'check the numbers again',
  'cut the scope in half',
  'prototype on paper',
  'set up a checklist',
  'sleep on it',
  'look for prior art',
  'book office hours',
  'record a quick demo',
  'clean up the backlog',
  'benchmark the slow path',
  'rewrite the intro',
  'send a status update',
  'block a focus afternoon',
  'ask the TA',
];
const USER_LINES = [
  'Can you help me think through the {T} for {A}?',
  'I talked with {B} about {A} today and we disagreed on the {T}.',
  'How does {A} fit into the {T}? {B} had opinions about it last week.',
  'Quick question about the {T}: should I {X} or {Y} for {A}?',
  'Notes from today: {A} is moving along, the {T} is still open, and {B} wants to {X}.',
  'Remind me what we concluded about the {T} and {A}.',
  'I am stuck on the {T} for {A}. I already tried to {X}.',
  'What would you change about my plan for {A}? The {T} and the {U} both need attention.',
  '{B} sent me a draft about {A}, mostly about the {T}.',
  'Is it worth it to {X} before the {T} deadline?',
  'I keep going back and forth on {A} versus {B}.',
  'Here is where I am with the {T}: {A} done, {U} not started.',
  'Give me a plan for the {T} this week, {A} first.',
  'Why does the {T} for {A} feel so slow lately?',
];
const ASSISTANT_LINES = [
  'For {A}, a reasonable approach to the {T} is to {X} and then {Y}.',
  'Given what {B} mentioned, the {T} deserves more attention than the {U} right now.',
  'You could {X}; it keeps {A} moving without locking you into a decision about the {U}.',
  'A common pattern for the {T} is to {Y} before touching anything else, especially with {A} involved.',
  'The tradeoff between {A} and {B} comes down to the {T}: one is faster to start, the other scales better.',
  'If the {T} keeps coming back, it may help to {X} and note what is different this time.',
  'So far: {A} needs a clearer {T}, {B} can help with the {U}, and the next step is to {Y}.',
  'One option is to {X}. Another is to {Y}. Both leave room for the {U} later.',
  '{A} already covers most of the {T}; the gap is the {U}.',
  'I would ask {B} directly, since the {T} depends on their part.',
  'Try to {Y} first; if the {T} still looks off, {X}.',
  'That sounds like a {T} problem more than a {U} problem.',
  'Before you {X}, check whether {A} really needs it.',
  'A small win here: {Y}, then share it with {B}.',
];
const TITLES = [
  '{A} {T}',
  '{T} with {B}',
  'Planning {A}',
  '{A} and {B}',
  'Question about the {T}',
  '{A}: {U}',
  'Notes on {A}',
  '{T} check-in',
  'Help with {A}',
  'Thinking about the {T}',
];
const EPISODE_SUMMARIES = [
  'Discussed the {T} for {A}, with {B}; next step: {X}.',
  'Worked through the {T} of {A}.',
  '{A} and {B}: sorted out the {U}.',
  'Planned the {T}; decided to {X}.',
  'Reviewed where {A} stands and the {U}.',
  'Asked for help on the {T} around {A}.',
  'Compared {A} with {B} for the {T}.',
];
/** How a change of state is phrased (summaries written by a model vary; their words should too). */
const CHANGE_PHRASES = [
  '{E}: {a} is now {v} (was {o})',
  '{E} switched {a} to {v}',
  '{E} moved from {o} to {v}',
  '{a} of {E} became {v}',
  '{E}: {a} went to {v}',
  'Settled on {v} as the {a} of {E}',
  '{E} now has {a} {v}, no longer {o}',
  'Updated {E}: {a} {v}',
  '{E} shifted its {a} to {v}',
  'Noted that {E} is {v} for {a} now',
];
const CHANGE_CONTEXTS = [
  '',
  '',
  '',
  ' after talking to {B}',
  ' during the {T}',
  ' while sorting out the {T}',
  ' ({T})',
];
const USER_STATES = ['focused', 'stressed', 'excited', 'tired', 'curious', 'frustrated', 'calm'];
const PROCEDURE_DOMAINS = w(`starting-a-new-project debugging studying-for-exams writing-papers job-applications
  learning-a-new-tool code-review planning-the-week fundraising user-interviews preparing-talks reading-research-papers
  choosing-a-database deploying managing-stress running-experiments writing-documentation onboarding-teammates
  travel-planning budgeting hiring product-launches note-taking giving-feedback negotiating-offers organizing-notes
  evaluating-models designing-APIs refactoring exercise-routine`).map((t) => t.replace(/-/g, ' '));

/** Attribute → value pool per type; a value starting with "@" names another kind of entity. */
const ATTRIBUTES: Record<string, Record<string, readonly StateValue[]>> = {
  person: {
    role: w('student engineer designer researcher founder PM professor recruiter investor TA'),
    relation: w('classmate friend colleague mentor manager cofounder advisor'),
    org: ['@organization'],
    city: ['@place'],
  },
  project: {
    stage: w('idea prototype alpha beta launched paused abandoned maintained'),
    stack: ['@tool'],
    users: [0, 3, 12, 40, 150, 600, 2400],
    priority: w('low medium high top'),
  },
  tool: {
    usage: w('trying daily weekly occasional dropped evaluating'),
    opinion: ['love it', 'useful', 'mixed', 'frustrating', 'overkill'],
    version: ['v1', 'v2', 'v3', 'v4', 'v5'],
  },
  belief: { stance: ['held', 'strongly held', 'doubting', 'abandoned'], confidence: [0.3, 0.5, 0.7, 0.85, 0.95] },
  decision: { status: ['considering', 'made', 'in progress', 'done', 'reversed'], reasoning: ACTIONS },
  concept: { understanding: ['heard of', 'learning', 'comfortable', 'deep'], interest: w('low medium high') },
  organization: {
    relation: w('applied interviewing offer intern member alumni partner rejected'),
    industry: w('edtech AI fintech research nonprofit climate'),
  },
  place: { context: w('home campus work travel cafe'), visits: [1, 2, 5, 10, 25] },
  period: { kind: ['period'] },
};
const CONTRADICTION_RATE: Record<string, number> = {
  belief: 0.06,
  decision: 0.04,
  project: 0.03,
  tool: 0.015,
  organization: 0.015,
  person: 0.01,
  concept: 0.01,
  place: 0.005,
};

interface PlannedEntity {
  id: string;
  type: string;
  name: string;
  aliases: string[];
  importance: number;
  birthEp: number;
  firstSeen: number;
  lastSeen: number;
  createdFrom: string | null;
  created: boolean;
  open: Map<string, Fact>;
  unresolved: Transition[];
}

interface PlannedEpisode {
  time: number;
  entities: number[];
}

export interface World {
  entities: PlannedEntity[];
  episodes: PlannedEpisode[];
  transitions: Transition[];
  facts: Fact[];
  relationships: Relationship[];
  mentions: { entityId: string; episodeId: string; time: number }[];
  periods: Period[];
  procedures: Procedure[];
}

const episodeId = (i: number): string => `chatgpt:world-${i}`;
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** A topic of conversation: a common one half the time, otherwise one of thousands of narrower ones. */
const topic = (rng: () => number): string => (rng() < 0.5 ? pick(rng, TOPICS) : `${pick(rng, ADJ)} ${pick(rng, NOUN)}`);

/** Entity names of every type, unique, in popularity order (hubs first, then a seeded shuffle). */
function nameEntities(rng: () => number): { type: string; name: string; aliases: string[] }[] {
  const used = new Set<string>(['user', ...HUBS.map(([, n]) => normalizeName(n))]);
  const syllable = (): string => pick(rng, w('b d f g k l m n p r s t v z br st tr gr')) + pick(rng, w('a e i o u ai'));
  const coined = (): string => cap(syllable() + syllable() + pick(rng, ['', 'n', 'r', 'x', 'l']));
  const take = (
    type: string,
    count: number,
    make: () => string,
  ): { type: string; name: string; aliases: string[] }[] => {
    const out: { type: string; name: string; aliases: string[] }[] = [];
    for (let tries = 0; out.length < count && tries < count * 50; tries++) {
      const name = make();
      const key = normalizeName(name);
      if (used.has(key)) continue;
      used.add(key);
      out.push({ type, name, aliases: [] });
    }
    return out;
  };
  const n = WORLD_SHAPE.entities;
  const hubCount = (type: string): number => HUBS.filter(([t]) => t === type).length;
  const count = (type: string): number => (n[type] ?? 0) - hubCount(type);
  const concept = (): string => `${pick(rng, ADJ)} ${pick(rng, NOUN)}`;
  const tail = [
    ...take('person', count('person'), () => `${pick(rng, FIRST)} ${pick(rng, LAST)}`),
    ...take('project', count('project'), () => pick(rng, WORDS) + pick(rng, PROJECT_SUFFIX)),
    ...take('tool', count('tool'), () => (rng() < 0.03 ? pick(rng, TOOLS) : coined() + pick(rng, TOOL_SUFFIX))),
    ...take('concept', count('concept'), concept),
    ...take('belief', count('belief'), () =>
      pick(rng, [
        () => `${concept()} matters more than ${concept()}`,
        () => `${concept()} is overrated`,
        () => `I should spend more time on ${concept()}`,
        () => `${pick(rng, TOOLS)} is the right default for ${pick(rng, NOUN)}`,
      ])(),
    ),
    ...take('decision', count('decision'), () =>
      pick(rng, [
        () => `Use ${pick(rng, TOOLS)} for ${pick(rng, WORDS)}`,
        () => `Pause ${pick(rng, WORDS)}${pick(rng, PROJECT_SUFFIX)}`,
        () => `Focus on ${concept()} this semester`,
        () => `Stop ${pick(rng, NOUN)} on weekends with ${pick(rng, FIRST)}`,
      ])(),
    ),
    ...take('organization', count('organization'), () =>
      rng() < 0.5 ? pick(rng, LAST) + pick(rng, ORG_KIND) : coined() + pick(rng, ORG_KIND),
    ),
    ...take('place', count('place'), () =>
      rng() < 0.05 ? pick(rng, CITIES) : pick(rng, [...WORDS, ...LAST]) + pick(rng, PLACE_KIND),
    ),
  ];
  for (let i = tail.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [tail[i], tail[j]] = [tail[j] as (typeof tail)[number], tail[i] as (typeof tail)[number]];
  }
  return [
    { type: 'person', name: 'User', aliases: [] },
    ...HUBS.map(([type, name, aliases]) => ({ type, name, aliases })),
    ...tail,
  ];
}

/** Plans the whole world in memory (fast); writing it is separate. */
export function planWorld(): World {
  const shape = WORLD_SHAPE;
  const rng = createRng(shape.seed);
  const E = shape.episodes;
  const span = shape.end - shape.start;
  const episodes: PlannedEpisode[] = [];
  for (let i = 0; i < E; i++) episodes.push({ time: 0, entities: [] });
  const times = episodes.map(() => shape.start + Math.floor(rng() * span)).sort((a, b) => a - b);
  episodes.forEach((e, i) => (e.time = times[i] ?? shape.start));

  const named = nameEntities(rng);
  const entities: PlannedEntity[] = named.map((x, r) => ({
    id: r === 0 ? 'self' : `ent-${x.type}-${String(r).padStart(5, '0')}`,
    ...x,
    importance: Math.min(0.98, 0.2 + 0.75 * Math.sqrt(20 / (r + 20)) + rng() * 0.03),
    birthEp: r === 0 ? 0 : r <= HUBS.length + 10 ? Math.floor(rng() * E * 0.03) : Math.floor(rng() * E),
    firstSeen: 0,
    lastSeen: 0,
    createdFrom: null,
    created: false,
    open: new Map(),
    unresolved: [],
  }));
  const byType = (type: string) => entities.filter((e) => e.type === type);
  // Cumulative Zipf-like weights over popularity ranks; periods are never drawn.
  const cumulative = new Float64Array(entities.length);
  let total = 0;
  entities.forEach((_, r) => (cumulative[r] = total += 1 / (r + 20)));
  const draw = (): number => {
    const x = rng() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const periods: Period[] = PERIODS.map(([name, start, end], k) => {
    const id = `ent-period-${String(k + 1).padStart(2, '0')}`;
    const firstEp = Math.max(
      0,
      times.findIndex((t) => t >= d(start)),
    );
    entities.push({
      id,
      type: 'period',
      name,
      aliases: [],
      importance: 0.6,
      birthEp: firstEp,
      firstSeen: 0,
      lastSeen: 0,
      createdFrom: null,
      created: false,
      open: new Map(),
      unresolved: [],
    });
    return { entityId: id, name, start: d(start), end: d(end) + DAY };
  });
  const periodEntity = new Map(entities.filter((e) => e.type === 'period').map((e) => [e.id, e]));
  const births: number[][] = episodes.map(() => []);
  entities.forEach((e, k) => births[e.birthEp]?.push(k));

  const world: World = {
    entities,
    episodes,
    transitions: [],
    facts: [],
    relationships: [],
    mentions: [],
    periods,
    procedures: [],
  };
  const pools = {
    person: byType('person'),
    project: byType('project'),
    tool: byType('tool'),
    organization: byType('organization'),
    place: byType('place'),
  } as Record<string, PlannedEntity[]>;
  const valueFor = (pool: StateValue, not?: StateValue): StateValue => {
    if (typeof pool === 'string' && pool.startsWith('@')) {
      const list = pools[pool.slice(1)] ?? [];
      return (list[Math.min(list.length - 1, Math.floor(rng() * rng() * list.length))] as PlannedEntity).name;
    }
    return pool === not ? null : pool;
  };
  const newValue = (type: string, attr: string, current: StateValue | undefined): StateValue => {
    const pool = ATTRIBUTES[type]?.[attr] ?? ['?'];
    for (let i = 0; i < 5; i++) {
      const v = valueFor(pick(rng, pool), current);
      if (v !== null && v !== current) return v;
    }
    return current ?? valueFor(pick(rng, pool));
  };
  const setFact = (e: PlannedEntity, attr: string, value: StateValue, time: number, ep: string, confidence: number) => {
    const id = `fact-${world.facts.length}`;
    const previous = e.open.get(attr);
    if (previous) {
      previous.validTo = time;
      previous.supersededBy = id;
    }
    const fact: Fact = {
      id,
      entityId: e.id,
      attribute: attr,
      value,
      validFrom: time,
      validTo: null,
      supersededBy: null,
      episodeId: ep,
      recordedAt: time + DAY,
      confidence,
    };
    e.open.set(attr, fact);
    world.facts.push(fact);
  };
  const transition = (
    e: PlannedEntity,
    kind: Transition['kind'],
    from: EntityState | null,
    to: EntityState,
    summary: string,
    time: number,
    ep: string,
  ): Transition => {
    const t: Transition = {
      id: `tr-${world.transitions.length}`,
      entityId: e.id,
      kind,
      fromState: from,
      toState: to,
      summary,
      eventTime: time,
      recordedAt: time + DAY,
      confidence: 0.6 + rng() * 0.35,
      episodeId: ep,
      batchId: `day-${new Date(time).toISOString().slice(0, 10)}`,
      resolvedBy: null,
    };
    world.transitions.push(t);
    return t;
  };
  const openEdges = new Set<string>();
  const relate = (type: string, a: PlannedEntity, b: PlannedEntity, time: number, ep: string) => {
    const key = `${a.id}|${b.id}|${type}`;
    if (a === b || openEdges.has(key)) return;
    const ended = type !== 'DURING' && rng() < shape.endedRate ? time + (30 + Math.floor(rng() * 700)) * DAY : null;
    const validTo = ended !== null && ended < shape.end ? ended : null;
    if (validTo === null) openEdges.add(key);
    world.relationships.push({
      id: `rel-${world.relationships.length}`,
      type,
      sourceId: a.id,
      targetId: b.id,
      properties: type === 'WORKS_ON' && rng() < 0.2 ? { role: pick(rng, ['lead', 'contributor', 'cofounder']) } : {},
      validFrom: time,
      validTo,
      confidence: 0.6 + rng() * 0.35,
      episodeId: ep,
      recordedAt: time + DAY,
      discoveredBy: null,
    });
  };

  for (let i = 0; i < E; i++) {
    const ep = episodes[i] as PlannedEpisode;
    const id = episodeId(i);
    const mentioned = new Set<number>(births[i]);
    const want = shape.mentions[0] + Math.floor(rng() * (shape.mentions[1] - shape.mentions[0] + 1));
    for (let tries = 0; mentioned.size < want + (births[i]?.length ?? 0) && tries < 40; tries++) {
      const k = draw();
      if ((entities[k] as PlannedEntity).birthEp <= i) mentioned.add(k);
    }
    if (mentioned.size === 0) mentioned.add(0); // the first days know almost nobody yet: the user
    ep.entities = [...mentioned];
    for (const k of ep.entities) {
      const e = entities[k] as PlannedEntity;
      world.mentions.push({ entityId: e.id, episodeId: id, time: ep.time });
      e.lastSeen = ep.time;
      if (!e.created) {
        e.created = true;
        e.firstSeen = ep.time;
        e.createdFrom = id;
        const state: EntityState = {};
        for (const attr of Object.keys(ATTRIBUTES[e.type] ?? {}).slice(0, 2 + Math.floor(rng() * 2)))
          state[attr] = newValue(e.type, attr, undefined);
        for (const [attr, v] of Object.entries(state)) setFact(e, attr, v, ep.time, id, 0.8);
        const first = pick(rng, ['First mentioned', 'New', 'Came up for the first time:', 'Started tracking']);
        transition(e, 'creation', null, state, `${first} ${e.type} ${e.name}`, ep.time, id);
        const during =
          e.type === 'period' ? undefined : periods.find((p) => ep.time >= p.start && ep.time < (p.end ?? 0));
        const period = during && periodEntity.get(during.entityId);
        if (period && rng() < 0.8) relate('DURING', e, period, ep.time, id);
        continue;
      }
      if (e.type === 'period' || rng() >= shape.updateRate) continue;
      const attrs = Object.keys(ATTRIBUTES[e.type] ?? {});
      const attr = pick(rng, attrs);
      const old = e.open.get(attr)?.value ?? null;
      const pending = e.unresolved[0];
      if (pending && rng() < shape.resolveRate) {
        const [settledAttr, settled] = Object.entries(pending.toState)[0] ?? [attr, old];
        const value = newValue(e.type, settledAttr, undefined);
        setFact(e, settledAttr, value, ep.time, id, 0.9);
        const r = transition(
          e,
          'resolution',
          { [settledAttr]: settled ?? null },
          { [settledAttr]: value },
          `Settled the ${settledAttr} of ${e.name} on ${String(value)} after conflicting notes`,
          ep.time,
          id,
        );
        pending.resolvedBy = r.id;
        e.unresolved.shift();
        continue;
      }
      const value = newValue(e.type, attr, old);
      const contradiction = rng() < (CONTRADICTION_RATE[e.type] ?? 0.01);
      setFact(e, attr, value, ep.time, id, contradiction ? 0.6 : 0.85);
      const summary = contradiction
        ? `Contradicts earlier notes: ${e.name} ${attr} is now ${String(value)}, not ${String(old)}`
        : (pick(rng, CHANGE_PHRASES) + pick(rng, CHANGE_CONTEXTS))
            .replace('{E}', e.name)
            .replace('{a}', attr)
            .replace('{v}', String(value))
            .replace('{o}', String(old))
            .replace('{B}', () => (entities[pick(rng, ep.entities)] as PlannedEntity).name)
            .replace('{T}', () => topic(rng));
      const t = transition(
        e,
        contradiction ? 'contradiction' : 'update',
        { [attr]: old },
        { [attr]: value },
        summary,
        ep.time,
        id,
      );
      if (contradiction) e.unresolved.push(t);
    }
    const people = ep.entities.map((k) => entities[k] as PlannedEntity).filter((e) => e.type !== 'period');
    if (people.length >= 2 && rng() < shape.relationshipRate) {
      const a = pick(rng, people);
      const b = pick(
        rng,
        people.filter((x) => x !== a),
      );
      const [type, src, dst] = relationshipType(a, b, rng);
      relate(type, src, dst, ep.time, id);
    }
  }
  world.procedures = PROCEDURE_DOMAINS.slice(0, shape.procedures).map((domain, k) => {
    const evidence = Array.from({ length: 3 + Math.floor(rng() * 6) }, () => Math.floor(rng() * E)).sort(
      (a, b) => a - b,
    );
    return {
      id: `proc-${k}`,
      description: `When ${domain}, I ${pick(rng, ACTIONS)}, then ${pick(rng, ACTIONS)}`,
      pattern: Array.from({ length: 3 + Math.floor(rng() * 3) }, () => pick(rng, ACTIONS)),
      evidence: evidence.map(episodeId),
      timesObserved: 3 + Math.floor(rng() * rng() * 40),
      firstObserved: episodes[evidence[0] ?? 0]?.time ?? shape.start,
      lastObserved: episodes[evidence[evidence.length - 1] ?? 0]?.time ?? shape.start,
      domain,
      confidence: 0.5 + rng() * 0.45,
    };
  });
  return world;
}

function relationshipType(
  a: PlannedEntity,
  b: PlannedEntity,
  rng: () => number,
): [string, PlannedEntity, PlannedEntity] {
  const pair = (x: string, y: string) =>
    a.type === x && b.type === y ? [a, b] : b.type === x && a.type === y ? [b, a] : null;
  const rules: [string, string, string][] = [
    ['person', 'project', 'WORKS_ON'],
    ['person', 'organization', 'MEMBER_OF'],
    ['person', 'place', 'LIVES_IN'],
    ['project', 'tool', 'BUILT_WITH'],
    ['person', 'tool', 'USES'],
    ['decision', 'project', 'ABOUT'],
    ['belief', 'concept', 'ABOUT'],
  ];
  for (const [x, y, type] of rules) {
    const p = pair(x, y);
    if (p) return [type, p[0] as PlannedEntity, p[1] as PlannedEntity];
  }
  if (a.type === 'person' && b.type === 'person') return [rng() < 0.15 ? 'MENTORS' : 'COLLABORATES_WITH', a, b];
  if (a.type === 'belief' && b.type === 'belief' && rng() < 0.3) return ['CONTRADICTS', a, b];
  return [a.type === 'decision' || a.type === 'belief' ? 'ABOUT' : 'RELATED_TO', a, b];
}

/** The episode's conversation, rebuilt from its index (its text is never held in memory). */
function conversationOf(
  world: World,
  i: number,
): { conversation: Conversation; summary: string; significance: number; userState: string } {
  const rng = createRng(WORLD_SHAPE.seed * 31 + i);
  const ep = world.episodes[i] as PlannedEpisode;
  const names = ep.entities.map((k) => (world.entities[k] as PlannedEntity).name);
  const fill = (template: string): string =>
    template
      .replace(/\{A\}/g, () => pick(rng, names))
      .replace(/\{B\}/g, () => pick(rng, names))
      .replace(/\{[TU]\}/g, () => topic(rng))
      .replace(/\{[XY]\}/g, () => pick(rng, ACTIONS));
  const count = 2 + Math.floor(rng() * 5);
  const turns: Turn[] = [];
  for (let t = 0; t < count; t++) {
    const user = t % 2 === 0;
    const lines = user ? 1 + Math.floor(rng() * 2) : 2 + Math.floor(rng() * 4);
    const text = Array.from({ length: lines }, () => fill(pick(rng, user ? USER_LINES : ASSISTANT_LINES))).join(' ');
    turns.push({ role: user ? 'user' : 'assistant', text: cap(text), time: ep.time + t * 60_000 });
  }
  const title = cap(fill(pick(rng, TITLES)));
  return {
    conversation: {
      source: 'chatgpt',
      externalId: `world-${i}`,
      title,
      createdAt: ep.time,
      updatedAt: ep.time + count * 60_000,
      model: 'gpt-4o',
      turns,
    },
    summary: cap(fill(pick(rng, EPISODE_SUMMARIES))),
    significance: Math.round((0.15 + 0.8 * rng() ** 3) * 100) / 100,
    userState: pick(rng, USER_STATES),
  };
}

async function inChunks<T>(
  store: WorldStore,
  label: string,
  rows: readonly T[],
  size: number,
  write: (tx: WorldStore, row: T) => Promise<void>,
): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < rows.length; i += size) {
    await store.transaction(async (tx) => {
      for (const row of rows.slice(i, i + size)) await write(tx, row);
    });
  }
  console.log(`  ${label}: ${rows.length} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Writes a planned world into an empty store through the port, in chunked transactions. */
export async function writeWorld(store: WorldStore, world: World): Promise<void> {
  const indexes = world.episodes.map((_, i) => i);
  const started = performance.now();
  for (let i = 0; i < indexes.length; i += 2000) {
    const chunk = indexes.slice(i, i + 2000);
    await store.transaction(async (tx) => {
      for (const k of chunk) {
        const c = conversationOf(world, k);
        const recordedAt = c.conversation.createdAt + 3_600_000;
        await tx.episodes.upsert({ conversation: c.conversation, contentHash: `${WORLD_VERSION}:${k}`, recordedAt });
        await tx.episodes.annotate({
          id: episodeId(k),
          summary: c.summary,
          significance: c.significance,
          userState: c.userState,
        });
      }
      await tx.episodes.setExtraction({ ids: chunk.map(episodeId), status: 'extracted' });
    });
  }
  console.log(`  episodes: ${indexes.length} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await inChunks(store, 'entities', world.entities, 5000, async (tx, e) => {
    const state: EntityState = {};
    for (const [attr, fact] of e.open) state[attr] = fact.value;
    await tx.entities.insert({
      id: e.id,
      type: e.type,
      name: e.name,
      normalizedName: normalizeName(e.name),
      state,
      firstSeen: e.firstSeen,
      lastSeen: e.lastSeen,
      createdFrom: e.createdFrom,
      recordedAt: e.firstSeen + DAY,
      importance: e.importance,
    });
    for (const alias of e.aliases)
      await tx.entities.addAlias({
        entityId: e.id,
        alias,
        normalized: normalizeName(alias),
        recordedAt: e.firstSeen + DAY,
      });
  });
  await inChunks(store, 'periods', world.periods, 5000, (tx, p) => tx.periods.upsert(p));
  await inChunks(store, 'transitions', world.transitions, 5000, (tx, t) => tx.transitions.insert(t));
  await inChunks(store, 'facts', world.facts, 5000, (tx, f) => tx.facts.insert(f));
  await inChunks(store, 'relationships', world.relationships, 5000, (tx, r) => tx.relationships.insert(r));
  await inChunks(store, 'mentions', world.mentions, 5000, (tx, m) => tx.mentions.add(m));
  await inChunks(store, 'procedures', world.procedures, 5000, (tx, p) => tx.procedures.upsert(p));
}

function busiest(world: World): { transitions: number; relationships: number } {
  const transitions = new Map<string, number>();
  for (const t of world.transitions) transitions.set(t.entityId, (transitions.get(t.entityId) ?? 0) + 1);
  const periods = new Set(world.periods.map((p) => p.entityId));
  const edges = new Map<string, number>();
  for (const r of world.relationships) {
    for (const id of [r.sourceId, r.targetId]) if (!periods.has(id)) edges.set(id, (edges.get(id) ?? 0) + 1);
  }
  return { transitions: Math.max(...transitions.values()), relationships: Math.max(...edges.values()) };
}

export interface WorldFile {
  path: string;
  version: string;
  stats: WorldStats;
  generationMs: number;
  /** The machine's 1-minute load average when generation finished (the time depends on it). */
  generationLoad?: number;
  /** Counts the store's stats do not give. */
  planned: {
    mentions: number;
    contradictions: number;
    resolved: number;
    endedRelationships: number;
    /** The most transitions of one entity, and the most relationships of one entity that is not a period. */
    busiest: { transitions: number; relationships: number };
  };
  /** False when a cached database was reused. */
  generated: boolean;
}

/**
 * The world's database, cached under `dir` (default .bench-tmp/) keyed by WORLD_VERSION and the schema version
 * (generated when missing or when `regenerate`). A sidecar JSON keeps its counts and how long it took to generate.
 */
export async function ensureWorld(input: { regenerate?: boolean; dir?: string } = {}): Promise<WorldFile> {
  const dir = input.dir ?? BENCH_TMP;
  mkdirSync(dir, { recursive: true });
  const version = `${WORLD_VERSION}-schema${LATEST_SCHEMA_VERSION}`;
  const path = join(dir, `${version}.db`);
  const sidecar = `${path}.json`;
  if (!input.regenerate && existsSync(path) && existsSync(sidecar)) {
    const saved = JSON.parse(readFileSync(sidecar, 'utf8')) as Omit<WorldFile, 'generated'>;
    return { ...saved, generated: false };
  }
  console.log(`Generating the synthetic world (${version})…`);
  const started = performance.now();
  const world = planWorld();
  console.log(`  planned in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Written under a temporary name first, so an interrupted run never leaves a partial world behind.
  const partial = `${path}.partial`;
  removeDb({ db: partial });
  const store = await openSqliteStore({ path: partial });
  try {
    await writeWorld(store, world);
  } finally {
    await store.close();
  }
  const check = await openSqliteStore({ path: partial, readonly: true });
  const stats = await check.stats();
  await check.close();
  removeDb({ db: path });
  renameSync(partial, path);
  removeDb({ db: partial });
  const contradictions = world.transitions.filter((t) => t.kind === 'contradiction');
  const planned = {
    mentions: world.mentions.length,
    contradictions: contradictions.length,
    resolved: contradictions.filter((t) => t.resolvedBy !== null).length,
    endedRelationships: world.relationships.filter((r) => r.validTo !== null).length,
    busiest: busiest(world),
  };
  const generationLoad = loadavg()[0] ?? 0;
  const file = { path, version, stats, generationMs: performance.now() - started, generationLoad, planned };
  writeFileSync(sidecar, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`  done in ${(file.generationMs / 1000).toFixed(1)} s`);
  return { ...file, generated: true };
}
