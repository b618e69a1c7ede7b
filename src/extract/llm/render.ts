import { DAY_MS, localDayKey, localParts } from '../../domain/time.js';
import type { StateValue } from '../../domain/world.js';
import type { BatchEpisode, ExtractionBatch, Preamble, PreambleEntity } from '../types.js';

/**
 * Assistant turns longer than this are clipped (user turns never are). Assistant replies are most of a chat
 * export's text but rarely hold facts about the user, so clipping them is the main token saver.
 */
export const DEFAULT_CLIP_ASSISTANT_CHARS = 2_000;

export interface RenderOptions {
  /** Clip assistant turns to this many characters; null never clips. Default DEFAULT_CLIP_ASSISTANT_CHARS. */
  clipAssistantChars?: number | null;
}

/** The short id the model sees for the i-th conversation of a batch (c1, c2, …): cheaper and safer than UUIDs. */
export function episodeRef(index: number): string {
  return `c${index + 1}`;
}

const MAX_STATE_ATTRIBUTES = 8;
const MAX_VALUE_CHARS = 120;

function formatValue(value: StateValue): string {
  const text = value === null ? 'none' : String(value);
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

function formatEntity(entity: PreambleEntity): string {
  const aliases = entity.aliases.length > 0 ? ` (aka ${entity.aliases.join(', ')})` : '';
  const state = Object.entries(entity.state)
    .slice(0, MAX_STATE_ATTRIBUTES)
    .map(([key, value]) => `${key}: ${formatValue(value)}`)
    .join('; ');
  return `- ${entity.name} [${entity.type}]${aliases}${state ? ` — ${state}` : ''}`;
}

/** "earlier the same day", "3 days before", "2 weeks before", "5 months before", "2 years before". */
export function relativeBefore(input: { time: number; reference: number }): string {
  const days = Math.floor((input.reference - input.time) / DAY_MS);
  if (days < 0) return 'later the same day';
  if (days === 0) return 'earlier the same day';
  if (days === 1) return '1 day before';
  if (days < 14) return `${days} days before`;
  if (days < 60) return `${Math.round(days / 7)} weeks before`;
  if (days < 730) return `${Math.round(days / 30.44)} months before`;
  return `${Math.round(days / 365.25)} years before`;
}

/** The "Known world" section: each entity once, in the first list that holds it. */
export function renderPreamble(input: { preamble: Preamble; reference: number }): string {
  const { preamble } = input;
  const seen = new Set<string>();
  const section = (title: string, entities: PreambleEntity[]): string[] => {
    const fresh = entities.filter((e) => {
      const key = `${e.type}\u0000${e.name.toLowerCase()}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    return fresh.length > 0 ? [`${title}:`, ...fresh.map(formatEntity)] : [];
  };
  const lines = [
    ...(preamble.currentPeriod ? [`Current life period: ${preamble.currentPeriod}`] : []),
    ...section('Mentioned in these conversations', preamble.mentionedEntities),
    ...section('Recently active', preamble.recentEntities),
    ...section('Active projects', preamble.activeProjects),
  ];
  if (preamble.recentTransitions.length > 0) {
    lines.push('Recent changes:');
    for (const t of preamble.recentTransitions) {
      lines.push(
        `- ${relativeBefore({ time: t.eventTime, reference: input.reference })}: ${t.entityName} (${t.kind}) — ${t.summary}`,
      );
    }
  }
  if (lines.length === 0) return '# Known world\nNothing yet: every entity is new.';
  return ['# Known world (reuse these names)', ...lines].join('\n');
}

function formatLocalTime(ms: number, tz: string): string {
  const p = localParts(ms, tz);
  const weekday = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short' }).format(new Date(ms));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${weekday} ${localDayKey(ms, tz)} ${pad(p.hour)}:${pad(p.minute)}`;
}

export function clipText(input: { text: string; limit: number | null }): string {
  const { text, limit } = input;
  if (limit === null || text.length <= limit) return text;
  const omitted = text.length - limit;
  return `${text.slice(0, limit).trimEnd()} […${omitted} more characters of this reply omitted]`;
}

function speakerLabel(turn: BatchEpisode['turns'][number]): string {
  const role = turn.role === 'user' ? 'User' : 'Assistant';
  return turn.speaker ? `${role} (${turn.speaker})` : role;
}

export function renderConversation(input: {
  episode: BatchEpisode;
  index: number;
  tz: string;
  clipAssistantChars: number | null;
}): string {
  const { episode, tz } = input;
  const title = episode.title.trim() === '' ? '(untitled)' : episode.title.trim();
  const lines = [`## ${episodeRef(input.index)}: "${title}"`, `Date: ${formatLocalTime(episode.createdAt, tz)}`];
  for (const turn of episode.turns) {
    const text = turn.role === 'assistant' ? clipText({ text: turn.text, limit: input.clipAssistantChars }) : turn.text;
    lines.push(`${speakerLabel(turn)}: ${text.trim()}`);
  }
  return lines.join('\n');
}

/** The user message of extract-batch: the known world, then every conversation with its id, title and date. */
export function renderBatch(input: { batch: ExtractionBatch; options?: RenderOptions }): string {
  const { batch } = input;
  const clip = input.options?.clipAssistantChars;
  const clipAssistantChars = clip === undefined ? DEFAULT_CLIP_ASSISTANT_CHARS : clip;
  const conversations = batch.episodes.map((episode, index) =>
    renderConversation({ episode, index, tz: batch.tz, clipAssistantChars }),
  );
  const heading = `# Conversations (${batch.episodes.length}; local times in ${batch.tz})`;
  return [renderPreamble({ preamble: batch.preamble, reference: batch.date }), heading, ...conversations].join('\n\n');
}
