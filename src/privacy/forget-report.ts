import { plural } from '../domain/humanize.js';
import { localDayKey } from '../domain/time.js';
import type { CompactReport } from '../ports/forget-store.js';
import type { ForgetCounts, ForgetPlan, ForgetTargetView } from './forget-plan.js';

/** A forget plan and its outcome in words, for the CLI and the MCP tool alike (each adds how to confirm). Pure. */

/** Each count in words, in the order shown; `always` kinds are listed even at zero (the plan says they were checked). */
const KINDS: readonly { key: keyof ForgetCounts; one: string; many?: string; always?: boolean }[] = [
  { key: 'episodes', one: 'conversation', always: true },
  { key: 'turns', one: 'turn', always: true },
  { key: 'mentions', one: 'mention', always: true },
  { key: 'facts', one: 'fact', always: true },
  { key: 'transitions', one: 'transition', always: true },
  { key: 'relationships', one: 'relationship', always: true },
  { key: 'aliases', one: 'alias', many: 'aliases' },
  { key: 'periods', one: 'period' },
  { key: 'observations', one: 'observation', always: true },
  { key: 'summaries', one: 'summary', many: 'summaries', always: true },
  { key: 'mentalModels', one: 'mental model' },
  { key: 'insights', one: 'insight' },
  { key: 'sleepTasks', one: 'sleep task' },
  { key: 'procedures', one: 'procedure' },
  { key: 'embeddings', one: 'embedding', always: true },
  { key: 'ftsRows', one: 'full-text index row', always: true },
  { key: 'cachedAnswers', one: 'cached model answer', always: true },
  { key: 'journalRows', one: 'undo-journal row', always: true },
  { key: 'ingestRecords', one: 'ingest batch record' },
];

const MAX_LISTED = 20;

export function targetLine(target: ForgetTargetView, tz: string): string {
  switch (target.kind) {
    case 'entity':
      return `Forget the entity ${target.entity.name} (${target.entity.type}, ${target.entity.id}) and everything derived only from it.`;
    case 'conversation': {
      const listed = target.conversations
        .slice(0, MAX_LISTED)
        .map((c) => `“${c.title}” (${c.id}, ${localDayKey(c.time, tz)})`);
      const more =
        target.conversations.length > MAX_LISTED ? ` and ${target.conversations.length - MAX_LISTED} more` : '';
      return `Forget ${target.conversations.length === 1 ? 'the conversation' : `${target.conversations.length} conversations:`} ${listed.join(', ')}${more}, and everything derived only from ${target.conversations.length === 1 ? 'it' : 'them'}.`;
    }
    case 'text':
      return `Forget every turn containing “${target.asked}” (${plural(target.turns, 'turn')} in ${plural(target.conversations, 'conversation')}) and every stored copy of the text.`;
  }
}

/** The plan in lines: what it is about, what goes (by kind), which entities go and which stay, what is re-derived. */
export function describeForgetPlan(plan: ForgetPlan, tz: string): string[] {
  const lines = [targetLine(plan.target, tz), 'What goes:'];
  for (const k of KINDS) {
    const n = plan.counts[k.key];
    if (n > 0 || k.always) lines.push(`  ${plural(n, k.one, k.many)}`);
  }
  const { deleted, kept } = plan.entities;
  lines.push(
    deleted.length === 0
      ? 'Entities deleted: none.'
      : `Entities deleted (${deleted.length}): ${listed(deleted.map((e) => `${e.name} (${e.type})`))}.`,
  );
  if (kept.length > 0) {
    lines.push(
      `Entities that stay because other sources hold them (${kept.length}): ${listed(
        kept.map((e) => `${e.name} (${e.type}, ${plural(e.otherSources, 'other source')})`),
      )}.`,
    );
  }
  const r = plan.repairs;
  const rederived = [
    r.entities > 0 ? `${plural(r.entities, 'entity', 'entities')} (state and dates from what remains)` : '',
    r.facts > 0 ? `${plural(r.facts, 'fact')} (current again or superseded by the next remaining one)` : '',
    r.contradictionsReopened > 0 ? `${plural(r.contradictionsReopened, 'contradiction')} open again` : '',
    r.conversations > 0
      ? `${plural(r.conversations, 'conversation')} keeping ${r.conversations === 1 ? 'its' : 'their'} other turns`
      : '',
  ].filter(Boolean);
  if (rederived.length > 0) lines.push(`Re-derived: ${rederived.join('; ')}.`);
  if (plan.stillNamedIn > 0) {
    const one = plan.stillNamedIn === 1;
    lines.push(
      one
        ? 'The conversation that names it stays (a source, not derived from it); forget it, or the name as a text, to remove the words too.'
        : `The ${plan.stillNamedIn} conversations that name it stay (sources, not derived from it); forget them, or the name as a text, to remove the words too.`,
    );
  }
  return lines;
}

function listed(items: readonly string[]): string {
  const more = items.length > MAX_LISTED ? `, and ${items.length - MAX_LISTED} more` : '';
  return `${items.slice(0, MAX_LISTED).join(', ')}${more}`;
}

/** What compaction did, in one sentence (`file` names the database for the advice when the log stayed). */
export function describeCompaction(report: CompactReport, file: string): string {
  const sizes = `${kib(report.bytesBefore)} → ${kib(report.bytesAfter)}`;
  if (report.storage === 'server') {
    return `The rows are deleted and the memory's tables vacuumed (${sizes}); PostgreSQL keeps old row versions in unused table space until it is reused, and in its write-ahead log, replicas and backups until those are recycled.`;
  }
  return report.walTruncated
    ? `The database file was rewritten (${sizes}) and its write-ahead log emptied, so no copy of what was forgotten is left in it.`
    : `The database file was rewritten (${sizes}), but another process has it open, so older pages stay in ${file}-wal until it closes; then run pie forget --compact.`;
}

const kib = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('en-US')} KiB`;

/** The counts that are not zero, in words ("1 conversation, 2 turns, …"). */
export function countsText(counts: ForgetCounts): string {
  const parts = KINDS.filter((k) => counts[k.key] > 0).map((k) => plural(counts[k.key], k.one, k.many));
  return parts.length === 0 ? 'nothing' : parts.join(', ');
}
