import type { Entity, Fact, Relationship, Transition } from '../../../domain/world.js';
import type { EntityInsert, EntityPatch, JournalEntry, WorldStore } from '../../../ports/world-store.js';

/**
 * Every write KIP makes, through the store port inside the command's transaction, each with a journal entry
 * (table, row, before, after) under the command's run id, so that a KIP change can be reviewed and reverted.
 */
export class KipWriter {
  private seq = 0;
  readonly counts: Record<string, number> = {};

  constructor(
    readonly tx: WorldStore,
    readonly runId: string,
    readonly now: number,
  ) {}

  private async journal(entry: Omit<JournalEntry, 'runId' | 'seq' | 'at'>): Promise<void> {
    const key = `${entry.table}.${entry.op}`;
    this.counts[key] = (this.counts[key] ?? 0) + 1;
    await this.tx.journal.append({ ...entry, runId: this.runId, seq: this.seq++, at: this.now });
  }

  async insertEntity(input: EntityInsert): Promise<Entity> {
    const entity = await this.tx.entities.insert(input);
    await this.journal({ table: 'entities', rowId: entity.id, op: 'insert', before: null, after: entity });
    return entity;
  }

  async updateEntity(before: Entity, patch: EntityPatch): Promise<Entity> {
    const after = await this.tx.entities.update(before.id, patch);
    await this.journal({ table: 'entities', rowId: before.id, op: 'update', before, after });
    return after;
  }

  async addAlias(input: { entityId: string; alias: string; normalized: string }): Promise<void> {
    await this.tx.entities.addAlias({ ...input, recordedAt: this.now });
    await this.journal({
      table: 'entity_aliases',
      rowId: `${input.entityId}|${input.normalized}`,
      op: 'insert',
      before: null,
      after: input,
    });
  }

  async insertFact(fact: Fact): Promise<void> {
    await this.tx.facts.insert(fact);
    await this.journal({ table: 'facts', rowId: fact.id, op: 'insert', before: null, after: fact });
  }

  async closeFact(fact: Fact, supersededBy: string | null, validTo = this.now): Promise<void> {
    await this.tx.facts.close({ id: fact.id, validTo, supersededBy });
    await this.journal({
      table: 'facts',
      rowId: fact.id,
      op: 'update',
      before: fact,
      after: { ...fact, validTo, supersededBy },
    });
  }

  async insertTransition(transition: Transition): Promise<void> {
    await this.tx.transitions.insert(transition);
    await this.journal({ table: 'transitions', rowId: transition.id, op: 'insert', before: null, after: transition });
  }

  async insertRelationship(rel: Relationship): Promise<void> {
    await this.tx.relationships.insert(rel);
    await this.journal({ table: 'relationships', rowId: rel.id, op: 'insert', before: null, after: rel });
  }

  async closeRelationship(rel: Relationship): Promise<void> {
    await this.tx.relationships.close({ id: rel.id, validTo: this.now });
    await this.journal({
      table: 'relationships',
      rowId: rel.id,
      op: 'update',
      before: rel,
      after: { ...rel, validTo: this.now },
    });
  }

  async addMention(input: { entityId: string; episodeId: string; time: number }): Promise<void> {
    await this.tx.mentions.add(input);
    await this.journal({
      table: 'entity_mentions',
      rowId: `${input.entityId}|${input.episodeId}`,
      op: 'insert',
      before: null,
      after: input,
    });
  }
}
