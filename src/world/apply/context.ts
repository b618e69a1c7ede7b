import type { ExtractionResult } from '../../extract/result.js';
import { isPlausibleTime } from '../../domain/time.js';
import { normalizeName } from '../../resolve/normalize.js';
import { PieError } from '../../domain/errors.js';
import { FIRST_MENTION, type EntityState } from '../../domain/world.js';
import type { NameRef, WorkingSet, Working } from './working-set.js';

/** Everything the planner needs besides the working set; built once per batch. */
export interface PlanInput {
  result: ExtractionResult;
  /** Every name in the result, by normalized name → the entity it refers to (from the resolution phase). */
  refs: ReadonlyMap<string, NameRef>;
  episodeTimes: ReadonlyMap<string, number>;
  episodeTitles: ReadonlyMap<string, string>;
  batchTime: number;
  recordedAt: number;
  /** The user's own entity ("I", "me"). */
  selfRef: NameRef;
  newId: () => string;
}

export interface Item {
  episodeId?: string | undefined;
  eventTime?: string | undefined;
}

export class PlanContext {
  constructor(
    readonly input: PlanInput,
    readonly ws: WorkingSet,
  ) {}

  /** The episode an item came from: its own `episodeId` when it names one of the batch, else the first. */
  episodeOf(item: Item): string {
    const ids = this.input.result.batch.episodeIds;
    if (item.episodeId && ids.includes(item.episodeId)) return item.episodeId;
    return ids[0] ?? this.input.result.batch.id;
  }

  /** Event time: a plausible date stated in the conversation, else the episode's time, else the batch's. */
  timeOf(item: Item): number {
    if (item.eventTime) {
      const stated = Date.parse(item.eventTime);
      if (isPlausibleTime(stated)) return stated;
    }
    return this.input.episodeTimes.get(this.episodeOf(item)) ?? this.input.batchTime;
  }

  ref(name: string): NameRef {
    const ref = resolvedRef(name, this.input.refs, this.input.selfRef);
    if (!ref) throw new PieError('INTERNAL', `The name "${name}" was not resolved before planning.`);
    return ref;
  }

  /**
   * The working entity for a name. A new entity is created on first reference: its initial state becomes facts and
   * its creation transition carries that state.
   */
  entity(
    name: string,
    item: Item,
    options: { state?: EntityState; summary?: string; confidence?: number } = {},
  ): Working {
    const ref = this.ref(name);
    const time = this.timeOf(item);
    const episodeId = this.episodeOf(item);
    const w = this.ws.get(ref, time, episodeId);
    this.ws.touch(w, time, episodeId);
    const title = this.input.episodeTitles.get(episodeId);
    // What its creation says when made here; a bare one recorded later moves here with it (WorkingSet.moveCreation).
    const summary = options.summary ?? `${FIRST_MENTION}${title ? ` in “${title}”` : ''}`;
    const episodeTime = this.input.episodeTimes.get(episodeId);
    if (episodeTime !== undefined) this.ws.moveCreation(w, { time, episodeId, episodeTime, summary });
    if (!w.created) {
      w.created = true;
      const confidence = options.confidence ?? 1;
      for (const [attribute, value] of Object.entries(options.state ?? {})) {
        this.ws.setAttribute({ w, attribute, value, time, episodeId, confidence });
      }
      this.ws.transition({
        w,
        kind: 'creation',
        from: null,
        to: { ...w.state },
        summary,
        time,
        episodeId,
        confidence,
      });
    }
    return w;
  }
}

/** Names that mean the user. */
export const SELF_NAMES = new Set(['i', 'me', 'myself', 'user', 'the user', 'self']);

/** The entity a name in the result was resolved to ("I", "me", "user": the user's own); undefined when none. Pure. */
export function resolvedRef(name: string, refs: ReadonlyMap<string, NameRef>, selfRef: NameRef): NameRef | undefined {
  const key = normalizeName(name);
  return SELF_NAMES.has(key) ? selfRef : refs.get(key);
}
