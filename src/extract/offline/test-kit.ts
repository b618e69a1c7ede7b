/** Builders for the offline extractor's tests (not used by production code). */
import type { ExtractionResult } from '../result.js';
import type { BatchEpisode, ExtractionBatch, Preamble, PreambleEntity } from '../types.js';
import { extractOffline } from './index.js';
import type { SpanTagger } from './nlp.js';

/** Wednesday, 2025-01-15 15:00 UTC. */
export const T0 = Date.UTC(2025, 0, 15, 15);

export function emptyPreamble(): Preamble {
  return { recentEntities: [], recentTransitions: [], activeProjects: [], mentionedEntities: [], currentPeriod: null };
}

export function known(
  name: string,
  type: string,
  aliases: string[] = [],
  state: PreambleEntity['state'] = {},
): PreambleEntity {
  return { name, type, aliases, state };
}

export function episode(id: string, userTexts: string[], options: { title?: string; at?: number } = {}): BatchEpisode {
  const at = options.at ?? T0;
  return {
    id,
    title: options.title ?? id,
    createdAt: at,
    model: 'gpt-4o',
    turns: userTexts.flatMap((text, i) => [
      { role: 'user' as const, text, time: at + i * 60_000 },
      {
        role: 'assistant' as const,
        text: 'Sure. Here is what I think about Redis and Kubernetes at Google.',
        time: at + i * 60_000 + 1,
      },
    ]),
  };
}

export function batchOf(episodes: BatchEpisode[], preamble: Partial<Preamble> = {}): ExtractionBatch {
  const first = episodes[0];
  return {
    id: new Date(first?.createdAt ?? T0).toISOString().slice(0, 10),
    date: first?.createdAt ?? T0,
    tz: 'UTC',
    episodes,
    preamble: { ...emptyPreamble(), ...preamble },
  };
}

/** Runs the extractor over one conversation made of the given user turns. */
export function run(
  userTexts: string[],
  options: { preamble?: Partial<Preamble>; tagger?: SpanTagger | null; at?: number } = {},
): ExtractionResult {
  return extractOffline(
    batchOf([episode('ep-1', userTexts, { at: options.at })], options.preamble),
    options.tagger ?? null,
  );
}

/** Runs the extractor over one turn said by a named speaker of a chat between people (LoCoMo, MemoryBank). */
export function said(speaker: string, text: string, tagger: SpanTagger | null = null): ExtractionResult {
  return extractOffline(
    batchOf([
      {
        id: 'ep-1',
        title: 'session 1',
        createdAt: T0,
        model: null,
        turns: [{ role: 'user', text, time: T0, speaker }],
      },
    ]),
    tagger,
  );
}

export const names = (r: ExtractionResult, type?: string): string[] =>
  r.entities.filter((e) => !type || e.type === type).map((e) => e.name);

export const change = (r: ExtractionResult, entity: string, attribute: string) =>
  r.stateChanges.find((c) => c.entityName === entity && c.attribute === attribute);

export const rel = (r: ExtractionResult, source: string, type: string, target: string) =>
  r.relationships.find((x) => x.source === source && x.type === type && x.target === target);
