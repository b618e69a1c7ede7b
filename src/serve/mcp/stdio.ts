import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { errorMessage } from '../../domain/errors.js';
import type { McpDeps } from './deps.js';
import { createMcpServer } from './server.js';
import { connectMcp } from './connect.js';

/**
 * Serves one client over stdin/stdout until the client goes away (stdin ends) or `signal` aborts. Stdout carries
 * only the protocol: anything that would log to it (console.log, console.info) goes to stderr while serving.
 */
export async function serveStdio(input: {
  deps: McpDeps;
  signal: AbortSignal;
  stdin?: Readable;
  stdout?: Writable;
}): Promise<void> {
  const stdin = input.stdin ?? process.stdin;
  const stdout = input.stdout ?? process.stdout;
  const { deps } = input;
  const restore = guardStdout();
  const server = createMcpServer(deps);
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<string>((resolve) => {
    server.server.onclose = () => resolve('the connection closed');
    stdin.once('end', () => resolve('the client closed stdin'));
    stdin.once('close', () => resolve('the client closed stdin'));
    stdout.on('error', (error: Error) => resolve(`stdout failed (${error.message})`));
    if (input.signal.aborted) resolve('asked to stop');
    input.signal.addEventListener('abort', () => resolve('asked to stop'), { once: true });
  });
  server.server.onerror = (error) => deps.log(`protocol error: ${errorMessage(error)}`);
  try {
    await connectMcp(server, transport);
    deps.log(`PIE MCP server ready on stdio${deps.readOnly ? ' (read-only)' : ''}.`);
    const why = await closed;
    deps.log(`Stopping: ${why}.`);
  } finally {
    await server.close().catch((error: unknown) => deps.log(`closing the MCP server: ${errorMessage(error)}`));
    restore();
  }
}

/** Sends console output that defaults to stdout to stderr; returns the undo. */
function guardStdout(): () => void {
  const { log, info, debug } = console;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  return () => {
    console.log = log;
    console.info = info;
    console.debug = debug;
  };
}
