import { z } from 'zod';
import { PERSONAL_KINDS, type PersonalKind } from '../../ports/personal-bench-store.js';
import { MetricTable } from '../metrics.js';

/**
 * What a run of the personal benchmark stores (personal_bench_runs.figures): per question its scores (no question
 * text), and what the run was measured on — the world's size, the source revision, the model — so a later run can
 * say what changed in between. Read back through the schema; a record it does not know is not compared.
 */

const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number(),
  cachedCalls: z.number(),
  calls: z.number(),
});

export const recordSchema = z.object({
  id: z.string(),
  kind: z.enum(PERSONAL_KINDS),
  status: z.enum(['scored', 'stale', 'failed']),
  reason: z.string().optional(),
  pie: z.record(z.string(), z.number()).optional(),
  bm25: z.record(z.string(), z.number()).optional(),
  qa: z.object({ pie: z.boolean(), naive_rag: z.boolean() }).optional(),
});
export type QuestionRecord = z.infer<typeof recordSchema>;

export const figuresSchema = z.object({
  version: z.literal(1),
  ks: z.array(z.number()),
  /** The reference "now" questions were asked at. */
  now: z.number(),
  revision: z.string(),
  /** The answering and judging model, or null (retrieval only). */
  model: z.string().nullable(),
  /** The judging model (the answering one unless --judge named another). */
  judge: z.string().nullable().optional(),
  /** Counts of the world when the run was made (episodes, turns, entities, transitions, …). */
  world: z.record(z.string(), z.number()),
  seconds: z.number(),
  usage: z.object({ pie: usageSchema, naive_rag: usageSchema }).optional(),
  records: z.array(recordSchema),
});
export type RunFigures = z.infer<typeof figuresSchema>;

export const SYSTEMS = ['bm25', 'pie'] as const;
export const ALL = 'all';

/** The metrics of answerable questions, per kind and over all of them; abstention apart; accuracy with a model. */
export interface RunTables {
  retrieval: MetricTable;
  abstention: MetricTable;
  qa: MetricTable | null;
}

export function runTables(records: readonly QuestionRecord[]): RunTables {
  const retrieval = new MetricTable();
  retrieval.declare([...PERSONAL_KINDS.filter((k) => k !== 'abstention'), ALL]);
  const abstention = new MetricTable();
  const qa = new MetricTable();
  qa.declare([...PERSONAL_KINDS, ALL]);
  let judged = 0;
  for (const r of records) {
    if (r.status !== 'scored') continue;
    const table = r.kind === 'abstention' ? abstention : retrieval;
    const groups = r.kind === 'abstention' ? [r.kind] : [r.kind, ALL];
    for (const group of groups) {
      for (const system of SYSTEMS) {
        const metrics = r[system];
        if (metrics) table.add(group, system, metrics);
      }
    }
    if (r.qa) {
      judged += 1;
      for (const group of [r.kind, ALL]) {
        qa.add(group, 'pie', { accuracy: r.qa.pie ? 1 : 0 });
        qa.add(group, 'naive_rag', { accuracy: r.qa.naive_rag ? 1 : 0 });
      }
    }
  }
  return { retrieval, abstention, qa: judged > 0 ? qa : null };
}

export function retrievalMetrics(ks: readonly number[]): string[] {
  return [...ks.map((k) => `recall@${k}`), 'in_context'];
}

export function abstentionMetricNames(ks: readonly number[]): string[] {
  return [...ks.map((k) => `clear@${k}`), 'clear_context'];
}

/** The questions both runs scored: the same questions compared, whatever --limit each run had. */
export function commonRecords(a: RunFigures, b: RunFigures): { before: QuestionRecord[]; after: QuestionRecord[] } {
  const scored = (f: RunFigures) => new Map(f.records.filter((r) => r.status === 'scored').map((r) => [r.id, r]));
  const x = scored(a);
  const y = scored(b);
  const ids = [...y.keys()].filter((id) => x.has(id));
  return {
    before: ids.map((id) => x.get(id) as QuestionRecord),
    after: ids.map((id) => y.get(id) as QuestionRecord),
  };
}

export const kindGroups = (): readonly (PersonalKind | typeof ALL)[] => [...PERSONAL_KINDS, ALL];
