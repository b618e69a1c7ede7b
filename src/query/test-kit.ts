import type { Entity, Episode, StoredTurn, Transition } from '../domain/world.js';
import type { QueryPlan, Subgraph } from './types.js';

/** Builders for query tests (excluded from the build). */
export const T0 = Date.UTC(2024, 0, 1);
export const DAY = 86_400_000;

export function entity(partial: Partial<Entity> & Pick<Entity, 'id' | 'name'>): Entity {
  return {
    type: 'project',
    aliases: [],
    state: {},
    firstSeen: T0,
    lastSeen: T0,
    importance: 0.5,
    tier: 'active',
    accessCount: 0,
    createdFrom: null,
    recordedAt: T0,
    updatedAt: T0,
    version: 1,
    protected: false,
    meta: {},
    ...partial,
  };
}

export function transition(partial: Partial<Transition> & Pick<Transition, 'id' | 'eventTime'>): Transition {
  return {
    entityId: 'e1',
    kind: 'update',
    fromState: null,
    toState: {},
    summary: `change ${partial.id}`,
    recordedAt: partial.eventTime,
    confidence: 0.8,
    episodeId: null,
    batchId: null,
    resolvedBy: null,
    ...partial,
  };
}

export function episode(partial: Partial<Episode> & Pick<Episode, 'id' | 'createdAt'>): Episode {
  return {
    source: 'test',
    externalId: partial.id,
    title: `conversation ${partial.id}`,
    updatedAt: partial.createdAt,
    model: null,
    contentHash: partial.id,
    turnCount: 0,
    summary: null,
    significance: null,
    userState: null,
    extraction: 'extracted',
    recordedAt: partial.createdAt,
    meta: {},
    ...partial,
  };
}

/** Turns of one conversation from [speaker or role, text] pairs, numbered from 0. */
export function turns(episodeId: string, lines: readonly [string, string][]): StoredTurn[] {
  return lines.map(([who, text], seq) => ({
    episodeId,
    seq,
    role: who === 'assistant' ? 'assistant' : 'user',
    text,
    time: null,
    speaker: who === 'user' || who === 'assistant' ? null : who,
    externalId: null,
    meta: {},
  }));
}

/** A subgraph with only the parts given (every other list empty). */
export function subgraph(partial: Partial<Subgraph>): Subgraph {
  return { entities: [], procedures: [], contradictions: [], paths: [], excerpts: [], events: [], ...partial };
}

/** A plan decided by the rules, with no names, ranges or unknowns unless given. */
export function queryPlan(partial: Pick<QueryPlan, 'question' | 'intent'> & Partial<QueryPlan>): QueryPlan {
  return {
    entityIds: [],
    unknownNames: [],
    timeRanges: [],
    wantsHistory: false,
    timeFormat: 'absolute',
    decidedBy: 'rules',
    ...partial,
  };
}
