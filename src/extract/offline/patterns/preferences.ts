/**
 * Preferences: "I prefer X (over|to|rather than Y) (for Z)", "I'd rather X than Y". A preference becomes an entity
 * of type preference named "prefers X over Y", with the preferred thing, the rejected one and the context in its
 * state; when X is a tool, the user PREFERS it.
 */
import type { EntityFinding, Findings, RelationshipFinding } from '../findings.js';
import { clip, cutClause } from '../names.js';
import { isQuestion, mentionOf, unmaskSurface, type PatternContext } from './context.js';

const PREFER =
  /\bI\s+(?:really\s+|strongly\s+|generally\s+|still\s+|much\s+|definitely\s+|usually\s+|now\s+)?prefer\s+(.+)$/i;
const RATHER = /\bI'd\s+(?:much\s+)?rather\s+(.+?)\s+than\s+(.+)$/i;
const OVER = /\s+(?:over|rather than|instead of)\s+|\s+to\s+(?=(?:plain\s+|regular\s+)?⟦)/i;
const CONTEXT = /\s+(?:for|when|in)\s+((?:anything|everything|my|our|the|a|an|projects?|work|code)\b[^,.;!?]{0,80})/i;
const END =
  /\s*(?:[;:!?]|\.(?:\s|$)|,\s+(?:and|but|so|since|because|which)\s+|,\s+so\b|\s+(?:because|since|but)\s+|\s+—\s+|\s+-\s+)/i;

export function findPreferences(ctx: PatternContext): Partial<Findings> {
  const { s } = ctx;
  if (isQuestion(s)) return {};
  const masked = s.masked;
  let preferred: string;
  let over: string | null = null;
  const prefer = PREFER.exec(masked);
  const rather = prefer ? null : RATHER.exec(masked);
  if (prefer) {
    let rest = cutClause(prefer[1] ?? '', END);
    const context = CONTEXT.exec(rest);
    if (context) rest = rest.slice(0, context.index);
    const split = OVER.exec(rest);
    preferred = split ? rest.slice(0, split.index) : rest;
    if (split) over = rest.slice(split.index + split[0].length);
  } else if (rather) {
    preferred = cutClause(rather[1] ?? '', END);
    over = cutClause(rather[2] ?? '', END);
  } else {
    return {};
  }
  preferred = preferred.replace(/^to\s+/i, '').trim();
  if (preferred.split(/\s+/).length > 14 || preferred.length < 2 || /^(?:it|this|that|them)\b/i.test(preferred))
    return {};
  const words = (m: string): string => clip(unmaskSurface(s, m).trim(), 100);
  const contextMatch = prefer ? CONTEXT.exec(cutClause(prefer[1] ?? '', END)) : null;
  const name = `prefers ${words(preferred)}${over ? ` over ${words(over)}` : ''}`;
  const state: Record<string, string> = { preferred: words(preferred) };
  if (over) state.over = words(over);
  if (contextMatch?.[1]) state.context = clip(contextMatch[1].trim(), 100);
  const entity: EntityFinding = { name, type: 'preference', aliases: [], state, episodeId: s.episodeId };
  const relationships: RelationshipFinding[] = [];
  const single = /^\s*(?:plain\s+|regular\s+)?⟦(\d+)⟧\s*$/.exec(preferred);
  const tool = mentionOf(s, single?.[1]);
  if (tool && tool.type === 'tool') {
    const overTool = over ? mentionOf(s, /⟦(\d+)⟧/.exec(over)?.[1]) : undefined;
    relationships.push({
      source: s.self,
      target: tool.name,
      type: 'PREFERS',
      properties: overTool ? { over: overTool.name } : {},
      ended: false,
      confidence: 0.8,
      episodeId: s.episodeId,
    });
  }
  return { entities: [entity], relationships };
}
