import { z } from 'zod';
import type { Entity, Transition } from '../domain/world.js';
import { definePrompt } from '../llm/index.js';
import { utcDate } from '../domain/time.js';

/** What the model is shown of one entity of a candidate pair. */
export interface MergeSide {
  name: string;
  type: string;
  aliases: string[];
  state: Record<string, unknown>;
  firstSeen: string;
  lastSeen: string;
  /** The latest few changes, oldest first. */
  history: string[];
}

/** Changes shown per entity (the latest ones). */
const HISTORY_SHOWN = 5;

/** One side of the question, from the entity and its transitions (chronological). */
export function mergeSide(entity: Entity, transitions: readonly Transition[]): MergeSide {
  return {
    name: entity.name,
    type: entity.type,
    aliases: entity.aliases,
    state: entity.state,
    firstSeen: utcDate(entity.firstSeen),
    lastSeen: utcDate(entity.lastSeen),
    history: transitions.slice(-HISTORY_SHOWN).map((t) => `${utcDate(t.eventTime)} ${t.summary}`),
  };
}

function render(side: MergeSide, label: string): string {
  const lines = [
    `${label}: "${side.name}" (type: ${side.type})`,
    side.aliases.length > 0 ? `  also called: ${side.aliases.map((a) => `"${a}"`).join(', ')}` : '',
    Object.keys(side.state).length > 0 ? `  current state: ${JSON.stringify(side.state)}` : '',
    `  mentioned from ${side.firstSeen} to ${side.lastSeen}`,
    ...side.history.map((h) => `  - ${h}`),
  ];
  return lines.filter((l) => l.length > 0).join('\n');
}

/**
 * confirm-merge@1: the sleep cycle's duplicate check (KIP sleep phase 6: "a high score is similarity, not identity —
 * confirm before merging"). Unlike the resolver's verify-entity, both sides are known entities with histories, and
 * the model sees both. Asked once per candidate pair; answers are cached.
 */
export const CONFIRM_MERGE_PROMPT = definePrompt({
  name: 'confirm-merge',
  version: 1,
  schema: z.object({ same: z.boolean(), reason: z.string().nullish() }),
  maxOutputTokens: 200,
  render: (input: { a: MergeSide; b: MergeSide; why: string }) => [
    {
      role: 'system',
      content:
        "You maintain a person's memory of their life and work. Two entries may name the same real-world thing " +
        '(a project, person, tool …) recorded twice. Decide whether they are the same. Answer with JSON ' +
        '{"same": true|false, "reason": "..."}. Say true only when the names and histories show it is one thing; ' +
        'similar names alone are not enough, and two distinct things that are related (a product and its company, ' +
        'a project and its sub-project) are not the same.',
    },
    {
      role: 'user',
      content: `${render(input.a, 'Entry A')}\n\n${render(input.b, 'Entry B')}\n\nWhy they were paired: ${input.why}.`,
    },
  ],
});
