import type { EntityState, Fact } from '../domain/world.js';

/** A fact that stays but is closed differently once the facts that superseded it are gone. */
export interface FactRepair {
  id: string;
  validTo: number | null;
  supersededBy: string | null;
}

const chronological = (a: Fact, b: Fact): number =>
  a.validFrom - b.validFrom || a.recordedAt - b.recordedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The attribute history of one entity after some of its facts go (DESIGN.md §2: a change supersedes, and the current
 * state is the set of facts with no validTo). A remaining fact superseded by a removed one is superseded instead by
 * the first remaining fact down that chain; when the chain holds none, it is current again, unless another remaining
 * fact of the attribute is current, in which case the later of the two stays current and closes the earlier. Facts
 * not superseded by a removed fact are left as they are. Pure.
 */
export function repairFacts(facts: readonly Fact[], removed: ReadonlySet<string>): FactRepair[] {
  const byId = new Map(facts.map((f) => [f.id, f]));
  const remaining = facts.filter((f) => !removed.has(f.id));
  const repairs = new Map<string, FactRepair>();
  const reopened = new Map<string, Fact[]>();
  for (const f of remaining) {
    if (f.supersededBy === null || !removed.has(f.supersededBy)) continue;
    let next = byId.get(f.supersededBy);
    const seen = new Set<string>();
    while (next && removed.has(next.id) && !seen.has(next.id)) {
      seen.add(next.id);
      next = next.supersededBy === null ? undefined : byId.get(next.supersededBy);
    }
    if (next && !removed.has(next.id)) {
      repairs.set(f.id, { id: f.id, validTo: next.validFrom, supersededBy: next.id });
    } else {
      reopened.set(f.attribute, [...(reopened.get(f.attribute) ?? []), f]);
    }
  }
  for (const [attribute, candidates] of reopened) {
    const current = remaining.filter((f) => f.attribute === attribute && f.validTo === null);
    const line = [...new Set([...current, ...candidates])].sort(chronological);
    line.forEach((f, i) => {
      const later = line[i + 1];
      const repair: FactRepair = later
        ? { id: f.id, validTo: later.validFrom, supersededBy: later.id }
        : { id: f.id, validTo: null, supersededBy: null };
      if (repair.validTo !== f.validTo || repair.supersededBy !== f.supersededBy) repairs.set(f.id, repair);
    });
  }
  return [...repairs.values()];
}

/**
 * The state of an entity once facts went and others were repaired: every attribute that lost a fact takes the value
 * of its current fact, or is dropped when none is left; other attributes are kept as they are. Pure.
 */
export function stateAfter(input: {
  state: EntityState;
  facts: readonly Fact[];
  removed: ReadonlySet<string>;
  repairs: readonly FactRepair[];
}): EntityState {
  const repaired = new Map(input.repairs.map((r) => [r.id, r]));
  const affected = new Set(input.facts.filter((f) => input.removed.has(f.id)).map((f) => f.attribute));
  const current = new Map<string, Fact>();
  for (const f of [...input.facts].sort(chronological)) {
    if (!affected.has(f.attribute) || input.removed.has(f.id)) continue;
    const validTo = repaired.has(f.id) ? repaired.get(f.id)?.validTo : f.validTo;
    if (validTo === null) current.set(f.attribute, f);
  }
  const state: EntityState = { ...input.state };
  for (const attribute of affected) {
    const f = current.get(attribute);
    if (f) state[attribute] = f.value;
    else delete state[attribute];
  }
  return state;
}
