import { readFileSync, writeFileSync } from 'node:fs';
import { SAMPLE } from './cli.js';

export const KG_TITLE = 'Knowledge graph vs vector memory';
export const QUICK_UPDATE =
  'Quick update: I stopped using Obsidian last week and moved all my notes to Logseq. Also Maya Chen is now our COO.';

interface ExportedConversation {
  title: string;
  update_time: number;
  current_node: string;
  mapping: Record<string, { id: string; parent: string | null; children: string[]; message: unknown }>;
}

/**
 * Writes to `path` a newer export of the sample: two turns appended to "Knowledge graph vs vector memory" (a user
 * turn saying Obsidian was dropped for Logseq and Maya Chen is now COO, and a reply), its update_time 70 s later.
 */
export function writeNewerExport(path: string): void {
  const exported = JSON.parse(readFileSync(SAMPLE, 'utf8')) as ExportedConversation[];
  const conv = exported.find((c) => c.title === KG_TITLE)!;
  const leaf = conv.mapping[conv.current_node]!;
  const at = conv.update_time + 60;
  const node = (id: string, parent: string, role: string, text: string, time: number, children: string[]) => ({
    id,
    parent,
    children,
    message: { id, author: { role }, create_time: time, content: { content_type: 'text', parts: [text] } },
  });
  leaf.children.push('quick-update');
  conv.mapping['quick-update'] = node('quick-update', leaf.id, 'user', QUICK_UPDATE, at, ['quick-reply']);
  conv.mapping['quick-reply'] = node(
    'quick-reply',
    'quick-update',
    'assistant',
    'Noted: your notes now live in Logseq instead of Obsidian, and Maya Chen is COO.',
    at + 10,
    [],
  );
  conv.current_node = 'quick-reply';
  conv.update_time += 70;
  writeFileSync(path, JSON.stringify(exported));
}
