import type { Entity } from '../domain/world.js';
import type { ExtractionBatch, Preamble, PreambleEntity } from '../extract/types.js';
import { DEFAULT_CLIP_ASSISTANT_CHARS } from '../extract/llm/render.js';
import type { NameIndex } from '../resolve/name-index.js';
import { normalizeName } from '../resolve/normalize.js';
import type { WorldStore } from '../ports/world-store.js';

const DAY_MS = 86_400_000;

export interface PreambleOptions {
  /** Entities with transitions in this window before the batch are "recently active" (pie-paper: 3 days). */
  activeDays: number;
  /** How many of the latest transitions to include (pie-paper: 5–10). */
  recentTransitions: number;
  /** Projects above this importance are "active projects" (pie-paper: 0.3). */
  projectImportance: number;
  /** Until importance is computed by the sleep cycle, projects seen within this many days also count as active. */
  projectRecencyDays: number;
  /** Caps per list, so a busy world never floods the prompt. */
  maxEntities: number;
}

export const DEFAULT_PREAMBLE: PreambleOptions = {
  activeDays: 3,
  recentTransitions: 8,
  projectImportance: 0.3,
  projectRecencyDays: 30,
  maxEntities: 25,
};

/**
 * The activity-based preamble of a batch (pie-paper §4.2): what was active in the last days, the latest changes,
 * the active projects, plus the known entities whose names or aliases appear in the batch. Built from the world as
 * of the last applied batch.
 */
export async function buildPreamble(input: {
  store: WorldStore;
  index: NameIndex;
  batchTime: number;
  texts: readonly string[];
  options?: PreambleOptions;
}): Promise<Preamble> {
  const o = input.options ?? DEFAULT_PREAMBLE;
  const { store, batchTime } = input;
  const recent = await store.transitions.list({ since: batchTime - o.activeDays * DAY_MS, until: batchTime });
  const recentIds = unique(recent.map((t) => t.entityId).reverse()).slice(0, o.maxEntities);
  const latest = await store.transitions.latest({ until: batchTime, limit: o.recentTransitions });
  const projects = (await store.entities.list({ type: 'project', orderBy: 'importance', limit: 200 }))
    .filter((p) => p.tier !== 'archived')
    .filter((p) => p.importance > o.projectImportance || batchTime - p.lastSeen <= o.projectRecencyDays * DAY_MS)
    .slice(0, o.maxEntities);
  const mentionedIds = mentionedEntityIds(input.index, input.texts).slice(0, o.maxEntities);
  const entities = await loadEntities(store, unique([...recentIds, ...latest.map((t) => t.entityId), ...mentionedIds]));
  const periods = await store.periods.list();
  const current = periods.filter((p) => p.start <= batchTime).sort((a, b) => b.start - a.start)[0];
  return {
    recentEntities: recentIds.flatMap((id) => view(entities.get(id))),
    recentTransitions: latest.map((t) => ({
      entityName: entities.get(t.entityId)?.name ?? 'unknown',
      kind: t.kind,
      summary: t.summary,
      eventTime: t.eventTime,
    })),
    activeProjects: projects.map(toPreambleEntity),
    mentionedEntities: mentionedIds.flatMap((id) => view(entities.get(id))),
    currentPeriod: current && (current.end === null || current.end >= batchTime - 60 * DAY_MS) ? current.name : null,
  };
}

/** Known entities named in the texts: every 1–4 word sequence is looked up by normalized name and alias. */
export function mentionedEntityIds(index: NameIndex, texts: readonly string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  if (index.entities.size === 0) return found;
  const add = (entities: readonly { id: string }[]): void => {
    for (const e of entities) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      found.push(e.id);
    }
  };
  for (const text of texts) {
    const words = normalizeName(text)
      .split(' ')
      .filter((w) => w.length > 0);
    for (let i = 0; i < words.length; i++) {
      let gram = '';
      for (let n = 1; n <= 4 && i + n <= words.length; n++) {
        gram = n === 1 ? (words[i] ?? '') : `${gram} ${words[i + n - 1] ?? ''}`;
        if (n === 1 && gram.length < 2) continue;
        add(index.byName(gram));
        add(index.byAlias(gram));
      }
    }
  }
  return found;
}

/** The batch's texts for mention scanning: titles and turns. */
export function batchTexts(batch: Pick<ExtractionBatch, 'episodes'>): string[] {
  // Only what a model would see: assistant replies are clipped in the prompt, so names past the clip do not count.
  return batch.episodes.flatMap((e) => [
    e.title,
    ...e.turns.map((t) => (t.role === 'assistant' ? t.text.slice(0, DEFAULT_CLIP_ASSISTANT_CHARS) : t.text)),
  ]);
}

async function loadEntities(store: WorldStore, ids: string[]): Promise<Map<string, Entity>> {
  const out = new Map<string, Entity>();
  for (const id of ids) {
    const e = await store.entities.get(id);
    if (e) out.set(id, e);
  }
  return out;
}

function view(e: Entity | undefined): PreambleEntity[] {
  return e && e.tier !== 'archived' ? [toPreambleEntity(e)] : [];
}

function toPreambleEntity(e: Entity): PreambleEntity {
  return { name: e.name, type: e.type, aliases: e.aliases, state: e.state };
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}
