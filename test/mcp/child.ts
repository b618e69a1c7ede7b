import type { ChildProcess } from 'node:child_process';
import { finished, spawnPie } from '../helpers/cli.js';
import { G } from './harness.js';

/** `pie mcp --http --port 0` as a child process; resolves with the URL it prints on stderr. */
export async function startHttpChild(
  /** The database, then any further `pie mcp` arguments. */
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; result: ReturnType<typeof finished> }> {
  const child = spawnPie(['--db', args[0] ?? '', ...G, 'mcp', '--http', '--port', '0', ...args.slice(1)], env);
  const result = finished(child);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${seen}`)), 30_000);
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      const match = /serving (http:\/\/\S+\/mcp)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', () => reject(new Error(`pie mcp exited: ${seen}`)));
  });
  return { child, url, result };
}
