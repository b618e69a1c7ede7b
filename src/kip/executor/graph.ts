import type { Entity, Relationship } from '../../domain/world.js';
import type { WorldStore } from '../../ports/world-store.js';
import {
  LINK_PROXY_TYPE,
  PROXY_PREFIX,
  conceptNode,
  endEntityId,
  isVisibleEntity,
  kipMeta,
  linkId,
  linkNode,
  nameKey,
  type ConceptNode,
  type EndRef,
  type LinkNode,
} from '../mapping.js';
import type { TypeRegistry } from './registry.js';

const FAR_FUTURE = Number.MAX_SAFE_INTEGER;
const BATCH = 400;

/**
 * The KIP graph as read through the store port, with per-command caches. Every lookup is indexed (by id, by name
 * key, by type, by entity for edges); only a fully unconstrained proposition pattern or a lookup of a proposition by
 * id without a proxy scans the open relationships, once per command.
 */
export class Graph {
  private readonly entities = new Map<string, Entity | null>();
  private readonly edgeCache = new Map<string, Relationship[]>();
  private readonly byType = new Map<string, ConceptNode[]>();
  private readonly nodes = new Map<string, ConceptNode>();
  private readonly links = new Map<string, LinkNode>();
  private allLinksCache: LinkNode[] | null = null;
  private linksById: Map<string, LinkNode> | null = null;

  constructor(
    readonly store: WorldStore,
    readonly registry: TypeRegistry,
  ) {}

  /** Forget everything read (after a write). */
  reset(): void {
    this.entities.clear();
    this.edgeCache.clear();
    this.byType.clear();
    this.nodes.clear();
    this.links.clear();
    this.allLinksCache = null;
    this.linksById = null;
  }

  async entity(id: string): Promise<Entity | null> {
    if (this.entities.has(id)) return this.entities.get(id) ?? null;
    const e = await this.store.entities.get(id);
    this.entities.set(id, e);
    return e;
  }

  async prefetchEntities(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.entities.has(id));
    for (let i = 0; i < missing.length; i += BATCH) {
      const chunk = missing.slice(i, i + BATCH);
      const found = new Map((await this.store.entities.getMany(chunk)).map((e) => [e.id, e]));
      for (const id of chunk) this.entities.set(id, found.get(id) ?? null);
    }
  }

  conceptOf(entity: Entity): ConceptNode {
    const cached = this.nodes.get(entity.id);
    if (cached && cached.entity === entity) return cached;
    const node = conceptNode(entity, this.registry.kipType(entity.type));
    this.nodes.set(entity.id, node);
    return node;
  }

  /** A visible concept by id (deleted concepts and link proxies are not concepts). */
  async concept(id: string): Promise<ConceptNode | null> {
    const e = await this.entity(id);
    return e && isVisibleEntity(e) ? this.conceptOf(e) : null;
  }

  /** Concepts of one PIE type (all of them, most important first). */
  async conceptsOfType(pieType: string): Promise<ConceptNode[]> {
    const cached = this.byType.get(pieType);
    if (cached) return cached;
    const list = (await this.store.entities.list({ type: pieType })).filter(isVisibleEntity);
    for (const e of list) this.entities.set(e.id, e);
    const nodes = list.map((e) => this.conceptOf(e));
    this.byType.set(pieType, nodes);
    return nodes;
  }

  /**
   * Concepts called `name` (optionally of one PIE type): exact names first; when none is exact, the ones whose
   * normalized name matches (case, accents, punctuation). Aliases are not identity (SEARCH grounds them).
   */
  async conceptsNamed(name: string, pieType?: string, options: { includeDeleted?: boolean } = {}): Promise<Entity[]> {
    const key = nameKey(name);
    const found = (await this.store.entities.findByKey(key)).filter(
      (e) =>
        (pieType === undefined || e.type === pieType) &&
        e.type !== LINK_PROXY_TYPE &&
        (options.includeDeleted === true || isVisibleEntity(e)),
    );
    for (const e of found) this.entities.set(e.id, e);
    const exact = found.filter((e) => e.name === name);
    if (exact.length > 0) return exact;
    return found.filter((e) => nameKey(e.name) === key);
  }

  /** Open relationships touching an entity (either end). */
  async edges(entityId: string): Promise<Relationship[]> {
    const cached = this.edgeCache.get(entityId);
    if (cached) return cached;
    const rels = await this.store.relationships.forEntity(entityId);
    this.edgeCache.set(entityId, rels);
    return rels;
  }

  /** Loads the open relationships of many entities in a few indexed queries. */
  async prefetchEdges(entityIds: Iterable<string>): Promise<void> {
    const missing = [...new Set(entityIds)].filter((id) => !this.edgeCache.has(id));
    for (let i = 0; i < missing.length; i += BATCH) {
      const chunk = missing.slice(i, i + BATCH);
      for (const id of chunk) this.edgeCache.set(id, []);
      const rels = await this.store.relationships.validAt({ time: FAR_FUTURE, entityIds: chunk });
      for (const r of rels) {
        this.edgeCache.get(r.sourceId)?.push(r);
        if (r.targetId !== r.sourceId) this.edgeCache.get(r.targetId)?.push(r);
      }
    }
  }

  linkOf(rel: Relationship): LinkNode {
    const cached = this.links.get(rel.id);
    if (cached && cached.rel === rel) return cached;
    const node = linkNode(rel, this.registry.kipPredicate(rel.type));
    this.links.set(rel.id, node);
    return node;
  }

  /** A proposition by its (stable) id: through its proxy when it has one, else by scanning the open links. */
  async linkById(id: string): Promise<LinkNode | null> {
    if (this.linksById?.has(id)) return this.linksById.get(id) ?? null;
    const proxy = await this.entity(PROXY_PREFIX + id);
    const where = proxy ? kipMeta(proxy).link : undefined;
    if (where) {
      const rel = await this.store.relationships.findOpen({
        sourceId: where.sourceId,
        targetId: where.targetId,
        type: where.type,
      });
      if (rel && linkId(rel) === id) return this.linkOf(rel);
    }
    await this.allLinks();
    return this.linksById?.get(id) ?? null;
  }

  /** Every open proposition (a full scan, cached for the command). */
  async allLinks(): Promise<LinkNode[]> {
    if (this.allLinksCache) return this.allLinksCache;
    const rels = await this.store.relationships.validAt({ time: FAR_FUTURE });
    const links = rels.map((r) => this.linkOf(r));
    this.allLinksCache = links;
    this.linksById = new Map(links.map((l) => [l.id, l]));
    return links;
  }

  /** The concept or proposition an endpoint refers to (null when it no longer exists). */
  async value(ref: EndRef): Promise<ConceptNode | LinkNode | null> {
    return ref.kind === 'concept' ? this.concept(ref.id) : this.linkById(ref.id);
  }

  /** The entity id a bound value occupies as an endpoint (a link's proxy id). */
  static endpointId(value: ConceptNode | LinkNode): string {
    return value.kind === 'concept' ? value.id : endEntityId({ kind: 'link', id: value.id });
  }
}
