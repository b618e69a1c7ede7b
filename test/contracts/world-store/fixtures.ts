import { afterEach, beforeEach } from 'vitest';
import type { Conversation, Turn } from '../../../src/domain/conversation.js';
import type { Entity, Fact, Relationship, Transition } from '../../../src/domain/world.js';
import type { EntityInsert, WorldStore } from '../../../src/ports/world-store.js';

export interface StoreHandle {
  store: WorldStore;
  cleanup(): Promise<void>;
  /** A second store on the same memory, as another process would open it (closed by the caller). */
  reopen(): Promise<WorldStore>;
}

export type StoreFactory = () => Promise<StoreHandle>;

/** A fresh store for every test; returns a getter to use inside the tests. */
export function useFreshStore(factory: StoreFactory): () => WorldStore {
  let handle: StoreHandle | undefined;
  beforeEach(async () => {
    handle = await factory();
  });
  afterEach(async () => {
    await handle?.cleanup();
    handle = undefined;
  });
  return () => {
    if (!handle) throw new Error('the store is only available inside a test');
    return handle.store;
  };
}

export const T0 = Date.UTC(2024, 2, 15, 14, 0, 0);
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export function turn(role: Turn['role'], text: string, extra: Partial<Turn> = {}): Turn {
  return { role, text, time: null, ...extra };
}

export function conversation(overrides: Partial<Conversation> & { externalId: string }): Conversation {
  return {
    source: 'chatgpt',
    title: `Conversation ${overrides.externalId}`,
    createdAt: T0,
    updatedAt: T0,
    model: null,
    turns: [turn('user', 'hello there'), turn('assistant', 'hi, how can I help?')],
    ...overrides,
  };
}

/** Upserts a conversation with a hash derived from its text and returns the episode id. */
export async function addEpisode(
  store: WorldStore,
  overrides: Partial<Conversation> & { externalId: string },
  hash = 'hash-1',
): Promise<string> {
  const { id } = await store.episodes.upsert({
    conversation: conversation(overrides),
    contentHash: hash,
    recordedAt: T0,
  });
  return id;
}

export function entityInput(id: string, overrides: Partial<EntityInsert> = {}): EntityInsert {
  const name = overrides.name ?? id;
  return {
    id,
    type: 'project',
    name,
    normalizedName: name.toLowerCase(),
    state: {},
    firstSeen: T0,
    lastSeen: T0,
    createdFrom: null,
    recordedAt: T0,
    ...overrides,
  };
}

export async function addEntity(store: WorldStore, id: string, overrides: Partial<EntityInsert> = {}): Promise<Entity> {
  return store.entities.insert(entityInput(id, overrides));
}

export function transition(id: string, entityId: string, overrides: Partial<Transition> = {}): Transition {
  return {
    id,
    entityId,
    kind: 'update',
    fromState: { stage: 'idea' },
    toState: { stage: 'launched' },
    summary: `transition ${id}`,
    eventTime: T0,
    recordedAt: T0,
    confidence: 0.9,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
    ...overrides,
  };
}

export function fact(id: string, entityId: string, overrides: Partial<Fact> = {}): Fact {
  return {
    id,
    entityId,
    attribute: 'stage',
    value: 'idea',
    validFrom: T0,
    validTo: null,
    supersededBy: null,
    episodeId: null,
    recordedAt: T0,
    confidence: 0.8,
    ...overrides,
  };
}

export function relationship(
  id: string,
  sourceId: string,
  targetId: string,
  overrides: Partial<Relationship> = {},
): Relationship {
  return {
    id,
    type: 'WORKS_ON',
    sourceId,
    targetId,
    properties: {},
    validFrom: T0,
    validTo: null,
    confidence: 0.7,
    episodeId: null,
    recordedAt: T0,
    discoveredBy: null,
    ...overrides,
  };
}

/** Resolves after the current macrotask queue has drained, so that other async work gets to run. */
export function tick(ms = 5): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
