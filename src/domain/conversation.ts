import { z } from 'zod';

/** Where a conversation came from. Benchmarks share the user's import path, so their formats are sources too. */
export const CONVERSATION_SOURCES = [
  'chatgpt',
  'claude',
  'jsonl',
  'markdown',
  'locomo',
  'longmemeval',
  'memorybank',
  'manual',
  'apply',
] as const;
export type ConversationSource = (typeof CONVERSATION_SOURCES)[number];

export const IMPORT_FORMATS = [
  'chatgpt',
  'claude',
  'jsonl',
  'markdown',
  'locomo',
  'longmemeval',
  'memorybank',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export type TurnRole = 'user' | 'assistant';

export interface Attachment {
  name: string;
  text: string;
}

export interface Turn {
  role: TurnRole;
  text: string;
  /** Epoch milliseconds, or null when the source has no per-message time. */
  time: number | null;
  /** A human speaker's name where the source has one (LoCoMo, MemoryBank). */
  speaker?: string;
  /** The source's id for this turn (LoCoMo dia_id "D1:3"), used for provenance and benchmark evidence. */
  externalId?: string;
  /** Text extracted from files attached to this turn (Claude exports), kept as context. */
  attachments?: Attachment[];
  /** Source-specific flags, e.g. LongMemEval's has_answer. */
  meta?: Record<string, unknown>;
}

/** The normalized unit every importer produces: one episode of the user's history. */
export interface Conversation {
  source: ConversationSource;
  /** The source's own id (ChatGPT conversation_id, Claude uuid, LoCoMo "conv-26:session_3" …). */
  externalId: string;
  title: string;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  model: string | null;
  turns: Turn[];
  meta?: Record<string, unknown>;
}

export const turnSchema = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  time: z.number().nullable(),
  speaker: z.string().optional(),
  externalId: z.string().optional(),
  attachments: z.array(z.object({ name: z.string(), text: z.string() })).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

export const conversationSchema = z.object({
  source: z.enum(CONVERSATION_SOURCES),
  externalId: z.string().min(1),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  model: z.string().nullable(),
  turns: z.array(turnSchema),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** The stable internal id of the episode a conversation becomes. */
export function episodeIdFor(conversation: Pick<Conversation, 'source' | 'externalId'>): string {
  return `${conversation.source}:${conversation.externalId}`;
}
