import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpDeps } from './deps.js';
import { registerResources } from './resources.js';
import { withStrictArguments } from './strict-input.js';
import { registerEntityTools } from './tools/entities.js';
import { registerForgetTool } from './tools/forget.js';
import { registerHistoryTools } from './tools/history.js';
import { registerIngestTool } from './tools/ingest.js';
import { registerKipTools } from './tools/kip.js';
import { registerPeriodTools } from './tools/periods.js';
import { registerPyramidTools } from './tools/pyramid.js';
import { registerQueryTools } from './tools/query.js';

/** Tool arguments are a few strings and numbers; anything much larger is refused before it is parsed further. */
const MAX_TOOL_INPUT_ELEMENTS = 64;

const INSTRUCTIONS = [
  "PIE is the user's personal world model: the people, projects, tools, beliefs and decisions in their chat history,",
  'with how each changed over time and the periods of their life. Use query_world for questions in words;',
  'get_entity / get_entity_timeline for one entity; get_world_snapshot, diff_periods and list_periods for the world at',
  'a time and what changed; get_contradictions and get_procedures for conflicts and habits; search_memory to find names;',
  'execute_kip_readonly (and execute_kip) for precise graph patterns in KIP;',
  'get_pyramid for a bounded long-term picture of the user (or another mental model) from pyramid memory.',
  'Cite the numbered sources query_world gives. Responses are held to a token budget and say when something was cut.',
].join(' ');

/** The MCP server over the world model. One per connection (HTTP sessions each get their own); deps are shared. */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = withStrictArguments(
    new McpServer(
      { name: 'pie', title: 'PIE — Personal Intelligence Engine', version: deps.version },
      {
        instructions: deps.readOnly ? `${INSTRUCTIONS} This server is read-only.` : INSTRUCTIONS,
        maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      },
    ),
  );
  registerQueryTools(server, deps);
  registerEntityTools(server, deps);
  registerHistoryTools(server, deps);
  registerPeriodTools(server, deps);
  registerKipTools(server, deps);
  registerPyramidTools(server, deps);
  if (!deps.readOnly) {
    registerIngestTool(server, deps);
    registerForgetTool(server, deps);
  }
  registerResources(server, deps);
  return server;
}
