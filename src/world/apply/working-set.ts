import type {
  EntityState,
  Fact,
  Period,
  Relationship,
  StateValue,
  Transition,
  TransitionKind,
} from '../../domain/world.js';
import { isBareCreation } from '../../domain/world.js';
import type { Mutation } from './mutations.js';

/** An entity as the planner needs it: identity, current state and its current (open) facts. */
export interface EntitySnapshot {
  id: string;
  type: string;
  name: string;
  aliases: string[];
  firstSeen: number;
  lastSeen: number;
  state: EntityState;
  /** Current facts (no validTo), one per attribute. */
  facts: Fact[];
  /**
   * Its creation when that is a bare first mention ("First mentioned in …") recorded after the batch's earliest
   * conversation: a mention in an earlier conversation, extracted late, moves it there. Absent otherwise.
   */
  creation?: Pick<Transition, 'id' | 'eventTime' | 'episodeId' | 'summary'>;
}

/** The part of the world a batch touches, read before planning. */
export interface WorldSlice {
  entities: ReadonlyMap<string, EntitySnapshot>;
  /** Open relationships among the entities involved. */
  relationships: readonly Relationship[];
  /**
   * For each edge the batch reports (ended or not) that has no open version: its latest version, when that one has
   * ended (an ending told again; an edge told late from before it ended). Absent or empty: no such edge.
   */
  ended?: readonly Relationship[];
  /**
   * Closed facts of the slice's entities whose current facts began after the batch's earliest conversation (an older
   * conversation extracted again, or late): the history a late value may repeat.
   */
  closed?: readonly Fact[];
  /**
   * Ended versions of the edges the batch reports whose open or latest ended version lies after the batch's earliest
   * conversation (none in date order): the history a late telling may repeat.
   */
  history?: readonly Relationship[];
  /**
   * The DURING links of the slice's entities whose bare creation lies after the batch's earliest conversation (none
   * in date order): when the creation moves to an older conversation, a link to another period goes with it.
   */
  during?: readonly Relationship[];
  periods: ReadonlyMap<string, Period>;
}

/** A resolved mention: which entity a name in the result refers to (existing, or new with a fresh id). */
export interface NameRef {
  id: string;
  type: string;
  name: string;
  isNew: boolean;
  aliases: string[];
  /** Set when resolution found `name` to be a more complete name of a known entity: the name it had (now an alias). */
  renamedFrom?: string;
}

interface Working extends EntitySnapshot {
  isNew: boolean;
  /** For new entities: whether the creation transition has been recorded. */
  created: boolean;
  createdFrom: string | null;
  current: Map<string, Fact>;
}

/** Instants of one conversation's changes closer than this are one telling (`instant` moves them milliseconds apart). */
export const SAME_TELLING_MS = 1000;

/** Normalized comparison of state values: "Launched" equals "launched ", 3 equals "3". */
export function sameValue(a: StateValue | undefined, b: StateValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return String(a).trim().toLowerCase() === String(b).trim().toLowerCase();
}

/**
 * The batch's working copy of the entities it touches. Every change goes through here so that later items in the
 * same batch see earlier ones, and the emitted mutations are consistent (facts superseded exactly once, etc.).
 */
export class WorkingSet {
  private readonly entities = new Map<string, Working>();
  private readonly out: Mutation[] = [];
  private readonly mentioned = new Set<string>();
  /** Per entity, its latest transition in this batch: the time it was said at and the time it got (`transition`). */
  private readonly lastChange = new Map<string, { said: number; at: number }>();
  /**
   * Known entities whose bare creation this batch moved to an earlier conversation (see `moveCreation`), and where
   * each creation was: its state's facts began there and move with it.
   */
  private readonly movedFrom = new Map<string, { eventTime: number; episodeId: string | null }>();
  /** Closed facts by entity and attribute: the slice's (WorldSlice.closed) and those recorded in this batch. */
  private readonly history = new Map<string, Fact[]>();

  constructor(
    private readonly input: {
      slice: WorldSlice;
      recordedAt: number;
      newId: () => string;
      batchId: string;
    },
  ) {
    for (const f of input.slice.closed ?? []) this.remember(f);
  }

  /** A closed fact known to the batch (it replaces an earlier copy with its id). */
  private remember(f: Fact): void {
    const key = `${f.entityId}|${f.attribute}`;
    this.history.set(key, [...(this.history.get(key) ?? []).filter((h) => h.id !== f.id), f]);
  }

  /** The closed facts of an entity's attribute known to the batch. */
  private closedOf(entityId: string, attribute: string): readonly Fact[] {
    return this.history.get(`${entityId}|${attribute}`) ?? [];
  }

  /**
   * Whether a closed fact already records `value` as held at `time`, or as told by this conversation at about that
   * time (extracted again, its changes' instants may differ by the milliseconds `instant` adds).
   */
  private heldThen(w: Working, attribute: string, value: StateValue, time: number, episodeId: string): boolean {
    return this.closedOf(w.id, attribute).some(
      (f) =>
        sameValue(f.value, value) &&
        f.validTo !== null &&
        ((f.episodeId === episodeId && Math.abs(f.validFrom - time) < SAME_TELLING_MS) ||
          (f.validFrom <= time && time < f.validTo)),
    );
  }

  get(ref: NameRef, time: number, episodeId: string): Working {
    let w = this.entities.get(ref.id);
    if (w) return w;
    const snap = this.input.slice.entities.get(ref.id);
    if (snap) {
      w = {
        ...snap,
        aliases: [...snap.aliases],
        state: { ...snap.state },
        isNew: false,
        created: true,
        createdFrom: null,
        current: new Map(snap.facts.map((f) => [f.attribute, f])),
      };
      if (ref.renamedFrom !== undefined && ref.name !== snap.name) {
        w.name = ref.name;
        this.out.push({ op: 'entity.rename', id: w.id, name: ref.name });
      }
    } else {
      w = {
        id: ref.id,
        type: ref.type,
        name: ref.name,
        aliases: [],
        firstSeen: time,
        lastSeen: time,
        state: {},
        facts: [],
        isNew: true,
        created: false,
        createdFrom: episodeId,
        current: new Map(),
      };
    }
    this.entities.set(ref.id, w);
    // The name it had before resolution found a more complete one stays an alias.
    if (ref.renamedFrom !== undefined) this.addAlias(w, ref.renamedFrom);
    for (const alias of ref.aliases) this.addAlias(w, alias);
    return w;
  }

  /** True once the entity exists in this batch's view (known before, or created earlier in the batch). */
  isCreated(id: string): boolean {
    return this.entities.get(id)?.created ?? this.input.slice.entities.has(id);
  }

  isNew(id: string): boolean {
    return this.entities.get(id)?.isNew ?? !this.input.slice.entities.has(id);
  }

  addAlias(w: Working, alias: string): void {
    const norm = alias.trim().toLowerCase();
    if (norm === '' || norm === w.name.toLowerCase() || w.aliases.some((a) => a.toLowerCase() === norm)) return;
    w.aliases.push(alias.trim());
    this.out.push({ op: 'alias.add', entityId: w.id, alias: alias.trim() });
  }

  /** Known entities whose bare creation this batch moved to an earlier conversation, so far. */
  movedIds(): ReadonlySet<string> {
    return new Set(this.movedFrom.keys());
  }

  /** Marks the entity as seen at `time` in `episodeId`. */
  touch(w: Working, time: number, episodeId: string): void {
    w.lastSeen = Math.max(w.lastSeen, time);
    w.firstSeen = Math.min(w.firstSeen, time);
    const key = `${w.id}|${episodeId}`;
    if (!this.mentioned.has(key)) {
      this.mentioned.add(key);
      this.out.push({ op: 'mention.add', entityId: w.id, episodeId, time });
    }
  }

  /**
   * A known entity mentioned in a conversation older than the one its bare creation cites: the creation moves to this
   * mention, as if the conversations had been extracted in date order ("First mentioned in" the older one). The
   * conversation's own time decides, not a time stated in it: a 2025 talk recalling 2019 was not where it was first
   * mentioned when a 2023 one was.
   */
  moveCreation(w: Working, mention: { time: number; episodeId: string; episodeTime: number; summary: string }): void {
    const c = w.creation;
    if (w.isNew || c === undefined || !isBareCreation({ kind: 'creation', summary: c.summary })) return;
    if (mention.episodeTime >= c.eventTime || mention.time >= c.eventTime) return;
    if (!this.movedFrom.has(w.id)) this.movedFrom.set(w.id, { eventTime: c.eventTime, episodeId: c.episodeId });
    w.creation = { id: c.id, eventTime: mention.time, episodeId: mention.episodeId, summary: mention.summary };
    // Changes said at the same instant come after it, as after a creation made in this batch.
    const last = this.lastChange.get(w.id);
    if (last === undefined || mention.time >= last.at)
      this.lastChange.set(w.id, { said: mention.time, at: mention.time });
  }

  /**
   * Sets one attribute. Returns the previous value when the value changed (undefined when the attribute is new),
   * or `unchanged` when it already had that value. Facts: an older event never supersedes a newer fact; it is
   * recorded as history that the current fact superseded.
   */
  setAttribute(input: {
    w: Working;
    attribute: string;
    value: StateValue;
    time: number;
    episodeId: string;
    confidence: number;
  }): { unchanged: true } | { unchanged: false; previous: StateValue | undefined; historical: boolean } {
    const { w, attribute, value, time } = input;
    const current = w.current.get(attribute);
    if (current && sameValue(current.value, value) && current.validFrom <= time) return { unchanged: true };
    const fact: Fact = {
      id: this.input.newId(),
      entityId: w.id,
      attribute,
      value,
      validFrom: time,
      validTo: null,
      supersededBy: null,
      episodeId: input.episodeId,
      recordedAt: this.input.recordedAt,
      confidence: input.confidence,
    };
    if (current && current.validFrom > time) return this.told(w, fact, current, input.episodeId);
    if (current) {
      this.out.push({ op: 'fact.insert', fact });
      this.out.push({ op: 'fact.close', id: current.id, validTo: time, supersededBy: fact.id });
    } else {
      this.out.push({ op: 'fact.insert', fact });
    }
    w.current.set(attribute, fact);
    w.state[attribute] = value;
    return { unchanged: false, previous: current?.value, historical: false };
  }

  /**
   * A value told from before the current fact began (late-arriving older information; the current value stays
   * current), placed among the values known then as in date order: the value that held at its time ends where it
   * begins, and it holds until the next value known after it. The same value as that next one moves its start back
   * instead (it held since then); told again (an older conversation extracted again after it changed), it is already
   * history: nothing new. Returns the value it followed, when one is known.
   */
  private told(
    w: Working,
    fact: Fact,
    current: Fact,
    episodeId: string,
  ): { unchanged: true } | { unchanged: false; previous: StateValue | undefined; historical: boolean } {
    const { attribute, value, validFrom: time } = fact;
    if (this.heldThen(w, attribute, value, time, episodeId)) return { unchanged: true };
    const known = this.closedOf(w.id, attribute);
    const next =
      known
        .filter((f) => f.validFrom > time && f.validFrom < current.validFrom)
        .sort((a, b) => a.validFrom - b.validFrom)[0] ?? current;
    const before = known.find((f) => f.validFrom < time && f.validTo !== null && time < f.validTo);
    const follows = sameValue(next.value, value) ? next : { ...fact, validTo: next.validFrom, supersededBy: next.id };
    if (follows === next) {
      this.out.push({ op: 'fact.backdate', id: next.id, validFrom: time });
      if (next === current) w.current.set(attribute, { ...current, validFrom: time });
      else this.remember({ ...next, validFrom: time });
    } else {
      this.out.push({ op: 'fact.insert', fact: follows });
      this.remember(follows);
    }
    if (before) {
      this.out.push({ op: 'fact.close', id: before.id, validTo: time, supersededBy: follows.id });
      this.remember({ ...before, validTo: time, supersededBy: follows.id });
    }
    if (follows === next && before === undefined) return { unchanged: true };
    return { unchanged: false, previous: before?.value, historical: true };
  }

  /**
   * The instant a change of `w` said at `time` is recorded at, its facts and its transition alike: `time`, or a
   * millisecond after the entity's latest change in this batch when that was said at the same instant (one
   * conversation without a time per turn). Stored and read by time, such changes would otherwise come back in the
   * order of their random ids ("Adopted Firebase" before "First mentioned"); a fact and the transition that set it
   * keep one instant, which is how the life timeline pairs them.
   */
  instant(w: Working, time: number): number {
    const last = this.lastChange.get(w.id);
    return last !== undefined && time === last.said ? last.at + 1 : time;
  }

  transition(input: {
    w: Working;
    kind: TransitionKind;
    from: EntityState | null;
    to: EntityState;
    summary: string;
    /** The change's instant (from `instant`): its facts have the same. */
    time: number;
    /** When it was said, if `time` was moved off it by `instant`. */
    said?: number;
    episodeId: string;
    confidence: number;
  }): Transition {
    const last = this.lastChange.get(input.w.id);
    if (last === undefined || input.time >= last.at) {
      this.lastChange.set(input.w.id, { said: input.said ?? input.time, at: input.time });
    }
    const transition: Transition = {
      id: this.input.newId(),
      entityId: input.w.id,
      kind: input.kind,
      fromState: input.from,
      toState: input.to,
      summary: input.summary,
      eventTime: input.time,
      recordedAt: this.input.recordedAt,
      confidence: input.confidence,
      episodeId: input.episodeId,
      batchId: this.input.batchId,
      resolvedBy: null,
    };
    this.out.push({ op: 'transition.insert', transition });
    return transition;
  }

  /** Ids of entities created in this batch so far. */
  newIds(): Set<string> {
    return new Set([...this.entities.values()].filter((w) => w.isNew).map((w) => w.id));
  }

  emit(mutation: Mutation): void {
    this.out.push(mutation);
  }

  /** All mutations, new entities first (so everything that references them can be written). */
  /**
   * The facts a moved creation set (its state, from its old time and conversation) still current begin where it now
   * is, as in date order, unless this batch told another value of that attribute before them.
   */
  private moveCreationFacts(w: Working, time: number): void {
    const from = this.movedFrom.get(w.id);
    if (from === undefined) return;
    for (const f of w.current.values()) {
      if (f.validFrom !== from.eventTime || f.episodeId !== from.episodeId || f.validFrom <= time) continue;
      const toldBefore = this.closedOf(w.id, f.attribute).some((h) => h.validTo === f.validFrom);
      if (!toldBefore) this.out.push({ op: 'fact.backdate', id: f.id, validFrom: time });
    }
  }

  finish(): Mutation[] {
    const head: Mutation[] = [];
    for (const w of this.entities.values()) {
      if (w.isNew) {
        head.push({
          op: 'entity.insert',
          entity: {
            id: w.id,
            type: w.type,
            name: w.name,
            state: w.state,
            firstSeen: w.firstSeen,
            lastSeen: w.lastSeen,
            createdFrom: w.createdFrom,
            recordedAt: this.input.recordedAt,
          },
        });
      } else {
        this.out.push({ op: 'entity.touch', id: w.id, lastSeen: w.lastSeen, firstSeen: w.firstSeen, state: w.state });
        const c = w.creation;
        if (c !== undefined && c.episodeId !== null && this.movedFrom.has(w.id)) {
          this.out.push({
            op: 'transition.retime',
            id: c.id,
            eventTime: c.eventTime,
            episodeId: c.episodeId,
            summary: c.summary,
          });
          this.moveCreationFacts(w, c.eventTime);
        }
      }
    }
    return [...head, ...this.out];
  }
}

export type { Working };
