import {
  DEFAULT_MICRO_DREAM_RULES,
  dreamEligible,
  dreamtLink,
  pairKey,
  planMicroDreams,
  type EpisodeMentions,
  type MicroDreamRules,
} from './micro-dreams.js';
import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';

/** Phase 10A: RELATED_TO edges between entities often named together but not yet linked. */
export function microDreamsPhase(rules: MicroDreamRules = DEFAULT_MICRO_DREAM_RULES): SleepPhase {
  return {
    name: 'micro dreams',
    scopes: ['full'],
    async run(input: PhaseInput): Promise<PhaseResult> {
      const { store, journal, now } = input;
      // Periods are linked by DURING; the user is named everywhere; KIP's schema is protected; merged ones are gone.
      const eligibleIds = new Set(input.salience.nodes.filter(dreamEligible).map((n) => n.id));
      // Linked ever, not only now: two things named together while one used the other (an edge since ended) are
      // explained by that edge; a RELATED_TO from its start on would say they are still linked.
      const connected = new Set((await store.upkeep.linkedPairs()).map((e) => pairKey(e.sourceId, e.targetId)));
      // Each episode with the entities it names, in one read (not an object per mention: 240,000 on a large memory).
      const episodes: EpisodeMentions[] = (await store.mentions.episodeEntities()).filter(
        (e) => e.entityIds.length >= 2,
      );
      const plan = planMicroDreams({ episodes, now, eligible: (id) => eligibleIds.has(id), connected, rules });
      const details = {
        episodes: episodes.length - plan.laterEpisodes,
        laterEpisodes: plan.laterEpisodes,
        candidates: plan.candidates,
        alreadyConnected: plan.alreadyConnected,
        skippedEpisodes: plan.skippedEpisodes,
        discovered: plan.connections.length,
        pairs: plan.connections.slice(0, 50).map((p) => ({ a: p.a, b: p.b, count: p.count })),
      };
      if (journal === null) return { changes: plan.connections.length, details };
      for (const pair of plan.connections) {
        const relationship = dreamtLink({ pair, id: input.newId(), now });
        await journal.change('relationships', relationship.id, () => store.relationships.insert(relationship));
      }
      return { changes: plan.connections.length, details };
    },
  };
}
