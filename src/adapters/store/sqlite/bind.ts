/** The synchronous twin of an async port interface: same methods and arguments, plain return values. */
export type SyncOf<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** Runs one synchronous storage operation under the right locking and error translation. */
export type Runner = <R>(op: () => R) => Promise<R>;

/**
 * Turns a synchronous repository (better-sqlite3 is synchronous) into the async port shape, every call going
 * through `run`. The root store and each transaction bind the same prepared repositories with different runners.
 */
export function bindRepo<T extends object>(sync: SyncOf<T>, run: Runner): T {
  const bound: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, method] of Object.entries(sync) as [string, (...args: unknown[]) => unknown][]) {
    bound[name] = (...args: unknown[]) => run(() => method(...args));
  }
  // The keys and argument lists are exactly those of T; only the return values became promises.
  return bound as unknown as T;
}
