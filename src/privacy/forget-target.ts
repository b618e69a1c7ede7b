import { PieError } from '../domain/errors.js';
import { textForms } from '../domain/text-match.js';
import type { Entity } from '../domain/world.js';
import type { ForgetSeeds, ScannedEpisode, TurnMatch } from '../ports/forget-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { normalizeName } from '../resolve/normalize.js';
import { findEntity } from '../world/lookup.js';
import { keptAlways } from './forget-world.js';

/** What `pie forget <target>` names. Without a kind: a conversation id, an entity, a conversation title, else text. */
export const FORGET_KINDS = ['entity', 'conversation', 'text'] as const;
export type ForgetKind = (typeof FORGET_KINDS)[number];

/** Shorter texts would match too much to be meant. */
export const MIN_FORGET_TEXT = 3;

export type ForgetTarget =
  | { kind: 'entity'; asked: string; entity: Entity }
  | { kind: 'conversation'; asked: string; episodes: ScannedEpisode[] }
  | { kind: 'text'; asked: string; turns: TurnMatch[] };

/**
 * Resolves what a person asked to forget. Without a kind: an episode id, then an entity (its id, or its name or an
 * alias resolved as every command resolves names), then a conversation whose title is exactly the text, else the
 * turns that contain the text. A text that is both an entity's name and a conversation's title is refused with the
 * two choices, since forgetting the wrong one cannot be undone.
 */
export async function resolveForgetTarget(input: {
  store: WorldStore;
  target: string;
  kind?: ForgetKind | undefined;
}): Promise<ForgetTarget> {
  const { store, kind } = input;
  const asked = input.target.trim();
  if (asked === '') {
    throw new PieError(
      'INVALID_ARGUMENT',
      "Say what to forget: an entity's name, a conversation's id or title, or a text to find in conversations.",
    );
  }
  if (kind === 'text') return textTarget(store, asked);
  if (kind !== 'entity') {
    const episode = await store.episodes.get(asked);
    if (episode) {
      const { id, title, summary, createdAt, turnCount } = episode;
      return { kind: 'conversation', asked, episodes: [{ id, title, summary, createdAt, turnCount }] };
    }
  }
  const entity = kind === 'conversation' ? null : await entityNamed(store, asked);
  const titled = kind === 'entity' ? [] : await store.forget.episodesTitled(asked);
  if (entity && titled.length > 0) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${asked}" is both an entity (${entity.type}) and the title of ${titled.length === 1 ? 'a conversation' : `${titled.length} conversations`}; say which to forget with --kind entity or --kind conversation.`,
    );
  }
  if (entity) return { kind: 'entity', asked, entity: guardEntity(entity) };
  if (titled.length > 0) return { kind: 'conversation', asked, episodes: titled };
  if (kind === 'entity')
    return { kind: 'entity', asked, entity: guardEntity(await findEntity({ store, name: asked })) };
  if (kind === 'conversation') {
    throw new PieError(
      'NOT_FOUND',
      `No conversation has the id or the title "${asked}" (pie search finds it by words).`,
    );
  }
  return textTarget(store, asked);
}

async function entityNamed(store: WorldStore, name: string): Promise<Entity | null> {
  const byId = await store.entities.get(name);
  if (byId) return byId;
  const key = normalizeName(name);
  if (key === '' || (await store.entities.findByKey(key)).length === 0) return null;
  return findEntity({ store, name });
}

function guardEntity(entity: Entity): Entity {
  if (keptAlways(entity)) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `${entity.name} (${entity.type}) ${entity.protected ? "is part of KIP's core schema" : 'is you, the user'} and cannot be forgotten; forget a conversation or a text instead.`,
    );
  }
  return entity;
}

async function textTarget(store: WorldStore, text: string): Promise<ForgetTarget> {
  if (text.length < MIN_FORGET_TEXT) {
    throw new PieError(
      'INVALID_ARGUMENT',
      `"${text}" is too short to forget by text (it would match too much); give at least ${MIN_FORGET_TEXT} characters.`,
    );
  }
  // No turn may hold it while other rows do (an observation from pie observe, a summary): the plan finds those.
  const turns = await store.forget.turnsContaining(textForms(text));
  return { kind: 'text', asked: text, turns };
}

/** A text target whose plan removes nothing: nothing stored holds the text anywhere. */
export function nothingHolds(text: string): PieError {
  return new PieError(
    'NOT_FOUND',
    `Nothing stored is called "${text}" or contains it: no entity, no conversation id or title, no turn and no other stored text.`,
  );
}

/** Where a forget starts: a conversation whose every turn holds the text goes whole, like a named conversation. */
export function seedsOf(target: ForgetTarget): ForgetSeeds {
  switch (target.kind) {
    case 'entity':
      return { episodeIds: [], turns: [], entityIds: [target.entity.id], text: [] };
    case 'conversation':
      return { episodeIds: target.episodes.map((e) => e.id), turns: [], entityIds: [], text: [] };
    case 'text': {
      const byEpisode = new Map<string, TurnMatch[]>();
      for (const t of target.turns) byEpisode.set(t.episodeId, [...(byEpisode.get(t.episodeId) ?? []), t]);
      const whole = [...byEpisode].filter(([, turns]) => turns.length >= (turns[0]?.turnCount ?? 0));
      const wholeIds = new Set(whole.map(([id]) => id));
      return {
        episodeIds: [...wholeIds],
        turns: target.turns.filter((t) => !wholeIds.has(t.episodeId)).map(({ episodeId, seq }) => ({ episodeId, seq })),
        entityIds: [],
        text: textForms(target.asked),
      };
    }
  }
}
