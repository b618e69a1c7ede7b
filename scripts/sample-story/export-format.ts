/**
 * Lays a StoryConversation out the way ChatGPT's `conversations.json` does: a `mapping` tree of nodes with a
 * null-message root (`client-created-root` on newer conversations), a hidden system message, abandoned branches for
 * edited messages and regenerated answers, and `current_node` at the tip of the active branch.
 */
import type {
  ExportContent,
  ExportConversation,
  ExportMessage,
  ExportNode,
  ImageAssetPointer,
  Json,
  Role,
} from './export-types.js';
import type { Prng } from './prng.js';
import type { CodeTurn, StoryConversation, UserTurn } from './types.js';

/** Conversations from this date on use the newer export shape (client-created-root, `channel`, sediment:// assets). */
const NEWER_FORMAT_FROM = Date.parse('2025-05-01T00:00:00Z') / 1000;

const CUSTOM_PROFILE = 'Preferred name: Sam\nRole: CS student, working on a startup on the side';
const CUSTOM_INSTRUCTIONS = 'Be concise. Skip the pep talk. Use TypeScript for code examples unless I ask otherwise.';

export function toUnixSeconds(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`Bad date in the sample story: ${iso}`);
  return ms / 1000;
}

export function buildConversation(story: StoryConversation, rng: Prng): ExportConversation {
  const start = toUnixSeconds(story.at) + rng.between(0, 0.999);
  const newer = start >= NEWER_FORMAT_FROM;
  const mapping: Record<string, ExportNode> = {};
  const rootId = newer ? 'client-created-root' : `aaa1${rng.uuid().slice(4)}`;
  mapping[rootId] = { id: rootId, message: null, parent: null, children: [] };
  let clock = start;
  let tip = rootId;
  let lastRequest = '';

  const add = (parent: string, message: Omit<ExportMessage, 'status' | 'weight' | 'update_time'>): string => {
    // Keys in the order the export writes them.
    const full: ExportMessage = {
      id: message.id,
      author: message.author,
      create_time: message.create_time,
      update_time: null,
      content: message.content,
      status: 'finished_successfully',
      end_turn: message.end_turn,
      weight: message.author.role === 'system' ? 0 : 1,
      metadata: message.metadata,
      recipient: message.recipient,
    };
    if (newer) full.channel = null;
    mapping[message.id] = { id: message.id, message: full, parent, children: [] };
    mapping[parent]?.children.push(message.id);
    return message.id;
  };
  const author = (role: Role, name: string | null = null) => ({ role, name, metadata: {} });
  const assistantMeta = (parentId: string, extra: { [key: string]: Json } = {}): { [key: string]: Json } => ({
    finish_details: { type: 'stop', stop_tokens: [200002] },
    is_complete: true,
    citations: [],
    content_references: [],
    message_type: null,
    model_slug: story.model,
    default_model_slug: story.model,
    parent_id: parentId,
    request_id: lastRequest,
    timestamp_: 'absolute',
    ...extra,
  });

  tip = add(tip, {
    id: rng.uuid(),
    author: author('system'),
    create_time: null,
    content: { content_type: 'text', parts: [''] },
    end_turn: true,
    metadata: { is_visually_hidden_from_conversation: true },
    recipient: 'all',
  });
  if (story.customInstructions) {
    tip = add(tip, {
      id: rng.uuid(),
      author: author('user'),
      create_time: null,
      content: {
        content_type: 'user_editable_context',
        user_profile: `The user provided the following information about themselves.\nUser profile:\n\`\`\`${CUSTOM_PROFILE}\`\`\``,
        user_instructions: `The user provided the additional info about how they would like you to respond:\n\`\`\`${CUSTOM_INSTRUCTIONS}\`\`\``,
      },
      end_turn: null,
      metadata: {
        is_visually_hidden_from_conversation: true,
        user_context_message_data: { about_user_message: CUSTOM_PROFILE, about_model_message: CUSTOM_INSTRUCTIONS },
        is_user_system_message: true,
      },
      recipient: 'all',
    });
  }

  const userMessage = (parent: string, turn: UserTurn, text: string, time: number): string => {
    lastRequest = `${rng.hex(16)}-IAD`;
    const id = newer ? rng.uuid() : `aaa2${rng.uuid().slice(4)}`;
    const metadata: { [key: string]: Json } = { request_id: lastRequest, timestamp_: 'absolute', message_type: null };
    let content: ExportContent = { content_type: 'text', parts: [text] };
    if (turn.image) {
      const fileId = newer ? `file_${rng.hex(32)}` : `file-${rng.hex(22)}`;
      const pointer: ImageAssetPointer = {
        content_type: 'image_asset_pointer',
        asset_pointer: newer ? `sediment://${fileId}` : `file-service://${fileId}`,
        size_bytes: turn.image.sizeBytes,
        width: turn.image.width,
        height: turn.image.height,
        fovea: null,
        metadata: { dalle: null, gizmo: null, generation: null, container_pixel_height: null, sanitized: true },
      };
      content = { content_type: 'multimodal_text', parts: [pointer, text] };
      metadata.attachments = [
        { id: fileId, size: turn.image.sizeBytes, name: turn.image.name, mime_type: 'image/jpeg', ...dims(turn) },
      ];
    }
    return add(parent, {
      id,
      author: author('user'),
      create_time: time,
      content,
      end_turn: null,
      metadata,
      recipient: 'all',
    });
  };
  const textReply = (parent: string, text: string, time: number): string =>
    add(parent, {
      id: rng.uuid(),
      author: author('assistant'),
      create_time: time,
      content: { content_type: 'text', parts: [text] },
      end_turn: true,
      metadata: assistantMeta(parent),
      recipient: 'all',
    });
  const replyDelay = (text: string): number =>
    rng.between(3, 9) + Math.min(text.length / 90, 25) + rng.between(0, 0.999);

  let first = true;
  for (const turn of story.turns) {
    if (turn.role === 'user') {
      if (turn.at) clock = toUnixSeconds(turn.at) + rng.between(0, 0.999);
      else if (!first) clock += rng.between(45, 420);
      first = false;
      if (turn.editedFrom) {
        const old = userMessage(tip, turn, turn.editedFrom.text, clock);
        textReply(old, turn.editedFrom.reply, clock + replyDelay(turn.editedFrom.reply));
        clock += rng.between(90, 300);
      }
      tip = userMessage(tip, turn, turn.text, clock);
    } else if (turn.role === 'assistant') {
      if (turn.thoughts) {
        const thinkStart = clock + rng.between(1, 2);
        const seconds = Math.round(rng.between(9, 38));
        const source = rng.uuid();
        const thoughts: Json[] = turn.thoughts.map((t) => ({ ...t, chunks: [t.content], finished: true }));
        const reasoning = { reasoning_status: 'is_reasoning' };
        tip = add(tip, {
          id: rng.uuid(),
          author: author('assistant'),
          create_time: thinkStart,
          content: { content_type: 'thoughts', thoughts, source_analysis_msg_id: source },
          end_turn: false,
          metadata: assistantMeta(tip, reasoning),
          recipient: 'all',
        });
        clock = thinkStart + seconds;
        tip = add(tip, {
          id: rng.uuid(),
          author: author('assistant'),
          create_time: clock,
          content: { content_type: 'reasoning_recap', content: `Thought for ${seconds}s` },
          end_turn: false,
          metadata: assistantMeta(tip, { reasoning_status: 'reasoning_ended', finished_duration_sec: seconds }),
          recipient: 'all',
        });
      }
      if (turn.regeneratedFrom) {
        clock += replyDelay(turn.regeneratedFrom);
        textReply(tip, turn.regeneratedFrom, clock);
        clock += rng.between(20, 90);
      }
      clock += replyDelay(turn.text);
      tip = textReply(tip, turn.text, clock);
    } else {
      ({ tip, clock } = codeTurn({ turn, tip, clock, rng, add, author, assistantMeta }));
    }
  }

  const id = rng.uuid();
  return {
    title: story.title,
    create_time: start,
    update_time: clock + rng.between(0.2, 2),
    mapping,
    moderation_results: [],
    current_node: tip,
    plugin_ids: null,
    conversation_id: id,
    conversation_template_id: null,
    gizmo_id: null,
    gizmo_type: null,
    is_archived: false,
    is_starred: null,
    safe_urls: [],
    blocked_urls: [],
    default_model_slug: story.model,
    conversation_origin: null,
    voice: null,
    async_status: null,
    disabled_tool_ids: [],
    is_do_not_remember: false,
    memory_scope: 'global_enabled',
    id,
  };
}

function dims(turn: UserTurn): { width: number; height: number } {
  return { width: turn.image?.width ?? 0, height: turn.image?.height ?? 0 };
}

interface CodeTurnOptions {
  turn: CodeTurn;
  tip: string;
  clock: number;
  rng: Prng;
  add: (parent: string, message: Omit<ExportMessage, 'status' | 'weight' | 'update_time'>) => string;
  author: (role: Role, name?: string | null) => ExportMessage['author'];
  assistantMeta: (parentId: string, extra?: { [key: string]: Json }) => { [key: string]: Json };
}

/** The assistant writes code addressed to the python tool; the tool answers with its execution output. */
function codeTurn(o: CodeTurnOptions): { tip: string; clock: number } {
  const codeAt = o.clock + o.rng.between(2, 6);
  const codeId = o.add(o.tip, {
    id: o.rng.uuid(),
    author: o.author('assistant'),
    create_time: codeAt,
    content: { content_type: 'code', language: 'unknown', response_format_name: null, text: o.turn.code },
    end_turn: false,
    metadata: o.assistantMeta(o.tip, { finish_details: { type: 'stop', stop_tokens: [200007] } }),
    recipient: 'python',
  });
  const ranAt = codeAt + o.rng.between(1, 3);
  const outputId = o.add(codeId, {
    id: o.rng.uuid(),
    author: o.author('tool', 'python'),
    create_time: ranAt,
    content: { content_type: 'execution_output', text: o.turn.output },
    end_turn: null,
    metadata: {
      is_complete: true,
      aggregate_result: {
        status: 'success',
        run_id: o.rng.uuid(),
        start_time: codeAt,
        update_time: ranAt,
        code: o.turn.code,
        end_time: ranAt,
        final_expression_output: null,
        in_kernel_exception: null,
        system_exception: null,
        messages: [],
        jupyter_messages: [],
        timeout_triggered: null,
      },
      parent_id: codeId,
    },
    recipient: 'all',
  });
  return { tip: outputId, clock: ranAt };
}
