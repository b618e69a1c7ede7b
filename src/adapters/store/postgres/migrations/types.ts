/** One versioned schema step of the PostgreSQL store; `sql` may hold several statements. */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}
