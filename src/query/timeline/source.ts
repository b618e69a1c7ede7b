import { PieError } from '../../domain/errors.js';
import type { StoredTurn, Transition } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';

/** Where a change was said: its conversation and the turn that best matches it (an excerpt around the match). */
export interface MarkSource {
  id: string;
  kind: Transition['kind'];
  summary: string;
  time: number;
  from: Transition['fromState'];
  to: Transition['toState'];
  contradiction: boolean;
  entity: { id: string; name: string; type: string };
  episode: { id: string; title: string; time: number } | null;
  turn: { seq: number; role: StoredTurn['role']; text: string; truncated: boolean } | null;
}

const EXCERPT = 320;

/**
 * The source of one transition for a preview: its episode and the turn that names the most of what changed (the
 * entity's name and aliases and the new values; the first user turn when none does), cut to an excerpt around the
 * first match. Unknown id → NOT_FOUND.
 */
export async function markSource(input: { store: WorldStore; transitionId: string }): Promise<MarkSource> {
  const { store } = input;
  const [t] = await store.transitions.getMany([input.transitionId]);
  if (!t) throw new PieError('NOT_FOUND', `No change (transition) "${input.transitionId}".`);
  const entity = await store.entities.get(t.entityId);
  if (!entity) throw new PieError('NOT_FOUND', `The entity of change "${t.id}" no longer exists.`);
  const episode = t.episodeId === null ? null : await store.episodes.get(t.episodeId);
  const turns = episode ? await store.episodes.turns(episode.id) : [];
  const needles = [
    entity.name,
    ...entity.aliases,
    ...Object.values(t.toState).map((v) => (v === null ? '' : String(v))),
  ]
    .map((x) => x.trim().toLowerCase())
    .filter((x) => x.length > 1);
  const turn = bestTurn(turns, needles);
  return {
    id: t.id,
    kind: t.kind,
    summary: t.summary,
    time: t.eventTime,
    from: t.fromState,
    to: t.toState,
    contradiction: t.kind === 'contradiction',
    entity: { id: entity.id, name: entity.name, type: entity.type },
    episode: episode ? { id: episode.id, title: episode.title, time: episode.createdAt } : null,
    turn: turn ? { seq: turn.seq, role: turn.role, ...excerpt(turn.text, needles) } : null,
  };
}

/** The turn naming the most needles (values count once each); ties go to the earlier turn, none to the first user turn. */
export function bestTurn(turns: readonly StoredTurn[], needles: readonly string[]): StoredTurn | null {
  let best: StoredTurn | null = null;
  let bestScore = 0;
  for (const turn of turns) {
    const text = turn.text.toLowerCase();
    const score = needles.filter((n) => text.includes(n)).length;
    if (score > bestScore) {
      best = turn;
      bestScore = score;
    }
  }
  return best ?? turns.find((x) => x.role === 'user') ?? turns[0] ?? null;
}

/** At most EXCERPT characters of `text`, around the first needle it contains, cut at word boundaries. */
export function excerpt(text: string, needles: readonly string[]): { text: string; truncated: boolean } {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= EXCERPT) return { text: clean, truncated: false };
  const lower = clean.toLowerCase();
  const hits = needles.map((n) => lower.indexOf(n)).filter((i) => i >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  let start = Math.max(0, Math.min(at - EXCERPT / 3, clean.length - EXCERPT));
  if (start > 0) start = clean.indexOf(' ', start) + 1 || start;
  let end = Math.min(clean.length, start + EXCERPT);
  if (end < clean.length) end = clean.lastIndexOf(' ', end) > start ? clean.lastIndexOf(' ', end) : end;
  return {
    text: `${start > 0 ? '… ' : ''}${clean.slice(start, end)}${end < clean.length ? ' …' : ''}`,
    truncated: true,
  };
}
