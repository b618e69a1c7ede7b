import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCResponse } from '@modelcontextprotocol/sdk/types.js';
import { argumentNames, argumentProblem } from './strict-input.js';

/**
 * Connects a PIE MCP server to a transport (stdio, an HTTP session, a test's in-memory pair). A `tools/call` whose
 * `arguments` is not an object (a string, an array, null) is answered here as a tool error the model can act on;
 * left to the SDK it failed request validation and came back as a protocol error carrying a raw schema dump, which
 * clients hide from the model.
 */
export async function connectMcp(server: McpServer, transport: Transport): Promise<void> {
  await server.connect(transport);
  const inner = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const refusal = nonObjectArguments(message, (tool) => argumentNames(server, tool)) ?? badArguments(server, message);
    if (refusal === null) return inner?.(message, extra);
    void transport.send(refusal, { relatedRequestId: refusal.id });
  };
}

/**
 * The tool error for a `tools/call` whose arguments are not a JSON object, or null when they are (or absent). The
 * example object uses the tool's own first argument (`names`), or is empty for a tool without arguments.
 */
export function nonObjectArguments(
  message: JSONRPCMessage,
  names: (tool: string) => readonly string[] = () => [],
): JSONRPCResponse | null {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
  const args = params.arguments;
  if (args === undefined || (typeof args === 'object' && args !== null && !Array.isArray(args))) return null;
  const tool = typeof params.name === 'string' ? params.name : 'A tool';
  const given = args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`;
  const first = names(tool)[0];
  const example = first === undefined ? '{}' : `{"${first}": "…"}`;
  return toolError(
    message.id,
    `${tool} takes its arguments as a JSON object of named values (e.g. ${example}), not ${given}; call it again with an object.`,
  );
}

/** The tool error for a `tools/call` whose object of arguments its tool's schema refuses (argumentProblem), or null. */
function badArguments(server: McpServer, message: JSONRPCMessage): JSONRPCResponse | null {
  if (!('method' in message) || message.method !== 'tools/call' || !('id' in message)) return null;
  const params = (message.params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
  if (typeof params.name !== 'string') return null;
  const problem = argumentProblem(server, params.name, params.arguments ?? {});
  return problem === null ? null : toolError(message.id, problem);
}

function toolError(id: string | number, text: string): JSONRPCResponse {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      isError: true,
      content: [{ type: 'text', text }],
      _meta: { 'pie/error': { code: 'INVALID_ARGUMENT', suggestions: [] } },
    },
  };
}
