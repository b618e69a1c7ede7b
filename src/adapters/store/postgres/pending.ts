import { PieError } from '../../../domain/errors.js';

/**
 * A part of the store that the PostgreSQL adapter does not implement yet (issue #18): every method fails with
 * UNSUPPORTED and says so, instead of pretending to work.
 */
export function notYetOnPostgres<T extends object>(part: string): T {
  return new Proxy({} as T, {
    get(_target, method) {
      if (typeof method !== 'string' || method === 'then') return undefined;
      return () =>
        Promise.reject(
          new PieError('UNSUPPORTED', `${part}.${method} is not available on the PostgreSQL store yet; use SQLite.`),
        );
    },
  });
}
