import { MAINTENANCE_KINDS, type Entity, type StateValue } from '../domain/world.js';
import { DEFAULT_COMMITMENT_RULES, judgeCommitment, type CommitmentRules } from './commitments.js';
import { capIssues } from './issues.js';
import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';
import { journaledStateChange } from './state-change.js';

/** Commitments examined per run at most (the rest wait for the next run). */
const MAX_COMMITMENTS = 5_000;

function label(e: Entity): string {
  const to = e.state.to;
  return `"${e.name}"${typeof to === 'string' && to !== '' ? ` (to ${to})` : ''}`;
}

function dueText(v: StateValue | undefined): string {
  return typeof v === 'string' ? v : String(v);
}

/** Phase 5C: open commitments past due are surfaced; long-abandoned ones expire; kept ones become fulfilled. */
export function commitmentsSweepPhase(rules: CommitmentRules = DEFAULT_COMMITMENT_RULES): SleepPhase {
  return {
    name: 'commitments sweep',
    scopes: ['full'],
    async run(input: PhaseInput): Promise<PhaseResult> {
      const { store, journal, now } = input;
      const commitments = await store.entities.list({
        type: 'commitment',
        orderBy: 'name',
        limit: MAX_COMMITMENTS,
        excludeMerged: true,
      });
      const counts = {
        commitments: commitments.length,
        open: 0,
        pending: 0,
        undated: 0,
        overdue: 0,
        expired: 0,
        fulfilled: 0,
      };
      const issues: string[] = [];
      let changes = 0;
      for (const entity of commitments) {
        if (entity.protected) continue;
        // The cycle's own records (summaries, archival) are not activity.
        const transitions = (await store.transitions.forEntity(entity.id)).filter(
          (t) => !MAINTENANCE_KINDS.has(t.kind),
        );
        const mentions = await store.mentions.forEntity(entity.id);
        const lastActivity = Math.max(
          entity.lastSeen,
          ...transitions.map((t) => t.eventTime),
          ...mentions.map((m) => m.time),
        );
        const verdict = judgeCommitment({ state: entity.state, transitions, lastActivity, now, rules });
        if (verdict.kind === 'not-open') continue;
        counts.open += 1;
        counts[verdict.kind] += 1;
        const due = dueText(entity.state.due ?? entity.state.deadline);
        if (verdict.kind === 'overdue') {
          issues.push(`Overdue commitment ${label(entity)}: due ${due}, ${verdict.daysPast} days ago`);
          continue;
        }
        if (verdict.kind !== 'expired' && verdict.kind !== 'fulfilled') continue;
        changes += 1;
        if (journal === null) continue;
        const change =
          verdict.kind === 'expired'
            ? {
                value: 'expired',
                time: now,
                reason: `${verdict.daysPast} days past due (${due}) with no activity since`,
                episodeId: null,
              }
            : {
                value: 'fulfilled',
                time: verdict.evidence.eventTime,
                reason: `kept: ${verdict.evidence.summary}`,
                episodeId: verdict.evidence.episodeId,
              };
        await journaledStateChange({
          tx: store,
          journal,
          newId: input.newId,
          entity,
          attribute: 'status',
          ...change,
          now,
          confidence: 0.85,
        });
      }
      return { changes, details: counts, issues: capIssues(issues) };
    },
  };
}
