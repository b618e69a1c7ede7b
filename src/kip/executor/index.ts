import type { JsonValue, Statement } from '../ast.js';
import type { ExecContext } from './context.js';
import { executeFind } from './find.js';
import { executeDelete } from './kml/delete.js';
import { executeMerge } from './kml/merge.js';
import { executeUpdate } from './kml/update.js';
import { executeUpsert } from './kml/upsert.js';
import { executeDescribe } from './meta/describe.js';
import { executeExport } from './meta/export.js';
import { executeSearch } from './meta/search.js';

export interface StatementResult {
  result: JsonValue;
  nextCursor?: string;
}

/** Runs one parsed statement. KML statements expect `ctx.writer` (the caller's transaction). */
export async function executeStatement(ctx: ExecContext, stmt: Statement): Promise<StatementResult> {
  switch (stmt.kind) {
    case 'find': {
      const page = await executeFind(ctx, stmt);
      return page.nextCursor ? { result: page.result, nextCursor: page.nextCursor } : { result: page.result };
    }
    case 'describe': {
      const r = await executeDescribe(ctx, stmt);
      return 'nextCursor' in r && r.nextCursor ? { result: r.result, nextCursor: r.nextCursor } : { result: r.result };
    }
    case 'search':
      return { result: await executeSearch(ctx, stmt) };
    case 'export':
      return { result: json(await executeExport(ctx, stmt)) };
    case 'upsert':
      return { result: json(await executeUpsert(ctx, stmt)) };
    case 'update':
      return { result: json(await executeUpdate(ctx, stmt)) };
    case 'merge':
      return { result: json(await executeMerge(ctx, stmt)) };
    case 'delete':
      return { result: json(await executeDelete(ctx, stmt)) };
  }
}

function json(value: object): JsonValue {
  return value as unknown as JsonValue;
}
