import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { executeKip, kipArgumentsShape, kipResponseShape, type KipArguments } from '../../../kip/api.js';
import type { McpDeps } from '../deps.js';
import { guarded, READ_ONLY, respond } from '../respond.js';
import { withBudget } from '../schemas.js';

/** KML writes, but a repeated UPSERT changes nothing; DELETE archives rather than erases (docs/kip.md). */
const WRITES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: false,
};

const ABOUT =
  'KIP (Knowledge Interaction Protocol) over PIE\'s world model: concepts are entities (types such as "Person", ' +
  '"Project"), propositions are current relationships ("works_on"), metadata is provenance and confidence. ' +
  'Start with `DESCRIBE PRIMER` to see the schema. Give `command` (one) or `commands` (a batch), with `parameters` ' +
  'for :name placeholders. See docs/kip.md for the mapping and what differs from the specification.';

/** execute_kip_readonly always; execute_kip unless the server is read-only. Both run src/kip's executeKip. */
export function registerKipTools(server: McpServer, deps: McpDeps): void {
  server.registerTool(
    'execute_kip_readonly',
    {
      title: 'KIP query (read-only)',
      description: `${ABOUT} Read-only: KQL (FIND … WHERE …) and META (DESCRIBE, SEARCH, EXPORT); KML is refused.`,
      inputSchema: kipArgumentsShape,
      outputSchema: withBudget(kipResponseShape),
      annotations: READ_ONLY,
    },
    (args) => guarded(deps, {}, () => run(deps, args, true)),
  );
  if (deps.readOnly) return;
  server.registerTool(
    'execute_kip',
    {
      title: 'KIP query and update',
      description:
        `${ABOUT} Also KML (UPSERT, UPDATE, MERGE, DELETE): every command is one transaction, journaled, and ` +
        'reversible with `pie undo <run-id>`; changed attributes supersede the old value in the history. Use ' +
        '`dry_run: true` to see what a command would do without keeping it.',
      inputSchema: kipArgumentsShape,
      outputSchema: withBudget(kipResponseShape),
      annotations: WRITES,
    },
    (args) => guarded(deps, {}, () => run(deps, args, false)),
  );
}

async function run(deps: McpDeps, args: KipArguments, readOnly: boolean): Promise<CallToolResult> {
  const response = await executeKip({
    store: deps.store,
    command: args.command,
    commands: args.commands,
    parameters: args.parameters,
    dryRun: args.dry_run,
    readOnly: readOnly || deps.readOnly,
    // execute_kip is not offered by a read-only server: pointing the model at it would send it in circles.
    ...(deps.readOnly
      ? { writeHint: 'This server is read-only (pie mcp --read-only); nothing can be written through it.' }
      : {}),
    clock: deps.clock,
    newId: deps.newId,
    embedder: deps.embedder,
  });
  const result = respond(deps, {
    text: JSON.stringify(response, null, 2),
    structured: response,
    narrow: 'Add LIMIT (and use the returned next_cursor with CURSOR) or select fewer variables.',
  });
  return 'error' in response ? { ...result, isError: true } : result;
}
