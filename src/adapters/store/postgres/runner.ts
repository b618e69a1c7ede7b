import { type Level, type PgConnection, transactionEnded } from './connection.js';
import { sessionSql, type Params, type Sql } from './sql.js';

/**
 * The runner of one store object (the root or a transaction handle). A statement acts on the innermost open
 * transaction of the calling async context, else on this store's level; it runs at once unless that level is busy
 * with an inner transaction or an atomic step, and then waits for it to end.
 */
export function levelSql(conn: PgConnection, level: Level): Sql {
  const on = async <R>(exclusive: boolean, op: (target: Level) => Promise<R>): Promise<R> => {
    conn.assertOpen();
    if (!level.active) throw transactionEnded();
    const target = conn.effective(level);
    if (!exclusive && target.mutex.idle) return op(target);
    const release = await target.mutex.acquire();
    try {
      conn.assertOpen();
      if (!target.active) throw transactionEnded();
      return await op(target);
    } finally {
      release();
    }
  };
  return {
    all: <R>(text: string, params?: Params) => on(false, (t) => sessionSql(t.session, t.depth).all<R>(text, params)),
    one: <R>(text: string, params?: Params) => on(false, (t) => sessionSql(t.session, t.depth).one<R>(text, params)),
    run: (text, params) => on(false, (t) => sessionSql(t.session, t.depth).run(text, params)),
    atomic: (fn) =>
      on(true, (t) => (t.depth === 0 ? onOwnClient(conn, fn) : sessionSql(t.session, t.depth).atomic(fn))),
  };
}

/** Runs `fn` in a transaction of its own on a dedicated client (an atomic step of the root store). */
async function onOwnClient<T>(conn: PgConnection, fn: (sql: Sql) => Promise<T>): Promise<T> {
  const leased = await conn.driver.connect();
  const session = conn.translated(leased);
  let broken = false;
  try {
    await session.query('BEGIN', []);
    try {
      const value = await fn(sessionSql(session, 1));
      await session.query('COMMIT', []);
      return value;
    } catch (error) {
      await session.query('ROLLBACK', []).catch(() => {
        broken = true;
      });
      throw error;
    }
  } finally {
    leased.release(broken);
  }
}
