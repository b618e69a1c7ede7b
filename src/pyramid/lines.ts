/**
 * The summary line format of the spec: "[N] text", N the importance (1–10), optionally with inline emphasis
 * (IMPORTANT:, CRITICAL:, ESSENTIAL:). Pure functions.
 */
export interface SummaryLine {
  importance: number;
  text: string;
  /** Event time (observations) or window start (summaries): ties keep time order. */
  time: number;
}

const LINE = /^\s*\[(\d{1,2})\]\s*(.+?)\s*$/;
const EMPHASIS = /^(IMPORTANT|CRITICAL|ESSENTIAL):/;

export function clampImportance(n: number): number {
  return Math.min(10, Math.max(1, Math.round(n)));
}

/** One line; importance 9–10 gets CRITICAL: unless the text already carries emphasis. */
export function formatLine(importance: number, text: string): string {
  const n = clampImportance(importance);
  const clean = text.replace(/\s+/g, ' ').trim();
  return `[${n}] ${n >= 9 && !EMPHASIS.test(clean) ? `CRITICAL: ${clean}` : clean}`;
}

/** The "[N] text" lines of a summary (other lines are dropped). */
export function parseLines(text: string, time = 0): SummaryLine[] {
  const out: SummaryLine[] = [];
  for (const raw of text.split('\n')) {
    const m = LINE.exec(raw);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      out.push({ importance: clampImportance(Number(m[1])), text: m[2], time });
    }
  }
  return out;
}

const key = (text: string): string =>
  text
    .replace(EMPHASIS, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The deterministic summary (no model): duplicate lines merged (keeping the highest importance), then the
 * `maxLines` most important, most important first, ties in time order.
 */
export function selectLines(lines: readonly SummaryLine[], maxLines: number): SummaryLine[] {
  const best = new Map<string, SummaryLine>();
  for (const line of lines) {
    const k = key(line.text);
    const seen = best.get(k);
    if (!seen || line.importance > seen.importance) best.set(k, seen ? { ...line, time: seen.time } : line);
  }
  return [...best.values()]
    .sort((a, b) => b.importance - a.importance || a.time - b.time || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .slice(0, maxLines);
}

export function renderLines(lines: readonly SummaryLine[]): string {
  return lines.map((l) => formatLine(l.importance, l.text)).join('\n');
}

/** Lines kept per summary without a model: tier 0 keeps 8, each tier above 2 more, at most 14. */
export function linesForTier(tier: number): number {
  return Math.min(14, 8 + 2 * tier);
}
