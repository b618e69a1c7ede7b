/**
 * Import: a path (file, export .zip, folder) -> a stream of normalized conversations.
 *
 * `planImport` resolves and validates the input and its format up front (throws PieError FILE_NOT_FOUND,
 * UNREADABLE_INPUT, UNKNOWN_FORMAT); `importConversations` streams ImportEvents. A malformed record inside a readable
 * file never throws: it is yielded as `skipped` and the rest continues.
 */
import { assertTimeZone } from '../domain/time.js';
import { importClaudeExtras } from './claude-export.js';
import { importJsonRecords } from './json-import.js';
import { importJsonl } from './jsonl.js';
import { importNotes } from './notes.js';
import { isJsonFormat, resolvePlan } from './plan.js';
import type { ImportEvent, ImportOptions } from './types.js';

export { planImport } from './plan.js';
export type { DropCounts, ImportEvent, ImportOptions, ImportPlan } from './types.js';

// Per-format parsers over already-parsed objects (benchmarks build one world per sample / question with them).
export { chatgptConversationToEvents } from './chatgpt.js';
export { claudeConversationToEvents } from './claude.js';
export { locomoSampleToConversations, locomoSampleToEvents, locomoSessionNumbers } from './locomo.js';
export {
  longmemevalQuestionToConversations,
  longmemevalQuestionToEvents,
  longmemevalSessionToEvent,
} from './longmemeval.js';
export { memorybankUserToEvents } from './memorybank.js';
export { noteToEvents } from './notes.js';
export { streamJsonItems, type JsonItem, type JsonStreamOptions } from './json-stream.js';
export { sniff, FORMAT_NAMES } from './detect.js';
export { parseLocomoDate, parseLongMemEvalDate } from './times.js';
export type { RecordContext } from './common.js';

async function* run(opts: ImportOptions): AsyncGenerator<ImportEvent> {
  const tz = assertTimeZone(opts.tz);
  const { plan, input } = await resolvePlan({ path: opts.path, format: opts.format });
  if (input.kind === 'notes-dir') {
    yield* importNotes({ root: input.root, singleFile: false, tz });
    return;
  }
  const { source } = input;
  if (plan.format === 'markdown') {
    yield* importNotes({ root: source.filePath ?? source.label, singleFile: true, tz });
  } else if (plan.format === 'jsonl') {
    yield* importJsonl({ source, tz });
  } else if (isJsonFormat(plan.format)) {
    yield* importJsonRecords({ source, format: plan.format, tz });
    if (plan.format === 'claude') yield* importClaudeExtras({ sibling: input.sibling, tz });
  }
}

/** Streams the conversations of a file, export zip or folder (see ImportOptions). Nothing is read until iterated. */
export function importConversations(opts: ImportOptions): AsyncIterable<ImportEvent> {
  return run(opts);
}
