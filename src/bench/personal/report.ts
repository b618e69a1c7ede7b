import { plural } from '../../domain/humanize.js';
import type { PersonalQuestionSet, PersonalSetSummary } from '../../ports/personal-bench-store.js';
import { metricMarkdown, metricText, pct, QA_SYSTEMS, textTable, type SystemColumn } from '../markdown.js';
import { usageText } from '../qa/report.js';
import {
  abstentionMetricNames,
  commonRecords,
  kindGroups,
  retrievalMetrics,
  runTables,
  SYSTEMS,
  type RunFigures,
} from './figures.js';

const COLUMNS: readonly SystemColumn[] = [
  { key: 'bm25', label: 'BM25' },
  { key: 'pie', label: 'PIE' },
];

/** "34 questions (templates, made 1 November 2025)". */
export function setLine(
  set: Pick<PersonalQuestionSet, 'generator' | 'createdAt'> & { questions: number },
  date: (t: number) => string,
): string {
  return `${plural(set.questions, 'question')} (${set.generator}, made ${date(set.createdAt)})`;
}

export function replacedLine(old: PersonalSetSummary, date: (t: number) => string, newId: string): string {
  if (old.id === newId) {
    return `It has the same questions as the stored set, so the ${plural(old.runs, 'run')} on it stay comparable.`;
  }
  return (
    `It replaces the set made ${date(old.createdAt)} (${plural(old.questions, 'question')} by ${old.generator}); ` +
    `its ${plural(old.runs, 'run')} stay stored but are not compared with this set's.`
  );
}

function counts(figures: RunFigures): string {
  const by = (status: string) => figures.records.filter((r) => r.status === status).length;
  const parts = [`${by('scored')} scored`];
  if (by('stale') > 0)
    parts.push(`${by('stale')} skipped because an evidence turn changed or is gone (run --generate)`);
  if (by('failed') > 0) parts.push(`${by('failed')} failed`);
  return parts.join(', ');
}

/** The run's tables as text for the terminal (the same as the markdown section). */
export function runText(figures: RunFigures): string {
  const tables = runTables(figures.records);
  const lines = [
    `Evidence recall (percent; ${counts(figures)}):`,
    metricText(tables.retrieval, retrievalMetrics(figures.ks), COLUMNS),
  ];
  if (tables.abstention.count('abstention', 'pie') > 0) {
    lines.push('', 'Abstention (percent of questions with no near miss shown):');
    lines.push(metricText(tables.abstention, abstentionMetricNames(figures.ks), COLUMNS));
  }
  if (tables.qa) {
    lines.push(
      '',
      `Answer accuracy (percent; answered by ${figures.model ?? '?'}, judged by ${figures.judge ?? figures.model ?? '?'}):`,
    );
    lines.push(metricText(tables.qa, ['accuracy'], QA_SYSTEMS));
    if (figures.usage) {
      lines.push(
        `Tokens and cost: PIE ${usageText(figures.usage.pie)}; naive_rag ${usageText(figures.usage.naive_rag)}`,
      );
    }
  }
  return lines.join('\n');
}

/** The same as a markdown section of docs/benchmarks.md. */
export function runMarkdown(input: { figures: RunFigures; title: string; notes: readonly string[] }): string {
  const { figures } = input;
  const tables = runTables(figures.records);
  const out = [
    `## ${input.title}`,
    '',
    input.notes.join(' '),
    '',
    `Evidence recall in percent (${counts(figures)}):`,
    '',
  ];
  out.push(metricMarkdown(tables.retrieval, retrievalMetrics(figures.ks), COLUMNS));
  if (tables.abstention.count('abstention', 'pie') > 0) {
    out.push('', 'Abstention, percent of questions with no near miss shown:', '');
    out.push(metricMarkdown(tables.abstention, abstentionMetricNames(figures.ks), COLUMNS));
  }
  if (tables.qa) out.push('', 'Answer accuracy in percent:', '', metricMarkdown(tables.qa, ['accuracy'], QA_SYSTEMS));
  return out.join('\n');
}

export interface Comparison {
  /** Per kind × "system metric": [before, after] means over the questions both runs scored. */
  rows: { group: string; n: number; cells: { name: string; before: number | null; after: number | null }[] }[];
  /** What differs between the two runs' worlds, revisions and models, in words. */
  changes: string[];
  questions: number;
}

/** The change from the previous run to this one, per kind, over the questions both scored. */
export function compareRuns(before: RunFigures, after: RunFigures): Comparison {
  const common = commonRecords(before, after);
  const a = runTables(common.before);
  const b = runTables(common.after);
  const metrics = retrievalMetrics(after.ks.filter((k) => before.ks.includes(k)));
  const rows: Comparison['rows'] = [];
  for (const group of kindGroups()) {
    const abstention = group === 'abstention';
    const [ta, tb] = abstention ? [a.abstention, b.abstention] : [a.retrieval, b.retrieval];
    const n = tb.count(group, 'pie');
    if (n === 0) continue;
    const names = abstention ? abstentionMetricNames(after.ks.filter((k) => before.ks.includes(k))) : metrics;
    const cells = names.flatMap((m) =>
      SYSTEMS.map((s) => ({
        name: `${m} ${s === 'pie' ? 'PIE' : 'BM25'}`,
        before: ta.mean(group, s, m),
        after: tb.mean(group, s, m),
      })),
    );
    if (a.qa && b.qa && b.qa.count(group, 'pie') > 0) {
      for (const s of ['naive_rag', 'pie'] as const) {
        cells.push({
          name: `accuracy ${s === 'pie' ? 'PIE' : s}`,
          before: a.qa.mean(group, s, 'accuracy'),
          after: b.qa.mean(group, s, 'accuracy'),
        });
      }
    }
    rows.push({ group, n, cells });
  }
  return { rows, changes: worldChanges(before, after), questions: common.after.length };
}

function worldChanges(before: RunFigures, after: RunFigures): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(after.world)) {
    const old = before.world[name];
    if (old !== undefined && old !== value) out.push(`${name} ${old} → ${value}`);
  }
  if (before.revision !== after.revision) out.push(`PIE ${before.revision} → ${after.revision}`);
  if (before.model !== after.model) out.push(`model ${before.model ?? 'none'} → ${after.model ?? 'none'}`);
  if ((before.judge ?? null) !== (after.judge ?? null)) {
    out.push(`judge ${before.judge ?? 'none'} → ${after.judge ?? 'none'}`);
  }
  if (before.now !== after.now) out.push('another "now"');
  return out;
}

/** A change in points: "+5.6", "-2.5", "=" when it rounds to none. */
const signed = (d: number): string => {
  const text = (d * 100).toFixed(1);
  return Number(text) === 0 ? '=' : `${d > 0 ? '+' : ''}${text}`;
};

export function comparisonText(c: Comparison, previous: string): string {
  const lines = [
    `Since the previous run (${previous}): ${c.changes.length > 0 ? c.changes.join(', ') : 'nothing in the world, PIE or the model changed'}.`,
  ];
  if (c.questions === 0) return [...lines, 'The two runs have no scored question in common.'].join('\n');
  lines.push(`Over the ${plural(c.questions, 'question')} both runs scored (percent, then the change):`);
  const parts = [c.rows.filter((r) => r.group !== 'abstention'), c.rows.filter((r) => r.group === 'abstention')];
  for (const rows of parts.filter((p) => p.length > 0)) lines.push(changeTable(rows));
  return lines.join('\n');
}

function changeTable(rows: Comparison['rows']): string {
  const header = ['kind', 'n', ...(rows[0]?.cells.map((x) => x.name) ?? [])];
  const body = rows.map((r) => [
    r.group,
    String(r.n),
    ...r.cells.map((x) =>
      x.after === null ? '–' : `${pct(x.after)} (${x.before === null ? 'new' : signed(x.after - x.before)})`,
    ),
  ]);
  return textTable([header, ...body]);
}
