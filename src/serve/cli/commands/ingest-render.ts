import type { ImportFormat } from '../../../domain/conversation.js';
import { periodCount, type WorldStats } from '../../../domain/world.js';
import type { ExtractionDryRun } from '../../../ingest/dry-run.js';
import type { ImportReport } from '../../../ingest/import-stage.js';
import type { IngestEvent, IngestSummary } from '../../../ingest/pipeline.js';
import { formatModelRef, type CostEstimate } from '../../../llm/index.js';
import type { ModelRef } from '../../../ports/llm.js';
import type { RedactionCategory } from '../../../privacy/detectors.js';
import type { RedactionPreview } from '../../../privacy/preview.js';
import { countList, localDate, localDateTime, num, plural, table } from '../format.js';

const FORMAT_LABELS: Record<ImportFormat, string> = {
  chatgpt: 'ChatGPT export',
  claude: 'Claude export',
  jsonl: 'JSONL chat log',
  markdown: 'markdown/text notes',
  locomo: 'LoCoMo benchmark file',
  longmemeval: 'LongMemEval benchmark file',
  memorybank: 'MemoryBank file',
};

export function renderImport(input: { report: ImportReport; label: string; format: ImportFormat; tz: string }): string {
  const { report, tz } = input;
  const lines: string[] = [`Read ${input.label} (${FORMAT_LABELS[input.format]}).`];
  const { inserted, updated, unchanged } = report.outcomes;
  lines.push(
    `${report.dryRun ? 'Would import' : 'Imported'} ${plural(report.conversations, 'conversation')}, ` +
      `${plural(report.turns, 'turn')}: ${num(inserted)} new, ${num(updated)} updated, ${num(unchanged)} unchanged` +
      (report.keptNewer.length > 0 ? `, ${num(report.keptNewer.length)} kept (stored version newer).` : '.'),
  );
  if (report.firstAt !== null && report.lastAt !== null) {
    lines.push(`Time span: ${localDate(report.firstAt, tz)} to ${localDate(report.lastAt, tz)} (${tz}).`);
  }
  lines.push(`Left out of conversations: ${countList(report.dropped)}.`);
  if (report.forgotten > 0) {
    lines.push(
      `Left out ${plural(report.forgotten, 'conversation')} you asked PIE to forget (pie forget); --include-forgotten imports them again.`,
    );
  }
  lines.push(...keptLines(report, tz));
  lines.push(...issues(`Skipped ${skippedCount(report.skipped)}:`, report.skipped, 20));
  lines.push(...issues(`${plural(report.warnings.length, 'warning')}:`, report.warnings, 10));
  return lines.join('\n');
}

/** Conversations whose stored version is newer than the file's: the file is an older export of them. */
function keptLines(report: ImportReport, tz: string): string[] {
  const kept = report.keptNewer;
  if (kept.length === 0) return [];
  const at = (ms: number): string => localDateTime(ms, tz, { seconds: true });
  const one = kept.length === 1;
  const heading =
    `${report.dryRun ? 'Would keep' : 'Kept'} ${plural(kept.length, 'conversation')} whose stored version is newer ` +
    `(this file holds an older version${one ? ' of it' : ''}; ` +
    `nothing ${report.dryRun ? 'would be' : 'was'} written for ${one ? 'it' : 'them'}):`;
  return issues(
    heading,
    kept.map((k) => ({
      ref: `"${k.title}" (${k.id})`,
      reason: `stored version of ${at(k.storedAt)}, this file's of ${at(k.importedAt)} (${tz})`,
    })),
    20,
  );
}

/**
 * What was skipped, counted by what it is: a JSONL line is a turn (its conversation is imported without it), not a
 * conversation; a file of a folder is a file; a Claude project or memory, a note or a benchmark question is another
 * item. Pure.
 */
export function skippedCount(skipped: readonly { ref: string }[]): string {
  const lines = skipped.filter((s) => s.ref.startsWith('line ')).length;
  const conversations = skipped.filter((s) => s.ref.startsWith('conversation')).length;
  const files = skipped.filter((s) => s.ref.startsWith('file ')).length;
  const others = skipped.length - lines - conversations - files;
  const parts = [
    conversations > 0 ? plural(conversations, 'conversation') : '',
    lines > 0 ? plural(lines, 'line') : '',
    files > 0 ? plural(files, 'file') : '',
    others > 0 ? plural(others, conversations + lines + files > 0 ? 'other item' : 'item') : '',
  ].filter((p) => p !== '');
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '0 items');
}

function issues(heading: string, list: { ref: string; reason: string }[], max: number): string[] {
  if (list.length === 0) return [];
  // Most reasons name their conversation already: name it once.
  const line = (s: { ref: string; reason: string }) => (s.reason.includes(s.ref) ? s.reason : `${s.ref}: ${s.reason}`);
  const lines = [heading, ...list.slice(0, max).map((s) => `  - ${line(s)}`)];
  if (list.length > max) lines.push(`  … and ${num(list.length - max)} more (see --json).`);
  return lines;
}

export function renderDryRun(input: {
  dry: ExtractionDryRun;
  ref: ModelRef;
  extraction: string;
  cost: { input: CostEstimate; output: CostEstimate };
  tokenizer: string;
}): string {
  const { dry, cost } = input;
  const lines = [
    `Extraction plan: ${plural(dry.batches.length, 'batch', 'batches')} over ${plural(dry.days, 'day')}, ${plural(dry.episodes, 'episode')}.`,
  ];
  if (dry.batches.length > 0) {
    const shown = dry.batches.slice(0, 30);
    lines.push(
      table(
        [
          ['batch', 'conversations', 'prompt tokens', 'output (guess)'],
          ...shown.map((b) => [b.id, num(b.episodes), num(b.inputTokens), num(b.outputTokensGuess)]),
        ],
        { indent: '  ' },
      ),
    );
    if (dry.batches.length > shown.length)
      lines.push(`  … and ${num(dry.batches.length - shown.length)} more (see --json).`);
  }
  const model = formatModelRef(input.ref);
  lines.push(
    `Prompt tokens: ${num(dry.inputTokens)} (exact for ${input.tokenizer}; other model families tokenize a little differently).`,
    `Output tokens: about ${num(dry.outputTokensGuess)} (a guess; reasoning models spend more).`,
    cost.input.known
      ? `Estimated cost with ${model}: $${cost.input.usd.toFixed(2)} input + about $${cost.output.usd.toFixed(2)} output.`
      : `No price is known for ${model}; set PIE_PRICES to a price file to see a cost.`,
    `This run would extract with ${input.extraction}.`,
    'Dry run: nothing was written and no model was called.',
  );
  return lines.join('\n');
}

export function batchProgressLine(e: Extract<IngestEvent, { type: 'batch' }>): string {
  const done = e.index + 1;
  const pct = Math.floor((done / e.total) * 100);
  const eta = done < e.total ? ` · ETA ${duration(((e.total - done) * e.elapsedMs) / done)}` : '';
  const tokens = e.usage.inputTokens + e.usage.outputTokens;
  return (
    `Extracting batch ${num(done)}/${num(e.total)} (${pct}%) ${e.batchId}` +
    (tokens > 0 ? ` · ${num(tokens)} tokens · $${e.usage.costUsd.toFixed(2)}` : '') +
    eta
  );
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s}s`;
  const m = Math.round(s / 60);
  return m < 90 ? `${m}m` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** What this run did with other `pie ingest` processes on the same database, when it did anything. */
function sharedLines(s: IngestSummary): string[] {
  const lines: string[] = [];
  const { preparedForOthers, takenFromOthers, helpError } = s.shared;
  if (preparedForOthers > 0) {
    lines.push(
      `While another run held the extraction, this one extracted ${plural(preparedForOthers, 'batch', 'batches')} ` +
        'ahead for it, which that run applied.' +
        (s.batches.planned === 0
          ? ` Model use: ${num(s.usage.inputTokens)} input + ${num(s.usage.outputTokens)} output tokens, $${s.usage.costUsd.toFixed(2)} estimated.`
          : ''),
    );
  }
  if (takenFromOthers > 0) {
    lines.push(
      `${plural(takenFromOthers, 'batch', 'batches')} of this run were extracted by another pie ingest beside it (their model use is counted there).`,
    );
  }
  if (helpError !== undefined) lines.push(`Helping the other run stopped: ${helpError}`);
  return lines;
}

/** Why a run planned no batch: nothing imported, everything extracted, or what waits lies before `--since`. */
function nothingToExtract(stats: WorldStats, since: number | undefined, tz: string): string {
  // An input whose every record was skipped stops before this (ingest.ts); here it held none at all.
  if (stats.episodes === 0) return 'Nothing to extract: the input holds no conversation and the database none yet.';
  const waiting = stats.episodesPendingExtraction;
  if (waiting === 0) {
    return `Nothing to extract: all ${plural(stats.episodes, 'conversation')} in the database are already in the world model.`;
  }
  const wait = waiting === 1 ? 'waits' : 'wait';
  return since === undefined
    ? `Nothing extracted: ${plural(waiting, 'conversation')} still ${wait} for extraction.`
    : `Nothing to extract from ${localDate(since, tz)} on: ${plural(waiting, 'conversation')} from before then still ${wait} for extraction (pie ingest without --since extracts them).`;
}

export function renderExtraction(input: {
  summary: IngestSummary;
  extraction: string;
  stats: WorldStats;
  /** The `--since` bound this run extracted from, when one was given. */
  since?: number | undefined;
  tz: string;
}): string {
  const { summary: s, stats } = input;
  const lines: string[] = [];
  if (s.batches.planned === 0) {
    lines.push(nothingToExtract(stats, input.since, input.tz));
  } else {
    lines.push(
      `Extracted ${num(s.batches.done)} of ${plural(s.batches.planned, 'batch', 'batches')} ` +
        `(${plural(s.episodes, 'episode')}) with ${input.extraction}` +
        (s.batches.failed > 0 ? `; ${num(s.batches.failed)} failed and will be retried on the next run` : '') +
        '.',
    );
    for (const f of s.failures.slice(0, 5)) lines.push(`  - batch ${f.batchId}: ${f.reason}`);
    if (s.status === 'budget_exhausted') {
      lines.push(
        `Stopped at the token budget; ${plural(s.batches.notStarted, 'batch', 'batches')} wait for the next run.`,
      );
    }
    if (s.status === 'interrupted') {
      lines.push(`Interrupted; ${plural(s.batches.notStarted, 'batch', 'batches')} wait for the next run.`);
    }
    lines.push(`Changes: ${countList(s.mutations)}.`);
    if (s.consolidations > 0) {
      lines.push(
        `Importance recomputed ${plural(s.consolidations, 'time')} (light consolidation; pie sleep does the rest).`,
      );
    }
    if (s.usage.calls + s.usage.cachedCalls > 0) {
      lines.push(
        `Model use: ${num(s.usage.inputTokens)} input + ${num(s.usage.outputTokens)} output tokens, ` +
          `$${s.usage.costUsd.toFixed(2)} estimated; ${num(s.usage.cachedCalls)} answers came from the cache.`,
      );
    }
  }
  lines.push(...sharedLines(s));
  lines.push(
    `World model: ${plural(stats.entities, 'entity', 'entities')} (${countList(stats.entitiesByType)}), ` +
      `${plural(stats.transitions, 'transition')}, ${plural(stats.relationships, 'relationship')}, ${periodsText(stats)}.`,
  );
  return lines.join('\n');
}

/** "11 periods (2 with dates)", or "3 periods" when all have dates. */
function periodsText(stats: WorldStats): string {
  const total = periodCount(stats);
  return `${plural(total, 'period')}${total > stats.periods ? ` (${num(stats.periods)} with dates)` : ''}`;
}

const REDACTION_LABELS: Record<RedactionCategory, [string, string]> = {
  secret: ['secret', 'secrets'],
  email: ['email address', 'email addresses'],
  phone: ['phone number', 'phone numbers'],
  card: ['card number', 'card numbers'],
  iban: ['IBAN', 'IBANs'],
  government_id: ['government id', 'government ids'],
  address: ['street address', 'street addresses'],
};

/** What would be replaced by placeholders before the prompts leave the machine (docs/privacy.md). */
export function renderRedaction(input: {
  ref: ModelRef;
  categories: ReadonlySet<RedactionCategory>;
  redaction: RedactionPreview;
}): string {
  const model = formatModelRef(input.ref);
  if (input.categories.size === 0) {
    return `Redaction: off for ${model} (a local model, or PIE_REDACT=off): the conversations are sent as written.`;
  }
  const found = Object.entries(input.redaction.counts) as [RedactionCategory, number][];
  if (found.length === 0) {
    return `Redaction for ${model}: nothing found to replace (${[...input.categories].join(', ')} looked for).`;
  }
  const parts = found.map(([category, n]) => {
    const examples = input.redaction.examples[category] ?? [];
    const [one, many] = REDACTION_LABELS[category];
    return `${plural(n, one, many)}${examples.length > 0 ? ` (${examples.join(', ')})` : ''}`;
  });
  return `Redaction for ${model}: ${parts.join(', ')} would be replaced by placeholders before anything is sent.`;
}
