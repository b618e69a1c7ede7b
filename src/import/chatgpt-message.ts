/** One ChatGPT message: kept as a user/assistant turn, or dropped and counted by kind. */
import type { TurnRole } from '../domain/conversation.js';
import { fromUnixSeconds } from '../domain/time.js';
import { addDrop, isBlank, isObject, stringField } from './common.js';
import type { DropCounts } from './types.js';

export interface ChatgptTurnDraft {
  role: TurnRole;
  text: string;
  /** Epoch ms as written in the export, not yet checked for plausibility. */
  time: number | null;
  messageId: string | undefined;
}

/** Inline citation markers of browsing answers: 【3:0†source】 and the newer \ue200cite\ue202turn0search1\ue201. */
const CITATION_MARKERS = /【\d+(?::\d+)?†[^】]*】|\ue200[^\ue201]*\ue201/g;

export function stripCitationMarkers(text: string): string {
  return text.replace(CITATION_MARKERS, '');
}

/** The text of `parts`: strings (and voice transcriptions) kept, images and other objects counted as drops. */
function partsText(parts: unknown[], dropped: DropCounts): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part.trim() !== '') texts.push(part);
    } else if (isObject(part)) {
      const type = stringField(part, 'content_type') ?? 'object';
      const transcript = stringField(part, 'text');
      if (type === 'audio_transcription' && transcript !== undefined && transcript.trim() !== '') {
        texts.push(transcript);
      } else {
        addDrop(dropped, type === 'image_asset_pointer' ? 'image' : type);
      }
    }
  }
  return texts.join('\n');
}

/**
 * Reads one message of the active path. Returns a draft turn, or null after counting why it was dropped:
 * null_message, hidden, the content type (code, tether_quote, thoughts …), the role (system, tool), tool_call
 * (assistant text addressed to a tool), or empty.
 */
export function readChatgptMessage(opts: { message: unknown; dropped: DropCounts }): ChatgptTurnDraft | null {
  const { message, dropped } = opts;
  if (!isObject(message)) {
    addDrop(dropped, 'null_message');
    return null;
  }
  const metadata = isObject(message.metadata) ? message.metadata : {};
  if (metadata.is_visually_hidden_from_conversation === true) {
    addDrop(dropped, 'hidden');
    return null;
  }
  const content = isObject(message.content) ? message.content : {};
  const contentType = stringField(content, 'content_type') ?? 'no_content';
  if (contentType !== 'text' && contentType !== 'multimodal_text') {
    addDrop(dropped, contentType);
    return null;
  }
  const author = isObject(message.author) ? message.author : {};
  const role = stringField(author, 'role') ?? 'unknown_role';
  if (role !== 'user' && role !== 'assistant') {
    addDrop(dropped, role);
    return null;
  }
  const recipient = message.recipient;
  if (role === 'assistant' && typeof recipient === 'string' && recipient !== 'all') {
    addDrop(dropped, 'tool_call');
    return null;
  }
  const parts = Array.isArray(content.parts) ? content.parts : [];
  const raw = partsText(parts, dropped);
  const text = role === 'assistant' ? stripCitationMarkers(raw) : raw;
  if (isBlank(text)) {
    addDrop(dropped, 'empty');
    return null;
  }
  return { role, text, time: fromUnixSeconds(message.create_time), messageId: stringField(message, 'id') };
}
