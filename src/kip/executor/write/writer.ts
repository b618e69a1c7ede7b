import type { Entity, Fact, Relationship, Transition } from '../../../domain/world.js';
import { RunJournal } from '../../../metabolism/journal.js';
import { aliasRowId, mentionRowId, type MaintainedTable } from '../../../ports/maintenance-store.js';
import type { EntityInsert, EntityPatch, WorldStore } from '../../../ports/world-store.js';

/**
 * Every write KIP makes goes through the store port inside the command's transaction. Every row it changes
 * (entities, facts, transitions, relationships, and the alias and mention rows keyed by their composite row ids) is
 * recorded with its exact before/after image under the command's run id — the same journal the sleep cycle
 * writes — so `pie undo <run-id>` reverts a KIP command exactly, MERGE's moved aliases and mentions included.
 */
export class KipWriter {
  private readonly journal: RunJournal;
  readonly counts: Record<string, number> = {};

  constructor(
    readonly tx: WorldStore,
    readonly runId: string,
    readonly now: number,
  ) {
    this.journal = new RunJournal(tx, runId, now);
  }

  get journaled(): number {
    return this.journal.entries;
  }

  private count(key: string): void {
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }

  private async change(table: MaintainedTable, id: string, op: string, mutate: () => Promise<void>): Promise<void> {
    this.count(`${table}.${op}`);
    await this.journal.change(table, id, mutate);
  }

  async insertEntity(input: EntityInsert): Promise<Entity> {
    let entity: Entity | undefined;
    await this.change('entities', input.id, 'insert', async () => {
      entity = await this.tx.entities.insert(input);
    });
    return entity as Entity;
  }

  async updateEntity(before: Entity, patch: EntityPatch): Promise<Entity> {
    let after: Entity | undefined;
    await this.change('entities', before.id, 'update', async () => {
      after = await this.tx.entities.update(before.id, patch);
    });
    return after as Entity;
  }

  async addAlias(input: { entityId: string; alias: string; normalized: string }): Promise<void> {
    await this.change('entity_aliases', aliasRowId(input.entityId, input.normalized), 'insert', () =>
      this.tx.entities.addAlias({ ...input, recordedAt: this.now }),
    );
  }

  async insertFact(fact: Fact): Promise<void> {
    await this.change('facts', fact.id, 'insert', () => this.tx.facts.insert(fact));
  }

  async closeFact(fact: Fact, supersededBy: string | null, validTo = this.now): Promise<void> {
    await this.change('facts', fact.id, 'close', () => this.tx.facts.close({ id: fact.id, validTo, supersededBy }));
  }

  async insertTransition(transition: Transition): Promise<void> {
    await this.change('transitions', transition.id, 'insert', () => this.tx.transitions.insert(transition));
  }

  async insertRelationship(rel: Relationship): Promise<void> {
    await this.change('relationships', rel.id, 'insert', () => this.tx.relationships.insert(rel));
  }

  async closeRelationship(rel: Relationship): Promise<void> {
    await this.change('relationships', rel.id, 'close', () =>
      this.tx.relationships.close({ id: rel.id, validTo: this.now }),
    );
  }

  async addMention(input: { entityId: string; episodeId: string; time: number }): Promise<void> {
    await this.change('entity_mentions', mentionRowId(input.entityId, input.episodeId), 'insert', () =>
      this.tx.mentions.add(input),
    );
  }
}
