import type { Entity, Transition } from '../domain/world.js';
import { journaledRun } from '../metabolism/journal.js';
import { findDuplicateCandidates, withoutKeptApart } from '../metabolism/duplicates.js';
import { mergeEntities } from '../metabolism/merge-entities.js';
import type { WorldStore } from '../ports/world-store.js';
import { entityContext } from './context.js';
import {
  conflictingFactFindings,
  duplicateFindings,
  provenanceFindings,
  staleCommitmentFindings,
  unchangedTransitionFindings,
  type Finding,
} from './detectors.js';
import { junkReason } from './junk.js';

export const AUDIT_LOG_KIND = 'audit';

export interface AuditReport {
  entities: number;
  findings: Finding[];
  /** Findings per kind. */
  counts: Record<string, number>;
}

/**
 * The memory audit (docs/audit.md): junk entities, likely duplicates, entities without provenance, transitions
 * that changed nothing, conflicting current facts, stale open commitments. Reads only.
 */
export async function auditWorld(input: { store: WorldStore; now: number }): Promise<AuditReport> {
  const { store, now } = input;
  const entities = (await store.entities.list({ excludeMerged: true })).filter((e) => e.tier !== 'archived');
  const byId = new Map(entities.map((e) => [e.id, e]));
  const transitions = await store.transitions.list();
  const findings: Finding[] = [];
  const mentioned = new Set<string>();
  const context = entityContext(store);
  for (const e of entities) {
    const ctx = await context.of(e);
    if (ctx.mentioned) mentioned.add(e.id);
    const junk = junkReason(e, ctx.sentences);
    if (junk) {
      findings.push({
        kind: 'junk',
        entity: { id: e.id, name: e.name, type: e.type },
        why: junk.why,
        action: junk.action,
        safe: !e.protected,
        source: ctx.source,
      });
    }
  }
  const junkIds = new Set(findings.map((f) => f.entity.id));
  const candidates = withoutKeptApart(
    findDuplicateCandidates(
      entities
        .filter((e) => !e.protected && !junkIds.has(e.id))
        .map((e) => ({ id: e.id, type: e.type, name: e.name, aliases: e.aliases })),
    ).candidates,
    byId,
  );
  findings.push(...duplicateFindings({ candidates, byId }));
  const withSourcedChange = new Set(transitions.filter((t) => t.episodeId !== null).map((t) => t.entityId));
  findings.push(...provenanceFindings({ entities, mentioned, withSourcedChange }));
  findings.push(...unchangedTransitionFindings({ transitions, byId }));
  const contradictionsOf = new Map<string, Transition[]>();
  for (const t of transitions) {
    if (t.kind === 'contradiction') contradictionsOf.set(t.entityId, [...(contradictionsOf.get(t.entityId) ?? []), t]);
  }
  for (const e of entities) {
    const current = await store.facts.current(e.id);
    findings.push(...conflictingFactFindings({ entity: e, current, contradictions: contradictionsOf.get(e.id) ?? [] }));
  }
  findings.push(...staleCommitmentFindings({ entities, now }));
  for (const f of findings)
    if (f.source === null && byId.has(f.entity.id))
      f.source = (await context.of(byId.get(f.entity.id) as Entity)).source;
  const counts: Record<string, number> = {};
  for (const f of findings) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  return { entities: entities.length, findings, counts };
}

export interface AuditFixReport {
  runId: string;
  applied: { archived: number; retyped: number; merged: number };
  journaled: number;
}

/**
 * Applies the safe actions of an audit as one maintenance run (kind "audit"), every row journaled as a sleep does,
 * so `pie undo <run-id>` puts the world back exactly: junk archived (with an archival transition saying why),
 * wrong types corrected, exact duplicates merged (both histories kept).
 */
export async function applyAuditFixes(input: {
  store: WorldStore;
  findings: readonly Finding[];
  now: number;
  runId: string;
  newId: () => string;
}): Promise<AuditFixReport> {
  const { now, runId } = input;
  const safe = input.findings.filter((f) => f.safe);
  return journaledRun({
    store: input.store,
    runId,
    kind: AUDIT_LOG_KIND,
    now,
    work: async (tx, journal) => {
      const applied = { archived: 0, retyped: 0, merged: 0 };
      const gone = new Set<string>();
      for (const f of safe) {
        if (gone.has(f.entity.id)) continue;
        const entity = await tx.entities.get(f.entity.id);
        if (!entity || entity.tier === 'archived') continue;
        if (f.action.kind === 'archive') {
          const t = auditArchival({ id: input.newId(), entity, why: f.why, now });
          await journal.change('transitions', t.id, () => tx.transitions.insert(t));
          await journal.change('entities', entity.id, async () => {
            await tx.entities.update(entity.id, { tier: 'archived', updatedAt: now });
          });
          applied.archived += 1;
          gone.add(entity.id);
        } else if (f.action.kind === 'retype') {
          const type = f.action.type;
          await journal.change('entities', entity.id, async () => {
            await tx.entities.update(entity.id, { type, updatedAt: now });
          });
          applied.retyped += 1;
        } else if (f.action.kind === 'merge') {
          const canonical = await tx.entities.get(f.action.into.id);
          if (!canonical || gone.has(canonical.id)) continue;
          await mergeEntities({
            store: tx,
            journal,
            canonical,
            duplicate: entity,
            now,
            newId: input.newId,
            reason: `audit: ${f.why}`,
          });
          applied.merged += 1;
          gone.add(entity.id);
        }
      }
      return { runId, applied };
    },
  });
}

function auditArchival(input: { id: string; entity: Entity; why: string; now: number }): Transition {
  return {
    id: input.id,
    entityId: input.entity.id,
    kind: 'archival',
    fromState: input.entity.state,
    toState: input.entity.state,
    summary: `Archived by the audit: ${input.why}.`,
    eventTime: input.now,
    recordedAt: input.now,
    confidence: 1,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
  };
}
