import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';
import { DEFAULT_PERIOD_RULES, refinePeriod, type PeriodRefinement, type PeriodRules } from './periods.js';
import { utcDate } from '../domain/time.js';

function span(p: { start: number; end: number | null }): string {
  return `${utcDate(p.start)} – ${p.end === null ? 'ongoing' : utcDate(p.end)}`;
}

/**
 * Refines period boundaries from their evidence (see periods.ts), one journaled `periods` row per refined period
 * (keyed by its entity id), so `pie undo` puts the old boundaries back.
 */
export function periodRefinementPhase(rules: PeriodRules = DEFAULT_PERIOD_RULES): SleepPhase {
  return {
    name: 'period refinement',
    scopes: ['full'],
    async run(input: PhaseInput): Promise<PhaseResult> {
      const { store } = input;
      const refinements: PeriodRefinement[] = [];
      const periods = await store.periods.list();
      for (const period of periods) {
        const mentions = await store.mentions.forEntity(period.entityId);
        const during = await store.relationships.forEntity(period.entityId);
        const evidence = during
          .filter((r) => r.type === 'DURING' && r.targetId === period.entityId)
          .map((r) => r.validFrom);
        const refinement = refinePeriod({ period, evidence, mentions: mentions.map((m) => m.time), rules });
        if (refinement !== null) refinements.push(refinement);
      }
      const details = {
        periods: periods.length,
        refined: refinements.map(
          (r) => `${r.name}: ${span(r.from)} → ${span(r.to)} (${r.evidence} pieces of evidence)`,
        ),
      };
      const { journal } = input;
      if (journal !== null) {
        for (const r of refinements) {
          await journal.change('periods', r.entityId, () =>
            store.periods.upsert({ entityId: r.entityId, name: r.name, start: r.to.start, end: r.to.end }),
          );
        }
      }
      return { changes: refinements.length, details };
    },
  };
}
