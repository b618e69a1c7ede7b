import { kinshipConflict } from '../../domain/kinship.js';
import { DATED_ATTRIBUTES, type EntityState, type StateValue } from '../../domain/world.js';
import type { ExtractedStateChange } from '../../extract/result.js';
import type { PlanContext } from './context.js';
import { sameValue, type Working } from './working-set.js';

/** Attribute a state change applies to: named by the extractor, else the one holding the old value, else "status". */
export function attributeFor(
  w: Pick<Working, 'state'>,
  change: Pick<ExtractedStateChange, 'attribute' | 'oldStateAspect'>,
): string {
  if (change.attribute) return change.attribute;
  if (change.oldStateAspect) {
    for (const [attribute, value] of Object.entries(w.state)) {
      if (sameValue(value, change.oldStateAspect)) return attribute;
    }
  }
  return 'status';
}

/**
 * A state change becomes an update (or contradiction) transition from the old to the new value and supersedes the
 * fact it changes. A flagged contradiction, or a kinship that would change (kinship.ts, whichever extractor said
 * it), stays unresolved until a resolution transition closes it.
 */
export function planStateChanges(ctx: PlanContext): void {
  for (const change of ctx.input.result.stateChanges) {
    const w = ctx.entity(change.entityName, change);
    const attribute = attributeFor(w, change);
    const said = ctx.timeOf(change);
    const time = ctx.ws.instant(w, said);
    const episodeId = ctx.episodeOf(change);
    const outcome = ctx.ws.setAttribute({
      w,
      attribute,
      value: change.newStateAspect,
      time,
      episodeId,
      confidence: change.confidence,
    });
    if (outcome.unchanged) continue;
    // Older information arriving late leaves the present as it is (its fact is closed history). An event told late
    // ("I made this apple pie yesterday", after today's news) is still something that happened then, and a plan said
    // in a conversation imported after a later plan was still made then: their transitions keep them in the entity's
    // history, where an older value of any other attribute has no "from" to show.
    if (outcome.historical && !DATED_ATTRIBUTES.has(attribute)) continue;
    const fromValue: StateValue = outcome.historical ? null : (outcome.previous ?? change.oldStateAspect ?? null);
    const conflict = change.isContradiction || kinshipConflict(attribute, fromValue, change.newStateAspect);
    ctx.ws.transition({
      w,
      kind: conflict ? 'contradiction' : 'update',
      from: { [attribute]: fromValue },
      to: { [attribute]: change.newStateAspect },
      summary: change.whatChanged,
      time,
      said,
      episodeId,
      confidence: change.confidence,
    });
  }
}

/**
 * Declared entities: new ones are created with their state; known ones get one update transition for what changed
 * (a contradiction when a kinship would change: kinship.ts).
 */
export function planEntities(ctx: PlanContext, which: 'new' | 'existing'): void {
  for (const e of ctx.input.result.entities) {
    const ref = ctx.ref(e.name);
    const isNew = ctx.ws.isNew(ref.id);
    if ((which === 'new') !== isNew) continue;
    const declaredBefore = ctx.ws.isCreated(ref.id);
    const w = ctx.entity(e.name, e, { state: e.state });
    for (const alias of e.aliases) ctx.ws.addAlias(w, alias);
    if (isNew && !declaredBefore) continue;
    const said = ctx.timeOf(e);
    const time = ctx.ws.instant(w, said);
    const episodeId = ctx.episodeOf(e);
    const from: EntityState = {};
    const to: EntityState = {};
    for (const [attribute, value] of Object.entries(e.state)) {
      const outcome = ctx.ws.setAttribute({ w, attribute, value, time, episodeId, confidence: 0.8 });
      if (outcome.unchanged || outcome.historical) continue;
      from[attribute] = outcome.previous ?? null;
      to[attribute] = value;
    }
    const changed = Object.keys(to);
    if (changed.length === 0) continue;
    const conflict = changed.some((a) => kinshipConflict(a, from[a] ?? null, to[a] ?? null));
    ctx.ws.transition({
      w,
      kind: conflict ? 'contradiction' : 'update',
      from,
      to,
      summary: changed.map((a) => describeChange(a, from[a] ?? null, to[a] ?? null)).join('; '),
      time,
      said,
      episodeId,
      confidence: 0.8,
    });
  }
}

export function describeChange(attribute: string, from: StateValue, to: StateValue): string {
  return from === null ? `${attribute}: ${String(to)}` : `${attribute}: ${String(from)} → ${String(to)}`;
}
