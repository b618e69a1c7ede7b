import type { Conversation, ImportFormat } from '../domain/conversation.js';

/**
 * Why a message or block was left out of a conversation. Counted per kind so that a user sees what was dropped
 * (system and tool messages, code, browsing, reasoning …) rather than wondering where it went.
 */
export type DropCounts = Record<string, number>;

export type ImportEvent =
  | { kind: 'conversation'; conversation: Conversation; dropped: DropCounts }
  /** One bad conversation never stops the others: it is reported with a reference and a reason, then skipped. */
  | { kind: 'skipped'; ref: string; reason: string }
  /** A warning that does not skip anything (e.g. a timestamp that was absurd and replaced). */
  | { kind: 'warning'; ref: string; message: string };

export interface ImportOptions {
  /** File, directory or .zip to read. */
  path: string;
  format: ImportFormat | 'auto';
  /** IANA zone used where a source has local dates without a zone (LoCoMo, LongMemEval, MemoryBank, notes). */
  tz: string;
}

/** What the importer found before reading: the resolved format and a label for messages. */
export interface ImportPlan {
  format: ImportFormat;
  /** The file (or zip entry) actually read, for messages. */
  label: string;
}
