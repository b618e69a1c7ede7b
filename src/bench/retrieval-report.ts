import type { LocomoRetrievalResult } from './locomo.js';
import type { LongMemEvalRetrievalResult } from './longmemeval.js';
import { metricMarkdown, metricText } from './markdown.js';

export interface RunMeta {
  command: string;
  /** The source the run used: "abc1234", or "abc1234 + local changes in src/". */
  revision: string;
  data: string;
  extractor: string;
  chunkTurns: number;
  ks: number[];
  date: string;
  seconds: number;
}

function metaLine(meta: RunMeta): string {
  return (
    `Command: \`${meta.command}\`. Source at ${meta.revision}. Data: \`${meta.data}\`. Extractor: ${meta.extractor}; no model answers or ` +
    `judges (retrieval only). Baseline: BM25 over non-overlapping chunks of ${meta.chunkTurns} turns. ` +
    `Run on ${meta.date} in ${meta.seconds.toFixed(0)} s. Figures are percentages (mean over questions). ` +
    '"PIE" maps all of PIE\'s fused items to turns and sessions (docs/evaluation.md); "PIE turns" keeps only its ' +
    'turn hits, in fused order: the gap between the two is how much the abstractions (entities, transitions, ' +
    'episodes) ranked first push the evidence down.'
  );
}

export function locomoMetrics(ks: readonly number[]): string[] {
  return [...ks.map((k) => `turn_recall@${k}`), ...ks.map((k) => `session_recall@${k}`)];
}

export function longmemevalMetrics(ks: readonly number[]): string[] {
  return [...ks.map((k) => `session_recall@${k}`), ...ks.map((k) => `session_ndcg@${k}`)];
}

export function locomoSection(r: LocomoRetrievalResult, meta: RunMeta): string {
  const e = r.evidence;
  return [
    '## LoCoMo retrieval (evidence recall, no LLM)',
    '',
    metaLine(meta),
    '',
    `${r.conversations} conversations, ${r.questions} questions. Evidence ids: ${e.raw} raw entries, ${e.repaired} ` +
      `repaired (split, stray colon, zero padding), ${e.unparseable} unparseable, ${e.missing} naming no turn; ` +
      `${e.questionsWithout} questions had no usable evidence and are not scored. PIE query failures: ${r.failures.length}.`,
    '',
    'turn_recall@k: share of the evidence dialog ids among the first k retrieved dialog ids (see docs/evaluation.md ' +
      'for how PIE items map to dialog ids); session_recall@k: the same over sessions.',
    '',
    metricMarkdown(r.table, locomoMetrics(meta.ks)),
  ].join('\n');
}

export function longmemevalSection(r: LongMemEvalRetrievalResult, meta: RunMeta, title: string): string {
  return [
    `## LongMemEval retrieval, ${title} (session recall and NDCG, no LLM)`,
    '',
    metaLine(meta),
    '',
    `${r.questions} questions scored (${r.meanSessions.toFixed(1)} haystack sessions on average); ` +
      `${r.abstentionSkipped} abstention questions have no evidence session and are not scored. ` +
      `PIE query failures: ${r.failures.length}.`,
    ...(title.includes('oracle')
      ? [
          '',
          'In the oracle file every haystack session is an evidence session (1–3 per question), so any system that ' +
            'returns every session scores 100 % once k ≥ the session count: this run checks the plumbing (import, ' +
            'mapping, metrics), not ranking. The S file (about 47 sessions a question) is the meaningful one.',
        ]
      : []),
    '',
    metricMarkdown(r.table, longmemevalMetrics(meta.ks)),
  ].join('\n');
}

export function locomoText(r: LocomoRetrievalResult, ks: readonly number[]): string {
  return metricText(r.table, locomoMetrics(ks));
}

export function longmemevalText(r: LongMemEvalRetrievalResult, ks: readonly number[]): string {
  return metricText(r.table, longmemevalMetrics(ks));
}
