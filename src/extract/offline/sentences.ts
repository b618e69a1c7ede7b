/**
 * User text → sentences the pattern families can read. Code blocks, inline code, URLs, e-mail addresses, quoted
 * lines, code-looking lines, stack traces, long pasted material and the text after a request to work on it ("Proofread
 * this: …") are removed first: patterns run only on what the user wrote in their own words.
 */
import type { BatchEpisode } from '../types.js';
import type { Sentence } from './findings.js';
import { NAME_ABBREVIATIONS } from '../../domain/abbreviations.js';

/** A paragraph longer than this is treated as pasted material (an essay, a log, an article) and skipped. */
export const MAX_PARAGRAPH_CHARS = 1200;
/** A turn longer than this keeps only its first and last short paragraphs (the user's framing of a paste). */
export const MAX_TURN_CHARS = 5000;
/** Sentences longer than this are run-ons or pastes; they are skipped. */
const MAX_SENTENCE_CHARS = 600;

const FENCED_CODE = /```[\s\S]*?(?:```|$)|~~~[\s\S]*?(?:~~~|$)/g;
const INLINE_CODE = /`([^`\n]*)`/g;
const URL = /\b(?:https?:\/\/|www\.)[^\s<>()"']+/gi;
const EMAIL = /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g;
const LONG_QUOTE = /"[^"\n]{120,}"|“[^”\n]{120,}”/g;
const ABBREVIATIONS = new RegExp(
  String.raw`\b(?:${NAME_ABBREVIATIONS}|e\.g|i\.e|approx|No|Inc|Corp|Ltd|Co|Fig|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|U\.S|a\.m|p\.m)\.$`,
  'i',
);

/** Normalizes typography so patterns can use plain ASCII quotes and apostrophes. */
export function normalizeTypography(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u00a0/g, ' ')
    .replace(/\u2026/g, '...');
}

function looksLikeCode(line: string): boolean {
  const t = line.trim();
  if (t.length === 0) return false;
  if (
    /^(?:import|export|from|def|class|function|const|let|var|return|public|private|#include|SELECT|INSERT|UPDATE|CREATE|\$ |>>>|<\/?[a-z][^>]*>)\b/.test(
      t,
    )
  )
    return true;
  if (/^\s*(?:at\s+\S+\s+\(|File\s+"|Traceback|\w+Error:|\w+Exception\b)/.test(t)) return true;
  if (/^[\s{}()[\];,]+$/.test(t)) return true;
  const symbols = (t.match(/[{}();=<>[\]$\\|]/g) ?? []).length;
  return t.length >= 12 && symbols / t.length > 0.08;
}

/**
 * A request to work on a text, ending in a colon: what follows is the text (a draft, someone's e-mail, a passage to
 * translate), not the user telling of their life. "Proofread this:", "Can you rewrite my cover letter:", "Translate
 * to French:", "Write a reply to this email:", "Here is my draft:".
 */
const TEXT_TO_WORK_ON = new RegExp(
  String.raw`^(?:(?:hi|hey|hello|ok|okay|so)[,!.]*\s+)?(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|pls\s+)?` +
    String.raw`(?:(?:proofread|rewrite|re-write|rephrase|reword|paraphrase|edit\s+(?:this|that|my|the|it|these)|polish|translate|summari[sz]e|shorten|simplify|tidy up|clean up)\b` +
    String.raw`|(?:fix|correct|check)\s+(?:the\s+)?(?:grammar|spelling|wording|typos)\b` +
    String.raw`|(?:write|draft|compose)\s+(?:a|an|my)\s+(?:\w+\s+)?(?:reply|response|answer)\s+to\b` +
    String.raw`|here(?:'s| is)\s+(?:my|the|a|an)\s+(?:\w+\s+)?(?:draft|text|essay|e-?mail|letter|message|post|paragraph|story|article|speech|bio|resume|cv|script)\b)` +
    String.raw`[^:\n]{0,100}:`,
  'i',
);

/**
 * The user's own words of a turn that asks for work on a text: up to the request's colon, without the text after it
 * (in its paragraph and the paragraphs that follow). Other turns are returned as they are.
 */
export function withoutTextToWorkOn(paragraphs: string[]): string[] {
  for (const [at, paragraph] of paragraphs.entries()) {
    const lead = TEXT_TO_WORK_ON.exec(paragraph)?.[0];
    if (lead !== undefined) return [...paragraphs.slice(0, at), lead];
  }
  return paragraphs;
}

/** Removes what is not the user's prose; returns paragraphs of prose. */
export function cleanUserText(raw: string): string[] {
  let text = normalizeTypography(raw).replace(/\r\n?/g, '\n');
  text = text.replace(FENCED_CODE, '\n\n');
  text = text.replace(INLINE_CODE, (_m, inner: string) => (/^[\w.\-/@+#]{1,30}$/.test(inner) ? inner : ' '));
  text = text.replace(URL, ' ').replace(EMAIL, ' ').replace(LONG_QUOTE, ' ');
  const lines = text
    .split('\n')
    .filter((line) => !/^\s*>/.test(line) && !looksLikeCode(line))
    .map((line) => line.replace(/^\s*(?:#{1,6}\s+|[-*•]\s+|\d+[.)]\s+)/, '').replace(/\*\*|__/g, ''));
  let paragraphs = lines
    .join('\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0 && p.length <= MAX_PARAGRAPH_CHARS);
  if (raw.length > MAX_TURN_CHARS && paragraphs.length > 2) {
    const first = paragraphs[0];
    const last = paragraphs[paragraphs.length - 1];
    paragraphs = [first, last].filter((p): p is string => p !== undefined && p.length <= 600);
  }
  return withoutTextToWorkOn(paragraphs);
}

/** Splits a paragraph into sentences: on line breaks, and on . ! ? followed by a space and a capital. */
export function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  for (const line of paragraph.split('\n')) {
    let start = 0;
    const re = /[.!?]+["')\]]?(?=\s+["'([]?[A-Z0-9])|[.!?]+["')\]]?$/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(line)) !== null) {
      const end = m.index + m[0].length;
      const candidate = line.slice(start, end);
      if (m[0].startsWith('.') && m[0].length === 1 && (ABBREVIATIONS.test(candidate) || /\b[A-Z]\.$/.test(candidate)))
        continue;
      out.push(candidate);
      start = end;
    }
    out.push(line.slice(start));
  }
  return out
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .flatMap(splitTagQuestion)
    .filter((s) => /\p{L}/u.test(s) && s.length <= MAX_SENTENCE_CHARS);
}

/** A question after a dash is its own sentence: "I finished another pottery project - want to see a pic?". */
function splitTagQuestion(sentence: string): string[] {
  const m = /^([^?]{12,}?)\s[-–—]\s([^-–—]+\?)$/.exec(sentence);
  if (!m?.[1] || !m[2]) return [sentence];
  // "Is it the one - the blue one?" is one question.
  if (
    /^(?:should|could|would|can|do|does|did|is|are|was|were|will|which|what|how|why|who|where|when|have|has)\b/i.test(
      m[1],
    )
  )
    return [sentence];
  return [m[1].trim(), m[2].trim()];
}

/** All sentences of the user turns (and of every named human speaker's turns) of an episode, in order. */
export function episodeSentences(episode: BatchEpisode, selfName: string): Sentence[] {
  const out: Sentence[] = [];
  episode.turns.forEach((turn, turnIndex) => {
    // The user's turns; in a chat between people (LoCoMo, MemoryBank) every named speaker's turns.
    if (turn.role !== 'user' && !turn.speaker?.trim()) return;
    for (const paragraph of cleanUserText(turn.text)) {
      for (const text of splitSentences(paragraph)) {
        out.push({
          episodeId: episode.id,
          turn: turnIndex,
          index: out.length,
          text,
          time: turn.time ?? episode.createdAt,
          self: turn.speaker?.trim() || selfName,
        });
      }
    }
  });
  return out;
}
