import { fullInitialsOf, initialsOf, looksLikeAcronym, normalizeName } from './normalize.js';

export interface IndexedEntity {
  id: string;
  type: string;
  name: string;
  aliases: string[];
  /**
   * A name that resolution never replaces with a fuller one, nor takes a fuller name for (the user's own entity, and
   * protected ones: their name is the user's or the schema's).
   */
  fixedName?: boolean;
}

/**
 * An in-memory index of entity names and aliases for resolution: exact keys, acronym initials, and blocking tokens
 * that keep fuzzy comparison to a handful of candidates even in a world of tens of thousands of entities.
 */
export class NameIndex {
  readonly entities = new Map<string, IndexedEntity>();
  private readonly nameKeys = new Map<string, Set<string>>();
  private readonly aliasKeys = new Map<string, Set<string>>();
  private readonly initials = new Map<string, Set<string>>();
  private readonly blocks = new Map<string, Set<string>>();
  /** Entities whose own name is an acronym ("SRA"), by the lowercase acronym. */
  private readonly acronymNames = new Map<string, Set<string>>();

  add(entity: IndexedEntity): void {
    const existing = this.entities.get(entity.id);
    if (existing) {
      for (const alias of entity.aliases) this.addAlias(entity.id, alias);
      return;
    }
    this.entities.set(entity.id, { ...entity, aliases: [] });
    const key = normalizeName(entity.name);
    push(this.nameKeys, key, entity.id);
    const ini = initialsOf(entity.name);
    if (ini.length >= 2 && key.includes(' ')) push(this.initials, ini, entity.id);
    for (const block of blockKeys(key)) push(this.blocks, block, entity.id);
    if (looksLikeAcronym(entity.name)) push(this.acronymNames, key, entity.id);
    for (const alias of entity.aliases) this.addAlias(entity.id, alias);
  }

  addAlias(id: string, alias: string): void {
    const entity = this.entities.get(id);
    if (!entity) return;
    const key = normalizeName(alias);
    if (
      key.length === 0 ||
      key === normalizeName(entity.name) ||
      entity.aliases.some((a) => normalizeName(a) === key)
    ) {
      return;
    }
    entity.aliases.push(alias);
    push(this.aliasKeys, key, id);
    for (const block of blockKeys(key)) push(this.blocks, block, id);
  }

  /** A new canonical name: the old one becomes an alias (it still resolves, at the alias layer). */
  rename(id: string, name: string): void {
    const entity = this.entities.get(id);
    if (!entity || entity.name === name) return;
    const previous = entity.name;
    this.nameKeys.get(normalizeName(previous))?.delete(id);
    entity.name = name;
    const key = normalizeName(name);
    entity.aliases = entity.aliases.filter((a) => normalizeName(a) !== key);
    this.aliasKeys.get(key)?.delete(id);
    push(this.nameKeys, key, id);
    const ini = initialsOf(name);
    if (ini.length >= 2 && key.includes(' ')) push(this.initials, ini, id);
    for (const block of blockKeys(key)) push(this.blocks, block, id);
    if (looksLikeAcronym(name)) push(this.acronymNames, key, id);
    this.addAlias(id, previous);
  }

  byName(key: string): IndexedEntity[] {
    return this.lookup(this.nameKeys, key);
  }

  byAlias(key: string): IndexedEntity[] {
    return this.lookup(this.aliasKeys, key);
  }

  /** Multi-word entities whose initials spell the acronym ("SRA"). */
  byAcronym(acronym: string): IndexedEntity[] {
    if (!looksLikeAcronym(acronym)) return [];
    return this.lookup(this.initials, acronym.replace(/\./g, '').toLowerCase());
  }

  /** Entities named by an acronym that could abbreviate `longName` ("SRA" for "Science Research Academy"). */
  candidatesForAcronymOf(longName: string): IndexedEntity[] {
    const keys = new Set([initialsOf(longName), fullInitialsOf(longName)]);
    return [...keys].flatMap((k) => (k.length >= 2 ? this.lookup(this.acronymNames, k) : []));
  }

  /** Entities sharing a blocking key (a word of 3+ characters or the first 3 characters) with `key`. */
  candidates(key: string): IndexedEntity[] {
    const ids = new Set<string>();
    for (const block of blockKeys(key)) for (const id of this.blocks.get(block) ?? []) ids.add(id);
    return [...ids].map((id) => this.entities.get(id)).filter((e): e is IndexedEntity => e !== undefined);
  }

  ofType(type: string): IndexedEntity[] {
    return [...this.entities.values()].filter((e) => e.type === type);
  }

  private lookup(map: Map<string, Set<string>>, key: string): IndexedEntity[] {
    const ids = map.get(key);
    if (!ids) return [];
    return [...ids].map((id) => this.entities.get(id)).filter((e): e is IndexedEntity => e !== undefined);
  }
}

function push(map: Map<string, Set<string>>, key: string, id: string): void {
  if (key.length === 0) return;
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(id);
}

function blockKeys(normalized: string): string[] {
  const keys = new Set<string>();
  if (normalized.length >= 3) keys.add(`p:${normalized.slice(0, 3)}`);
  for (const word of normalized.split(' ')) if (word.length >= 3) keys.add(`w:${word}`);
  return [...keys];
}
