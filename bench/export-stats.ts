import { readFileSync } from 'node:fs';

/** Token counts of a ChatGPT export's text, to read a dry run's prompt tokens against. */
export interface ExportTextStats {
  userChars: number;
  userTokens: number;
  assistantChars: number;
  assistantTokens: number;
  /** Assistant tokens after clipping every reply to `clipChars` characters (what the extraction prompt keeps). */
  assistantTokensClipped: number;
  assistantTurns: number;
  assistantTurnsClipped: number;
}

interface ExportNode {
  message: { author: { role: string }; content: { parts?: unknown[] } } | null;
}

/**
 * Counts the user and assistant text of a ChatGPT export with `count` (the project's tokenizer). A clipped reply is
 * counted as its kept prefix plus the rest, so the full count costs no second pass (±1 token at the cut).
 */
export function exportTextStats(input: {
  path: string;
  clipChars: number;
  count: (text: string) => number;
}): ExportTextStats {
  const conversations = JSON.parse(readFileSync(input.path, 'utf8')) as { mapping: Record<string, ExportNode> }[];
  const s: ExportTextStats = {
    userChars: 0,
    userTokens: 0,
    assistantChars: 0,
    assistantTokens: 0,
    assistantTokensClipped: 0,
    assistantTurns: 0,
    assistantTurnsClipped: 0,
  };
  for (const c of conversations) {
    for (const node of Object.values(c.mapping)) {
      const m = node.message;
      if (!m) continue;
      const text = (m.content.parts ?? []).filter((p): p is string => typeof p === 'string').join('\n');
      if (m.author.role === 'user') {
        s.userChars += text.length;
        s.userTokens += input.count(text);
      }
      if (m.author.role !== 'assistant') continue;
      const kept = input.count(text.slice(0, input.clipChars));
      const rest = text.length > input.clipChars ? input.count(text.slice(input.clipChars)) : 0;
      s.assistantTurns++;
      s.assistantChars += text.length;
      s.assistantTokensClipped += kept;
      s.assistantTokens += kept + rest;
      if (rest > 0) s.assistantTurnsClipped++;
    }
  }
  return s;
}
