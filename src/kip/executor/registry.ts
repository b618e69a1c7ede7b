import type { Entity } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { JsonObject } from '../ast.js';
import { KipError, closest } from '../errors.js';
import {
  CONCEPT_TYPE,
  PREDICATE_NAME,
  PROPOSITION_TYPE,
  TYPE_NAME,
  conceptAttributes,
  defaultKipPredicate,
  defaultKipType,
  defaultPieRelType,
  defaultPieType,
  isVisibleEntity,
  kipMeta,
} from '../mapping.js';

/** A concept type or predicate: its KIP name, the PIE type it maps to, and its definition when registered. */
export interface TypeDef {
  kip: string;
  pie: string;
  /** The `$ConceptType` / `$PropositionType` entity; null when the type is only observed in PIE's data. */
  definition: Entity | null;
  attributes: JsonObject;
}

/** A definition the registry starts from when the bootstrap could not be written (read-only stores). */
export interface VirtualDef {
  kind: 'concept' | 'predicate';
  name: string;
  attributes: JsonObject;
}

const FAR_FUTURE = Number.MAX_SAFE_INTEGER;

/**
 * The schema KIP checks names against (spec §1.6): registered `$ConceptType` / `$PropositionType` definitions, plus
 * the entity and relationship types PIE's own data uses (found on demand), so that an extracted world is queryable
 * without registering every type it happens to contain.
 */
export class TypeRegistry {
  private readonly concepts = new Map<string, TypeDef>();
  private readonly conceptsByPie = new Map<string, string>();
  private readonly predicates = new Map<string, TypeDef>();
  private readonly predicatesByPie = new Map<string, string>();
  private observedConcepts = false;
  private observedPredicates = false;

  private constructor(private readonly store: WorldStore) {}

  static async load(input: { store: WorldStore; virtual?: readonly VirtualDef[] }): Promise<TypeRegistry> {
    const r = new TypeRegistry(input.store);
    for (const def of input.virtual ?? []) {
      if (def.kind === 'concept')
        r.add(r.concepts, r.conceptsByPie, def.name, defaultPieType(def.name), null, def.attributes);
      else r.add(r.predicates, r.predicatesByPie, def.name, defaultPieRelType(def.name), null, def.attributes);
    }
    for (const e of await input.store.entities.list({ type: CONCEPT_TYPE })) r.define(e);
    for (const e of await input.store.entities.list({ type: PROPOSITION_TYPE })) r.define(e);
    return r;
  }

  /** Records a (new or changed) `$ConceptType` / `$PropositionType` entity. */
  define(entity: Entity): void {
    const kip = kipMeta(entity);
    if (entity.type === CONCEPT_TYPE) {
      if (!isVisibleEntity(entity)) return void this.concepts.delete(entity.name);
      const pie = kip.pieType ?? defaultPieType(entity.name);
      this.add(this.concepts, this.conceptsByPie, entity.name, pie, entity, conceptAttributes(entity));
    } else if (entity.type === PROPOSITION_TYPE) {
      if (!isVisibleEntity(entity)) return void this.predicates.delete(entity.name);
      const pie = kip.pieType ?? defaultPieRelType(entity.name);
      this.add(this.predicates, this.predicatesByPie, entity.name, pie, entity, conceptAttributes(entity));
    }
  }

  private add(
    map: Map<string, TypeDef>,
    byPie: Map<string, string>,
    kip: string,
    pie: string,
    definition: Entity | null,
    attributes: JsonObject,
  ): void {
    map.set(kip, { kip, pie, definition, attributes });
    byPie.set(pie, kip);
  }

  kipType(pieType: string): string {
    return this.conceptsByPie.get(pieType) ?? defaultKipType(pieType);
  }

  kipPredicate(pieRelType: string): string {
    return this.predicatesByPie.get(pieRelType) ?? defaultKipPredicate(pieRelType);
  }

  /** The definition of a concept type; unknown or wrongly cased names are KIP_2001 with a suggestion. */
  async conceptType(name: string): Promise<TypeDef> {
    const known = this.concepts.get(name);
    if (known) return known;
    if (!this.observedConcepts) {
      // Cheap check first: is the PIE type it stands for in use?
      const pie = defaultPieType(name);
      if (TYPE_NAME.test(name) && (await this.store.entities.count({ type: pie })) > 0) {
        const def: TypeDef = { kip: name, pie, definition: null, attributes: {} };
        this.concepts.set(name, def);
        this.conceptsByPie.set(pie, name);
        return def;
      }
      await this.observeConceptTypes();
      const observed = this.concepts.get(name);
      if (observed) return observed;
    }
    const wrongCase = TYPE_NAME.test(name) ? '' : ' Concept types are UpperCamelCase.';
    const suggestion = closest(name, this.concepts.keys());
    throw new KipError(
      'KIP_2001',
      `'${name}' is not a valid type.${suggestion ? ` Did you mean '${suggestion}'?` : ''}${wrongCase}`,
      { hint: 'Check the schema with DESCRIBE CONCEPT TYPES, or register the type as a $ConceptType first.' },
    );
  }

  /** The definition of a predicate; unknown or wrongly cased names are KIP_2001 with a suggestion. */
  async predicate(name: string): Promise<TypeDef> {
    const known = this.predicates.get(name);
    if (known) return known;
    if (!this.observedPredicates) {
      await this.observePredicates();
      const observed = this.predicates.get(name);
      if (observed) return observed;
    }
    const wrongCase = PREDICATE_NAME.test(name) ? '' : ' Predicates are snake_case.';
    const suggestion = closest(name, this.predicates.keys());
    throw new KipError(
      'KIP_2001',
      `'${name}' is not a valid predicate.${suggestion ? ` Did you mean '${suggestion}'?` : ''}${wrongCase}`,
      {
        hint: 'Check the schema with DESCRIBE PROPOSITION TYPES, or register the predicate as a $PropositionType first.',
      },
    );
  }

  /** Every concept type (registered and observed), sorted. */
  async conceptTypeNames(): Promise<string[]> {
    await this.observeConceptTypes();
    return [...this.concepts.keys()].sort();
  }

  async predicateNames(): Promise<string[]> {
    await this.observePredicates();
    return [...this.predicates.keys()].sort();
  }

  private async observeConceptTypes(): Promise<void> {
    if (this.observedConcepts) return;
    this.observedConcepts = true;
    const stats = await this.store.stats();
    for (const pie of Object.keys(stats.entitiesByType)) {
      if (pie.startsWith('$') || this.conceptsByPie.has(pie)) continue;
      const kip = defaultKipType(pie);
      if (!this.concepts.has(kip)) this.add(this.concepts, this.conceptsByPie, kip, pie, null, {});
    }
  }

  /** Relationship types in use (one scan of the open relationships; the port has no list of types). */
  private async observePredicates(): Promise<void> {
    if (this.observedPredicates) return;
    this.observedPredicates = true;
    const types = new Set((await this.store.relationships.validAt({ time: FAR_FUTURE })).map((r) => r.type));
    for (const pie of types) {
      if (this.predicatesByPie.has(pie)) continue;
      const kip = defaultKipPredicate(pie);
      if (!this.predicates.has(kip)) this.add(this.predicates, this.predicatesByPie, kip, pie, null, {});
    }
  }
}
