/** One schema step. Versions are consecutive integers starting at 1; `sql` runs inside the migration transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
