import { errorMessage } from '../domain/errors.js';
import { isSchemaEntity, type Entity } from '../domain/world.js';
import type { RawRow } from '../ports/maintenance-store.js';
import {
  changeLines,
  DEFAULT_DREAM_RULES,
  dreamable,
  entityKeys,
  entityLines,
  insightRows,
  normalizeText,
  pickClusters,
  procedureLines,
  type DreamRules,
  type ScoredNode,
} from './dreams.js';
import type { PhaseInput, PhaseResult, SleepPhase } from './phase.js';
import { DEEP_DREAM, MEGA_DREAM, type DreamInsights } from './prompts.js';

const NO_MODEL = 'needs a model: none is configured (pie sleep --llm provider:model, or PIE_LLM)';

/**
 * Entities as they stand now (earlier phases may have merged some away), scored with the cycle's importance and
 * tiers (already stored in a real run; planned in a dry run).
 */
async function scored(input: PhaseInput): Promise<ScoredNode[]> {
  const scores = new Map(input.salience.importance.map((c) => [c.entityId, c.to]));
  const tiers = new Map(input.salience.tiers.map((c) => [c.entityId, c.to]));
  const world = (await input.store.upkeep.graphNodes()).filter((n) => !isSchemaEntity(n));
  return dreamable(world, scores, tiers);
}

async function entitiesById(input: PhaseInput, ids: readonly string[]): Promise<Map<string, Entity>> {
  return new Map((await input.store.entities.getMany(ids)).map((e) => [e.id, e]));
}

async function knownTexts(input: PhaseInput, kind: string): Promise<Set<string>> {
  return new Set((await input.store.insights.list({ kind })).map((i) => normalizeText(i.text)));
}

async function store(input: PhaseInput, rows: readonly RawRow[]): Promise<void> {
  const journal = input.journal;
  if (journal === null) return;
  for (const row of rows) {
    const id = String(row.id);
    await journal.change('insights', id, () => input.store.upkeep.putRow({ table: 'insights', id, row }));
  }
}

/** Deep dreams: per cluster of related entities, the model's insights on them and their recent changes. */
export function deepDreamsPhase(rules: DreamRules = DEFAULT_DREAM_RULES): SleepPhase {
  return {
    name: 'deep dreams',
    scopes: ['full'],
    async run(input: PhaseInput): Promise<PhaseResult> {
      if (input.llm === null) return { changes: 0, skipped: NO_MODEL };
      const clusters = pickClusters({
        nodes: await scored(input),
        edges: await input.store.upkeep.graphEdges(),
        rules,
      });
      if (input.journal === null) {
        return { changes: 0, details: { clusters: clusters.length, note: 'a dry run calls no model' } };
      }
      const known = await knownTexts(input, 'deep');
      const issues: string[] = [];
      let stored = 0;
      for (const [i, members] of clusters.entries()) {
        input.onProgress?.(`deep dreams: cluster ${i + 1}/${clusters.length}`);
        const keys = entityKeys(members);
        const entities = await entitiesById(input, members);
        const recent = await input.store.transitions.list({
          entityIds: members,
          until: input.now + 1,
          order: 'desc',
          limit: rules.changes,
        });
        let answer: DreamInsights;
        try {
          const prompt = { cluster: entityLines(keys, entities), changes: changeLines(keys, [...recent].reverse()) };
          answer = (await input.llm.generate({ prompt: DEEP_DREAM, input: prompt })).object;
        } catch (error) {
          issues.push(
            `Deep dream on ${entities.get(members[0] ?? '')?.name ?? 'a cluster'} failed: ${errorMessage(error)}`,
          );
          continue;
        }
        const rows = insightRows({
          answer,
          keys,
          kind: 'deep',
          runId: input.runId,
          now: input.now,
          newId: input.newId,
          known,
        });
        await store(input, rows);
        stored += rows.length;
      }
      return { changes: stored, details: { clusters: clusters.length, insights: stored }, issues };
    },
  };
}

/** Mega dreams: cross-domain insights over the most important entities and the procedures. */
export function megaDreamsPhase(rules: DreamRules = DEFAULT_DREAM_RULES): SleepPhase {
  return {
    name: 'mega dreams',
    scopes: ['full'],
    async run(input: PhaseInput): Promise<PhaseResult> {
      if (input.llm === null) return { changes: 0, skipped: NO_MODEL };
      const top = (await scored(input)).slice(0, rules.megaEntities).map((n) => n.id);
      if (top.length < 2)
        return { changes: 0, details: { entities: top.length, note: 'too few entities to dream about' } };
      if (input.journal === null)
        return { changes: 0, details: { entities: top.length, note: 'a dry run calls no model' } };
      const keys = entityKeys(top);
      const procedures = (await input.store.procedures.list()).slice(0, rules.megaProcedures);
      let answer: DreamInsights;
      try {
        const prompt = {
          entities: entityLines(keys, await entitiesById(input, top)),
          procedures: procedureLines(procedures),
        };
        answer = (await input.llm.generate({ prompt: MEGA_DREAM, input: prompt })).object;
      } catch (error) {
        return { changes: 0, details: { entities: top.length }, issues: [`Mega dream failed: ${errorMessage(error)}`] };
      }
      const known = await knownTexts(input, 'mega');
      const rows = insightRows({
        answer,
        keys,
        kind: 'mega',
        runId: input.runId,
        now: input.now,
        newId: input.newId,
        known,
      });
      await store(input, rows);
      return {
        changes: rows.length,
        details: { entities: top.length, procedures: procedures.length, insights: rows.length },
      };
    },
  };
}
