/**
 * The sample story as data: conversations written as turns, before they are laid out in ChatGPT's export format
 * (see ./export-format.ts). Times are ISO strings with the writer's UTC offset; every conversation is placed so that
 * its local date and its UTC date agree, so "the date of this statement" is the same in any time zone.
 */

export type ModelSlug = 'gpt-4o' | 'gpt-4o-mini' | 'gpt-4-5' | 'o3' | 'gpt-5' | 'gpt-5-thinking';

export interface ImageAttachment {
  name: string;
  width: number;
  height: number;
  sizeBytes: number;
}

export interface UserTurn {
  role: 'user';
  text: string;
  /** When this message was sent, if the conversation was resumed later (otherwise a few minutes after the last). */
  at?: string;
  /** The user edited this message: the original and the reply it got stay in the export on an abandoned branch. */
  editedFrom?: { text: string; reply: string };
  /** A photo sent with the text (multimodal_text with an image_asset_pointer part). */
  image?: ImageAttachment;
}

export interface Thought {
  summary: string;
  content: string;
}

export interface AssistantTurn {
  role: 'assistant';
  text: string;
  /** Reasoning shown before the answer: a `thoughts` message, then a `reasoning_recap` ("Thought for 14s"). */
  thoughts?: Thought[];
  /** The answer was regenerated: this earlier answer stays on an abandoned branch. */
  regeneratedFrom?: string;
}

/** The assistant runs code in its Python tool: a `code` message to `python`, then the tool's `execution_output`. */
export interface CodeTurn {
  role: 'code';
  code: string;
  output: string;
}

export type Turn = UserTurn | AssistantTurn | CodeTurn;

export interface StoryConversation {
  /** A stable slug; ground-truth items refer to conversations by it. */
  key: string;
  title: string;
  /** When the first user message was sent. */
  at: string;
  model: ModelSlug;
  turns: Turn[];
  /** Custom instructions (a hidden user_editable_context message) sit at the top of this conversation. */
  customInstructions?: boolean;
}

export const user = (text: string, extra: Omit<UserTurn, 'role' | 'text'> = {}): UserTurn => ({
  role: 'user',
  text,
  ...extra,
});

export const assistant = (text: string, extra: Omit<AssistantTurn, 'role' | 'text'> = {}): AssistantTurn => ({
  role: 'assistant',
  text,
  ...extra,
});

export const code = (source: string, output: string): CodeTurn => ({ role: 'code', code: source, output });
