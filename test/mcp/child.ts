import { startMcpHttpChild, type ServerChild } from '../helpers/server-child.js';
import { G } from './harness.js';

/** `pie mcp --http --port 0` as a child process (with the fixture's clock); resolves with the URL it prints on stderr. */
export function startHttpChild(
  /** The database, then any further `pie mcp` arguments. */
  args: string[],
  env: Record<string, string> = {},
): Promise<ServerChild> {
  return startMcpHttpChild(['--db', args[0] ?? '', ...G], args.slice(1), env);
}
