import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Procedure, Transition } from '../domain/world.js';
import { definePrompt } from '../llm/index.js';
import { utcDate } from '../domain/time.js';

/** Id prefix of procedures a model extracted (the deterministic miner's are `proc-…`). */
export const LLM_PROCEDURE_PREFIX = 'llmproc-';
/** Lifecycles shown to the model per cycle: the longest ones, each clipped. */
export const MAX_LIFECYCLES = 40;
const MAX_STEPS_SHOWN = 12;

export interface NamedLifecycle {
  entityId: string;
  name: string;
  type: string;
  transitions: readonly Pick<Transition, 'kind' | 'summary' | 'eventTime' | 'episodeId'>[];
}

const procedureSchema = z.object({
  procedures: z.array(
    z.object({
      description: z.string().min(1),
      steps: z.array(z.string().min(1)).min(2).max(8),
      domain: z.string().min(1),
      /** Names of the entities whose histories show the pattern, as written in the input. */
      evidence: z.array(z.string()).min(1),
      confidence: z.number().min(0).max(1),
    }),
  ),
});

export type ExtractedProcedures = z.infer<typeof procedureSchema>;

/** The lifecycles worth showing (3+ changes of the user's own history), longest first, in a stable order. */
export function pickLifecycles(all: readonly NamedLifecycle[]): NamedLifecycle[] {
  return all
    .map((l) => ({ ...l, transitions: l.transitions.filter((t) => t.kind !== 'summary' && t.kind !== 'archival') }))
    .filter((l) => l.transitions.length >= 3)
    .sort((a, b) => b.transitions.length - a.transitions.length || a.entityId.localeCompare(b.entityId))
    .slice(0, MAX_LIFECYCLES);
}

/** One block per lifecycle: `## name (type)` then its dated changes, oldest first. */
export function renderLifecycles(list: readonly NamedLifecycle[]): string {
  return list
    .map((l) =>
      [
        `## ${l.name} (${l.type})`,
        ...l.transitions.slice(0, MAX_STEPS_SHOWN).map((t) => `- ${utcDate(t.eventTime)} [${t.kind}] ${t.summary}`),
      ].join('\n'),
    )
    .join('\n\n');
}

/** extract-procedures@1: recurring patterns in how the user's projects, beliefs and decisions evolve. */
export const EXTRACT_PROCEDURES_PROMPT = definePrompt({
  name: 'extract-procedures',
  version: 1,
  schema: procedureSchema,
  maxOutputTokens: 2000,
  render: (input: { lifecycles: string }) => [
    {
      role: 'system',
      content:
        'You find procedures: recurring sequences in how one person works, shown by the histories of several of ' +
        'their projects, beliefs, tools or decisions (e.g. "idea → research → prototype → pivot"). Report only ' +
        'patterns that at least two histories show; name those histories in evidence exactly as written after ' +
        '"##". Steps are short verb phrases in order. Answer with JSON {"procedures": [{"description", "steps", ' +
        '"domain", "evidence", "confidence"}]}; an empty list when nothing recurs.',
    },
    { role: 'user', content: input.lifecycles },
  ],
});

/**
 * The model's procedures as stored procedures (pure): evidence names are matched back to the lifecycles shown
 * (unknown names dropped; fewer than two known histories → no procedure), times come from those histories, the id
 * is a hash of domain and steps so a later cycle updates rather than duplicates.
 */
export function proceduresFromAnswer(input: {
  answer: ExtractedProcedures;
  lifecycles: readonly NamedLifecycle[];
}): Procedure[] {
  const byName = new Map(input.lifecycles.map((l) => [l.name.trim().toLowerCase(), l]));
  const out = new Map<string, Procedure>();
  for (const p of input.answer.procedures) {
    const evidence = [...new Set(p.evidence.map((n) => byName.get(n.trim().toLowerCase())).filter((l) => l))];
    if (evidence.length < 2) continue;
    const times = evidence.flatMap((l) => (l?.transitions ?? []).map((t) => t.eventTime));
    const episodes = evidence.flatMap((l) => (l?.transitions ?? []).flatMap((t) => (t.episodeId ? [t.episodeId] : [])));
    const steps = p.steps.map((s) => s.trim());
    const domain = p.domain.trim().toLowerCase();
    const id = `${LLM_PROCEDURE_PREFIX}${createHash('sha256')
      .update(`${domain}\n${steps.join('\n').toLowerCase()}`)
      .digest('hex')
      .slice(0, 16)}`;
    out.set(id, {
      id,
      description: p.description.trim(),
      pattern: steps,
      evidence: [...evidence.map((l) => l?.entityId ?? ''), ...new Set(episodes)],
      timesObserved: evidence.length,
      firstObserved: Math.min(...times),
      lastObserved: Math.max(...times),
      domain,
      confidence: Math.round(p.confidence * 100) / 100,
    });
  }
  return [...out.values()].sort((a, b) => a.id.localeCompare(b.id));
}
