import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createTiktokenTokenizer } from '../../src/adapters/tokenizer/tiktoken.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { WORLD_NOW, ensureWorld } from '../generate/world.js';
import { benchContext, percentile, questionsFor, timeQuestions, type Question, type Run } from '../query.js';
import { machineLine, mdTable, writeSection } from '../report.js';
import { benchServer } from './server.js';
import { copiedWorld, settleSchema } from './world.js';

const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

function row(label: string, runs: readonly Run[]): string[] {
  const wall = runs.map((r) => r.ms);
  const cpu = runs.map((r) => r.cpuMs);
  return [
    label,
    String(runs.length),
    ms(percentile(wall, 50)),
    ms(percentile(wall, 95)),
    ms(Math.max(...wall)),
    ms(percentile(cpu, 50)),
    ms(percentile(cpu, 95)),
  ];
}

/** How many questions get the same compiled text from both stores (ranking ties and text search may differ). */
async function sameContexts(input: {
  sqlite: WorldStore;
  postgres: WorldStore;
  questions: readonly Question[];
  now: number;
}): Promise<number> {
  const tokenizer = createTiktokenTokenizer();
  let same = 0;
  for (const q of input.questions) {
    const text = async (store: WorldStore) =>
      (await benchContext({ store, question: q.text, now: input.now, tokenizer, recordAccess: false })).text;
    if ((await text(input.sqlite)) === (await text(input.postgres))) same += 1;
  }
  return same;
}

/**
 * `npm run bench -- query --store postgres [--pg-url URL] [--questions N]`: the query benchmark's timed loop on the
 * 20k-entity synthetic world in SQLite and, in the same run, on the same world copied into PostgreSQL.
 * Target (#18): p95 ≤ 150 ms on PostgreSQL.
 */
export async function benchQueryPostgres(input: { pgUrl: string | undefined; args: string[] }): Promise<void> {
  const { values } = parseArgs({ args: input.args, options: { questions: { type: 'string' } } });
  const world = await ensureWorld({ regenerate: false });
  const server = await benchServer({ url: input.pgUrl });
  const loadAtStart = loadavg()[0] ?? 0;
  const copied = await copiedWorld({ path: world.path, url: server.url, schema: 'bench_query' });
  const { sqlite, postgres } = copied;
  try {
    console.log('VACUUM (ANALYZE) of the copy…');
    const settleMs = await settleSchema({ url: server.url, schema: 'bench_query' });
    const stats = await postgres.stats();
    const questions = await questionsFor(sqlite);
    const total = values.questions ? Number(values.questions) : questions.length * 3;
    if (!Number.isInteger(total) || total < 1) throw new Error('--questions wants a positive whole number');
    const same = await sameContexts({ sqlite, postgres, questions, now: WORLD_NOW });
    const tokenizer = createTiktokenTokenizer();
    const runs: Record<'sqlite' | 'postgres', Run[]> = { sqlite: [], postgres: [] };
    for (const [name, store] of [
      ['sqlite', sqlite],
      ['postgres', postgres],
    ] as const) {
      console.log(`${name}: ${total} questions…`);
      runs[name] = await timeQuestions({ store, questions, now: WORLD_NOW, total, tokenizer });
      console.log(
        `  p95 ${ms(
          percentile(
            runs[name].map((r) => r.ms),
            95,
          ),
        )} ms`,
      );
    }
    const p95 = percentile(
      runs.postgres.map((r) => r.ms),
      95,
    );
    const args = ['--store', 'postgres', ...input.args];
    writeSection({
      name: 'query-postgres',
      markdown: [
        '## Query context at scale: PostgreSQL beside SQLite',
        '',
        `Command: \`npm run bench -- query ${args.join(' ')}\`. ${machineLine()} (${loadAtStart.toFixed(1)} when ` +
          `the run started). Server: ${server.label}.`,
        '',
        `World: the query benchmark's synthetic world (${stats.entities.toLocaleString('en-US')} entities, ` +
          `${stats.transitions.toLocaleString('en-US')} transitions, ${stats.relationships.toLocaleString('en-US')} ` +
          `relationships, ${stats.episodes.toLocaleString('en-US')} episodes), copied from its SQLite file into a ` +
          `fresh PostgreSQL schema with \`pie migrate-store\`'s code (${copied.rows.toLocaleString('en-US')} rows, ` +
          `checksums equal on both sides, ${(copied.copyMs / 1000).toFixed(0)} s), then \`VACUUM (ANALYZE)\` of its ` +
          `tables (${(settleMs / 1000).toFixed(0)} s), as after any bulk load, so the timed loop reads a settled ` +
          "table (statistics, visibility map) instead of racing autovacuum's first pass over the new rows.",
        '',
        `Method: the same ${questions.length} questions and timed loop as the SQLite query benchmark above ` +
          `(\`timeQuestions\` in bench/query.ts: 3 warm-up questions, then ${total} calls of \`buildQueryContext\`, ` +
          'access recorded), first on SQLite, then on PostgreSQL, in one process. On PostgreSQL the CPU column is ' +
          "PIE's own process only: the server's work runs in its own processes on the same 2 cores, so wall time " +
          'is the figure to read.',
        '',
        mdTable(
          ['store', 'calls', 'p50 ms', 'p95 ms', 'max ms', 'CPU p50 ms', 'CPU p95 ms'],
          [row('SQLite', runs.sqlite), row('PostgreSQL', runs.postgres)],
        ),
        '',
        `Same compiled context from both stores for ${same} of ${questions.length} questions (access not recorded ` +
          'for this check); the rest differ where full-text ranking differs (FTS5 bm25 against ts_rank) or ties ' +
          'break differently, as the store contract allows.',
        '',
        `Target (#18): p95 ≤ 150 ms on PostgreSQL: ${p95 <= 150 ? 'met' : 'NOT met'} (${ms(p95)} ms).`,
      ].join('\n'),
    });
  } finally {
    await sqlite.close();
    await postgres.close();
    await server.stop();
  }
}
