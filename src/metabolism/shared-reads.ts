import type { WorldStore } from '../ports/world-store.js';

/**
 * The store as a dry run reads it: the whole-memory reads that several of its steps make (the world's counts, read
 * by salience, decay and health; the graph's current edges, read by salience and dreams) are read once per run and
 * shared. Only for a dry run: it writes nothing, so a later step cannot miss a change an earlier one made (a real
 * run reads its own transaction every time). The shared answers are never changed by their readers. Everything
 * else goes to `store` as it is.
 */
export function withSharedReads(store: WorldStore): WorldStore {
  const once = <T>(read: () => Promise<T>): (() => Promise<T>) => {
    let answer: Promise<T> | undefined;
    return () => (answer ??= read());
  };
  const stats = once(() => store.stats());
  const graphEdges = once(() => store.upkeep.graphEdges());
  const upkeep = new Proxy(store.upkeep, {
    get: (target, key) => (key === 'graphEdges' ? graphEdges : bound(target, key)),
  });
  return new Proxy(store, {
    get: (target, key) => (key === 'stats' ? stats : key === 'upkeep' ? upkeep : bound(target, key)),
  });
}

/** A property of `target`, a method bound to it (adapters may keep their state on `this`). */
function bound(target: object, key: string | symbol): unknown {
  const value: unknown = Reflect.get(target, key, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
