/** The shape of ChatGPT's `conversations.json` (the parts the sample uses), as written by the export. */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface ImageAssetPointer {
  content_type: 'image_asset_pointer';
  asset_pointer: string;
  size_bytes: number;
  width: number;
  height: number;
  fovea: null;
  metadata: { [key: string]: Json };
}

export type ExportContent =
  | { content_type: 'text'; parts: string[] }
  | { content_type: 'multimodal_text'; parts: (string | ImageAssetPointer)[] }
  | { content_type: 'code'; language: string; response_format_name: null; text: string }
  | { content_type: 'execution_output'; text: string }
  | { content_type: 'thoughts'; thoughts: Json[]; source_analysis_msg_id: string }
  | { content_type: 'reasoning_recap'; content: string }
  | { content_type: 'user_editable_context'; user_profile: string; user_instructions: string };

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface ExportMessage {
  id: string;
  author: { role: Role; name: string | null; metadata: { [key: string]: Json } };
  create_time: number | null;
  update_time: number | null;
  content: ExportContent;
  status: 'finished_successfully';
  end_turn: boolean | null;
  weight: number;
  metadata: { [key: string]: Json };
  recipient: string;
  channel?: null;
}

export interface ExportNode {
  id: string;
  message: ExportMessage | null;
  parent: string | null;
  children: string[];
}

export interface ExportConversation {
  title: string;
  create_time: number;
  update_time: number;
  mapping: Record<string, ExportNode>;
  moderation_results: Json[];
  current_node: string;
  plugin_ids: null;
  conversation_id: string;
  conversation_template_id: null;
  gizmo_id: null;
  gizmo_type: null;
  is_archived: boolean;
  is_starred: null;
  safe_urls: string[];
  blocked_urls: string[];
  default_model_slug: string;
  conversation_origin: null;
  voice: null;
  async_status: null;
  disabled_tool_ids: string[];
  is_do_not_remember: boolean;
  memory_scope: string;
  id: string;
}
