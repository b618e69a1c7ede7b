import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openSqliteStore } from '../src/adapters/store/sqlite/index.js';
import type { Entity, WorldStats } from '../src/domain/world.js';
import type { WorldStore } from '../src/ports/world-store.js';
import { createTiktokenTokenizer } from '../src/adapters/tokenizer/tiktoken.js';
import type { Tokenizer } from '../src/ports/tokenizer.js';
import { asksWhatAssistantSaid, buildQueryContext, DEFAULT_CONTEXT_TOKENS } from '../src/query/ask.js';
import { compileQueryContext, worldCitations } from '../src/query/compile-query.js';
import { evidencePool, rankEvidence } from '../src/query/evidence.js';
import { graphLane } from '../src/query/lanes/graph.js';
import { lexicalLane } from '../src/query/lanes/lexical.js';
import { recentLane } from '../src/query/lanes/recent.js';
import { temporalLane } from '../src/query/lanes/temporal.js';
import { planQuery } from '../src/query/plan.js';
import { PRESETS } from '../src/query/presets.js';
import { retrieve } from '../src/query/retrieve.js';
import { buildSubgraph } from '../src/query/subgraph/index.js';
import type { Intent, LaneResult } from '../src/query/types.js';
import { WORLD_NOW, ensureWorld, type WorldFile } from './generate/world.js';
import { machineLine, mdTable, writeSection } from './report.js';

export interface Question {
  text: string;
  /** The intent the question is written for (the rules decide; a mismatch is reported). */
  expected: Intent;
  /** Its time reference, for the report ("none", "season", "two periods" …). */
  time: string;
}

export interface Run {
  question: Question;
  ms: number;
  /** CPU time of the process meanwhile (user + system): close to the wall time on an idle machine. */
  cpuMs: number;
  intent: Intent;
  chars: number;
  named: number;
}

const DAY = 86_400_000;
const WARM_UP = 3;

/** CPU time of this process so far (user + system), in milliseconds: on a shared, loaded machine it does not count
 * the time spent waiting for a core, which wall time does. */
function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * The fixed question set, with names drawn from the world itself (by importance: hubs and a few from the long
 * tail), so it also runs against any other database (`--db`). Every intent and every shape of time reference, and
 * the two shapes of an interval question (docs/query.md, the "Time between/since" line).
 */
export async function questionsFor(store: WorldStore): Promise<Question[]> {
  const names = async (type: string, offsets: number[]): Promise<string[]> => {
    const out: string[] = [];
    for (const offset of offsets) {
      const [e] = await store.entities.list({ type, offset, limit: 1 });
      if (e) out.push(e.name);
    }
    return out;
  };
  const [p0, p1, p2, pTail] = await names('project', [0, 1, 2, 400]);
  const [h0, h1, h2, hTail] = await names('person', [1, 2, 3, 1500]);
  const [t0, t1, t2] = await names('tool', [0, 1, 2]);
  const [c0, c1, cTail] = await names('concept', [0, 1, 900]);
  const [b0, b1] = await names('belief', [0, 1]);
  const [o0, o1] = await names('organization', [0, 1]);
  const [pl0, plTail] = await names('place', [0, 300]);
  const periods = (await store.periods.list()).map((p) => p.name);
  const domains = (await store.procedures.list()).flatMap((p) => (p.domain ? [p.domain] : []));
  const open = await store.transitions.list({ unresolved: true, order: 'desc', limit: 500 });
  const contradicted = (await store.entities.getMany([...new Set(open.map((t) => t.entityId))])).find(
    (e: Entity) => e.type === 'project',
  )?.name;
  const q = (expected: Intent, time: string, text: string | false | undefined): Question[] =>
    text ? [{ text, expected, time }] : [];
  const at = (i: number): string | undefined => periods[i % Math.max(1, periods.length)];
  return [
    ...q('temporal_diff', 'none', c0 && `How has my thinking about ${c0} evolved?`),
    ...q('temporal_diff', 'none', b0 && `How has my view that ${b0} changed?`),
    ...q('temporal_diff', 'two periods', periods.length > 3 && `What changed between ${at(2)} and ${at(7)}?`),
    ...q(
      'temporal_diff',
      'two periods',
      p1 && periods.length > 9 && `What changed in ${p1} between ${at(7)} and ${at(10)}?`,
    ),
    ...q('temporal_diff', 'none', pTail && `How did ${pTail} develop over time?`),
    ...q(
      'temporal_diff',
      'since (part of a year)',
      cTail && `How has my thinking about ${cTail} evolved since early 2024?`,
    ),
    ...q('current_state', 'none', p0 && `What is the current state of ${p0}?`),
    ...q('current_state', 'none', p2 && `What is the current state of ${p2}?`),
    ...q('current_state', 'none', pTail && `What is the current state of ${pTail}?`),
    ...q('current_state', 'none', h0 && `What is ${h0} working on right now?`),
    ...q('current_state', 'none', o0 && `What's the latest on ${o0}?`),
    ...q('current_state', 'none', t0 && `Am I still using ${t0}?`),
    ...q('entity_lookup', 'none', h0 && `Who is ${h0}?`),
    ...q('entity_lookup', 'none', h2 && `Who is ${h2}?`),
    ...q('entity_lookup', 'none', hTail && `Who is ${hTail}?`),
    ...q('entity_lookup', 'none', t1 && `What is ${t1}?`),
    ...q('entity_lookup', 'none', o1 && `Tell me about ${o1}`),
    ...q('procedural', 'none', domains[0] && `How do I usually approach ${domains[0]}?`),
    ...q('procedural', 'none', domains[1] && `How do I usually approach ${domains[1]}?`),
    ...q('procedural', 'none', domains[2] && `What is my usual workflow for ${domains[2]}?`),
    ...q('procedural', 'none', 'How do I usually approach a new project?'),
    ...q('relationship', 'none', h0 && t1 && `How is ${h0} connected to ${t1}?`),
    ...q('relationship', 'none', hTail && p0 && `How is ${hTail} connected to ${p0}?`),
    ...q('relationship', 'none', pTail && cTail && `How is ${pTail} connected to ${cTail}?`),
    ...q('relationship', 'none', h1 && h2 && `How is ${h1} related to ${h2}?`),
    ...q('relationship', 'none', pl0 && o0 && `How is ${pl0} connected to ${o0}?`),
    ...q('contradiction', 'none', contradicted && `What contradictions are there about ${contradicted}?`),
    ...q('contradiction', 'none', p0 && `What contradictions are there about ${p0}?`),
    ...q('contradiction', 'none', 'What contradictions are there in my beliefs?'),
    ...q('contradiction', 'none', b1 && `Where did I change my mind about ${b1}?`),
    ...q('general', 'season', 'What did I work on last spring?'),
    ...q('general', 'month', 'What happened in March 2024?'),
    ...q('general', 'period', periods.length > 0 && `What was I doing during ${at(9)}?`),
    ...q('general', 'season (before last)', 'What did I do the summer before last?'),
    ...q('general', 'part of a year', 'What was I focused on in early 2023?'),
    ...q('general', 'relative', 'What did I talk about 3 weeks ago?'),
    ...q('general', 'vague', 'What have I been up to recently?'),
    ...q('general', 'date', 'What did I write on 14 February 2024?'),
    ...q('general', 'interval (two ends)', p0 && t0 && `How many days passed between ${p0} and ${t0}?`),
    ...q('general', 'interval (since)', pTail && `How many days ago did I start ${pTail}?`),
    ...q('general', 'none', c1 && t2 && `${c1} and ${t2}`),
    ...q('general', 'none', 'notes about the onboarding flow'),
    ...q('general', 'none', p1 && `ideas for the pricing page of ${p1}`),
    ...q('general', 'none', plTail && `anything about ${plTail}`),
  ];
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

// ---------------------------------------------------------------- where the time goes

interface Tally {
  calls: number;
  ms: number;
  max: number;
}

const REPOS = new Set([
  'episodes',
  'entities',
  'transitions',
  'facts',
  'relationships',
  'mentions',
  'periods',
  'procedures',
  'search',
  'embeddings',
]);

/**
 * The store with every repository call timed, under the stage running at the time. better-sqlite3 is synchronous
 * and the adapter runs an operation at once when no transaction is open, so the synchronous part of a call is its
 * whole database time.
 */
function timedStore(store: WorldStore, stage: () => string, tallies: Map<string, Tally>): WorldStore {
  const wrapped = new Map<string, object>();
  const wrapRepo = (repo: object, repoName: string): object =>
    new Proxy(repo, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop);
        if (typeof value !== 'function' || typeof prop !== 'string') return value;
        return (...args: unknown[]): unknown => {
          const started = cpuNow();
          const result: unknown = value.apply(target, args);
          const took = cpuNow() - started;
          const key = `${stage()}\t${repoName}.${prop}`;
          const t = tallies.get(key) ?? { calls: 0, ms: 0, max: 0 };
          tallies.set(key, { calls: t.calls + 1, ms: t.ms + took, max: Math.max(t.max, took) });
          return result;
        };
      },
    });
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof prop === 'string' && REPOS.has(prop) && typeof value === 'object' && value !== null) {
        const cached = wrapped.get(prop) ?? wrapRepo(value, prop);
        wrapped.set(prop, cached);
        return cached;
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const STAGES = ['plan', 'retrieve', 'subgraph', 'evidence', 'compile', 'access'] as const;
const LANES = ['lane recent', 'lane temporal', 'lane lexical', 'lane graph'] as const;

/**
 * One pass over the questions with each stage of buildQueryContext run and timed on its own (the same calls in the
 * same order as src/query/ask.ts), plus each lane run again alone to see which one costs what.
 */
async function profile(input: {
  store: WorldStore;
  questions: readonly Question[];
  now: number;
  tokenizer: Tokenizer;
}): Promise<{
  stages: Map<string, number[]>;
  tallies: Map<string, Tally>;
}> {
  let stage = 'plan';
  const tallies = new Map<string, Tally>();
  const store = timedStore(input.store, () => stage, tallies);
  const stages = new Map<string, number[]>();
  const time = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    stage = name;
    const started = cpuNow();
    const value = await fn();
    stages.set(name, [...(stages.get(name) ?? []), cpuNow() - started]);
    return value;
  };
  const { now } = input;
  for (const { text: question } of input.questions) {
    const periods = await time('plan', () => store.periods.list());
    const plan = await time('plan', () =>
      planQuery({ store, question, now, tz: 'UTC', periods, format: 'auto', client: null }),
    );
    const preset = PRESETS[plan.intent];
    const base = { store, plan, now, embedder: undefined };
    const first: LaneResult[] = [
      await time('lane recent', () => recentLane({ ...base, settings: preset.lanes.recent })),
      await time('lane temporal', () => temporalLane({ ...base, settings: preset.lanes.temporal })),
      await time('lane lexical', () => lexicalLane({ ...base, settings: preset.lanes.lexical })),
    ];
    const found = first.flatMap((l) => l.hits.flatMap((h) => (h.ref.kind === 'entity' ? [h.ref.id] : [])));
    const seeds = (plan.entityIds.length > 0 ? plan.entityIds : [...new Set(found)]).slice(0, preset.graph.seeds);
    await time('lane graph', () =>
      graphLane({ ...base, settings: preset.lanes.graph, seeds, perSeed: preset.graph.perSeed }),
    );
    const retrieval = await time('retrieve', () => retrieve({ store, plan, preset, now, embedder: undefined }));
    const subgraph = await time('subgraph', () => buildSubgraph({ store, plan, items: retrieval.items }));
    const assistantWanted = asksWhatAssistantSaid(question);
    const evidence = await time('evidence', () =>
      rankEvidence({
        store,
        plan,
        items: retrieval.items,
        cited: worldCitations(subgraph),
        assistantWanted,
        pool: evidencePool(DEFAULT_CONTEXT_TOKENS),
        now,
      }),
    );
    await time('compile', () =>
      compileQueryContext({
        store,
        plan,
        subgraph,
        evidence,
        periods,
        now,
        tz: 'UTC',
        maxTokens: DEFAULT_CONTEXT_TOKENS,
        tokenizer: input.tokenizer,
        assistantWanted,
      }),
    );
    await time('access', () => store.entities.incrementAccess(subgraph.entities.map((b) => b.entity.id)));
  }
  return { stages, tallies };
}

// ---------------------------------------------------------------- the benchmark

/**
 * The context the benchmarks build for a question: rules instead of a model, no embedder, `format: auto`, UTC.
 * `recordAccess` as `pie serve` does (true) or as a read-only comparison needs (false).
 */
export function benchContext(input: {
  store: WorldStore;
  question: string;
  now: number;
  tokenizer: Tokenizer;
  recordAccess: boolean;
}): ReturnType<typeof buildQueryContext> {
  return buildQueryContext({
    store: input.store,
    question: input.question,
    now: input.now,
    tz: 'UTC',
    format: 'auto',
    client: null,
    embedder: undefined,
    recordAccess: input.recordAccess,
    tokenizer: input.tokenizer,
  });
}

/**
 * The timed part: WARM_UP questions untimed, then `total` calls of `buildQueryContext` in turn over the questions,
 * each with its wall and CPU time (the store open read-write, access recorded, rules instead of a model).
 */
export async function timeQuestions(input: {
  store: WorldStore;
  questions: readonly Question[];
  now: number;
  total: number;
  tokenizer: Tokenizer;
}): Promise<Run[]> {
  const { store, questions, now, tokenizer } = input;
  const ask = (question: Question) =>
    benchContext({ store, question: question.text, now, tokenizer, recordAccess: true });
  for (const question of questions.slice(0, WARM_UP)) await ask(question);
  const runs: Run[] = [];
  for (let i = 0; i < input.total; i++) {
    const question = questions[i % questions.length] as Question;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const context = await ask(question);
    const took = performance.now() - started;
    const used = process.cpuUsage(cpu);
    runs.push({
      question,
      ms: took,
      cpuMs: (used.user + used.system) / 1000,
      intent: context.plan.intent,
      chars: context.text.length,
      named: context.plan.entityIds.length,
    });
  }
  return runs;
}

function worldTable(world: WorldFile | null, stats: WorldStats, dbMb: number): string {
  const types = Object.entries(stats.entitiesByType)
    .sort((a, b) => b[1] - a[1])
    .map(([t, n]) => `${n} ${t}`)
    .join(', ');
  const p = world?.planned;
  return (
    mdTable(
      [
        'episodes',
        'turns',
        'entities',
        'transitions',
        'facts (current)',
        'relationships',
        'mentions',
        'procedures',
        'DB MB',
      ],
      [
        [
          String(stats.episodes),
          String(stats.turns),
          String(stats.entities),
          p
            ? `${stats.transitions} (${p.contradictions} contradictions, ${p.resolved} resolved)`
            : String(stats.transitions),
          `${stats.facts} (${stats.currentFacts})`,
          p ? `${stats.relationships} (${p.endedRelationships} ended)` : String(stats.relationships),
          p ? String(p.mentions) : '—',
          String(stats.procedures),
          dbMb.toFixed(0),
        ],
      ],
    ) +
    `\n\nEntities by type: ${types}.` +
    (p
      ? ` Popularity is skewed: the busiest entity has ${p.busiest.transitions} transitions, the most connected ` +
        `one (periods aside) ${p.busiest.relationships} relationships; each period collects the DURING edges of ` +
        'the entities first seen in it (up to a few thousand).'
      : '')
  );
}

/**
 * `npm run bench -- query [--questions N] [--db path] [--regenerate]`: the time to build the context for a
 * question (plan, retrieval lanes, subgraph, compiled context; no model) on the synthetic world of
 * bench/generate/world.ts, or on any database with `--db`. Target: p95 ≤ 100 ms.
 */
export async function benchQuery(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(3),
    options: {
      questions: { type: 'string' },
      db: { type: 'string' },
      regenerate: { type: 'boolean', default: false },
    },
  });
  const world = values.db ? null : await ensureWorld({ regenerate: values.regenerate });
  const loadAtStart = loadavg()[0] ?? 0;
  const path = values.db ?? (world as WorldFile).path;
  const store = await openSqliteStore({ path });
  const tokenizer = createTiktokenTokenizer();
  try {
    const stats = await store.stats();
    const now = values.db ? (stats.lastEpisodeAt ?? Date.now()) + DAY : WORLD_NOW;
    const questions = await questionsFor(store);
    const total = values.questions ? Number(values.questions) : questions.length * 3;
    if (!Number.isInteger(total) || total < 1) throw new Error(`--questions wants a positive whole number`);
    const runs = await timeQuestions({ store, questions, now, total, tokenizer });
    const peakRssMb = process.resourceUsage().maxRSS / 1024;
    console.log('Profiling each stage (one more pass)…');
    const { stages, tallies } = await profile({ store, questions, now, tokenizer });
    const report = summarize({ runs, questions, stages, tallies });
    console.log(report.console);
    const args = process.argv.slice(3);
    const command = `npm run bench -- query${args.length > 0 ? ` ${args.join(' ')}` : ''}`;
    const p95 = percentile(
      runs.map((r) => r.ms),
      95,
    );
    const cpu95 = percentile(
      runs.map((r) => r.cpuMs),
      95,
    );
    writeSection({
      name: 'query',
      markdown: [
        '## Query context at scale (no model)',
        '',
        `Command: \`${command}\`. ${machineLine()} (${loadAtStart.toFixed(1)} when the run started).`,
        '',
        world
          ? `World: synthetic, from bench/generate/world.ts (${world.version}; seeded, four years of history from ` +
            `January 2022 to December 2025, "now" is 12 January 2026), written through the storage port in ` +
            `${(world.generationMs / 1000).toFixed(0)} s` +
            (world.generationLoad === undefined
              ? ''
              : ` (1-minute load average ${world.generationLoad.toFixed(1)} when it finished)`) +
            ' and cached under .bench-tmp/ (`--regenerate` rebuilds it).'
          : `World: the database at ${path}.`,
        ...(world
          ? [
              '',
              'The conversation text is templated from a small vocabulary (topics, actions and the names of the ' +
                'entities an episode mentions), so common words reach more rows of the full-text indexes than in ' +
                'real text (words such as "week" or "notes" are in about a fifth of all turns): the lexical lane is ' +
                'measured on the pessimistic side.',
            ]
          : []),
        '',
        worldTable(world, stats, statSync(path).size / 1e6),
        '',
        `Method: ${questions.length} fixed questions with names drawn from the world (hubs and long-tail entities, ` +
          `every intent and shape of time reference); ${WARM_UP} warm-up questions, then ${runs.length} timed ` +
          'calls of `buildQueryContext` (src/query/ask.ts) in turn, in one process with the store open read-write ' +
          '(as `pie serve` keeps it; `recordAccess: true`, rules instead of a model, no embedder, `format: auto`, ' +
          `UTC). The database file is in the OS page cache. Peak RSS is the process's maxRSS` +
          `${world?.generated ? ' (it includes generating the world in the same run)' : ''}. ` +
          'Everything runs on one thread (better-sqlite3 is synchronous), so the CPU time of a question is about ' +
          'its wall time on an idle machine; on a busy one the wall time also counts waiting for a core (see the ' +
          'load averages above).',
        '',
        report.markdown,
        '',
        `Target (issue): p95 ≤ 100 ms: ${p95 <= 100 ? 'met' : 'not met'} (${ms(p95)} ms wall, ${ms(cpu95)} ms CPU ` +
          'over all questions). ' +
          `Peak RSS ${peakRssMb.toFixed(0)} MB.`,
      ].join('\n'),
    });
  } finally {
    await store.close();
  }
}

function summarize(input: {
  runs: readonly Run[];
  questions: readonly Question[];
  stages: Map<string, number[]>;
  tallies: Map<string, Tally>;
}): { markdown: string; console: string } {
  const { runs, questions } = input;
  const times = (rs: readonly Run[]) => rs.map((r) => r.ms);
  const row = (label: string, rs: readonly Run[], distinct: number): string[] => [
    label,
    String(distinct),
    String(rs.length),
    ms(percentile(times(rs), 50)),
    ms(percentile(times(rs), 95)),
    ms(Math.max(...times(rs))),
    ms(
      percentile(
        rs.map((r) => r.cpuMs),
        50,
      ),
    ),
    ms(
      percentile(
        rs.map((r) => r.cpuMs),
        95,
      ),
    ),
    String(
      percentile(
        rs.map((r) => r.chars),
        50,
      ),
    ),
  ];
  const intents = [...new Set(runs.map((r) => r.intent))].sort();
  const byIntent = intents.map((intent) => {
    const rs = runs.filter((r) => r.intent === intent);
    return row(`\`${intent}\``, rs, new Set(rs.map((r) => r.question.text)).size);
  });
  const header = [
    'intent (as planned)',
    'questions',
    'runs',
    'p50 ms',
    'p95 ms',
    'max ms',
    'p50 CPU ms',
    'p95 CPU ms',
    'median context chars',
  ];
  const latency = mdTable(header, [row('**all**', runs, questions.length), ...byIntent]);

  const perQuestion = questions.map((q) => {
    const rs = runs.filter((r) => r.question === q);
    const first = rs[0];
    return [
      q.text.replace(/\|/g, '\\|'),
      first ? `\`${first.intent}\`${first.intent === q.expected ? '' : ` (written for \`${q.expected}\`)`}` : '—',
      q.time,
      first ? String(first.named) : '—',
      rs.length > 0 ? ms(percentile(times(rs), 50)) : '—',
      rs.length > 0
        ? ms(
            percentile(
              rs.map((r) => r.cpuMs),
              50,
            ),
          )
        : '—',
      first ? String(first.chars) : '—',
    ];
  });
  const questionTable = mdTable(
    ['question', 'intent', 'time reference', 'named', 'p50 ms', 'p50 CPU ms', 'context chars'],
    perQuestion,
  );

  const n = questions.length;
  const stageRows = [...STAGES, ...LANES].map((name) => {
    const v = input.stages.get(name) ?? [];
    const mean = v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
    return [name, ms(mean), ms(percentile(v, 50)), ms(percentile(v, 95)), ms(Math.max(0, ...v))];
  });
  const stageTable = mdTable(['stage', 'mean CPU ms', 'p50 CPU ms', 'p95 CPU ms', 'max CPU ms'], stageRows);
  const hot = [...input.tallies.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 12)
    .map(([key, t]) => {
      const [stage, method] = key.split('\t');
      return [`\`${method ?? key}\``, stage ?? '', (t.calls / n).toFixed(1), ms(t.ms / n), ms(t.max)];
    });
  const hotTable = mdTable(
    ['store call', 'stage', 'calls a question', 'CPU ms a question', 'slowest call CPU ms'],
    hot,
  );
  const markdown = [
    latency,
    '',
    '### Where the time goes',
    '',
    `One more pass over the ${n} questions with each stage of \`buildQueryContext\` run on its own (same calls, same ` +
      'order), each lane of the first retrieval step run once more alone (the "lane" rows; `retrieve` runs them ' +
      'together, so they are part of it, not added to it), and every storage call timed (better-sqlite3 is ' +
      'synchronous: a call’s own time is its database time). These figures are CPU time of the process ' +
      '(user + system), so waiting for a core on a loaded machine does not count.',
    '',
    stageTable,
    '',
    'Slowest storage calls (summed over the pass, per question):',
    '',
    hotTable,
    '',
    '### Questions',
    '',
    questionTable,
  ].join('\n');
  const consoleText = [latency, '', stageTable, '', hotTable, '', questionTable].join('\n');
  return { markdown, console: consoleText };
}
