import type { ChildProcess } from 'node:child_process';
import { finished, spawnPie, type CliResult } from './cli.js';

/** A `pie serve` or `pie mcp --http` child process and the URL it announced. */
export interface ServerChild {
  child: ChildProcess;
  url: string;
  result: Promise<CliResult>;
}

/**
 * Spawns `pie <args>` and resolves once its stderr shows the URL it serves (`urlPattern`'s first group). Generous
 * timeout: starting the CLI through tsx takes seconds on a loaded machine.
 */
export async function startServerChild(input: {
  args: string[];
  env?: Record<string, string>;
  urlPattern: RegExp;
  timeoutMs?: number;
}): Promise<ServerChild> {
  const child = spawnPie(input.args, input.env ?? {});
  const result = finished(child);
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no URL on stderr: ${seen}`)), input.timeoutMs ?? 120_000);
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      const match = input.urlPattern.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`pie ${input.args.join(' ')} exited: ${seen}`));
    });
  });
  return { child, url, result };
}

/** `pie <globals> serve --port 0 <args>`; resolves with the base URL it prints on stderr. */
export function startServeChild(
  globals: string[],
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerChild> {
  return startServerChild({
    args: [...globals, 'serve', '--port', '0', ...args],
    env,
    urlPattern: /serving (http:\/\/\S+\/)/,
  });
}

/** `pie <globals> mcp --http --port 0 <args>`; resolves with the /mcp URL it prints on stderr. */
export function startMcpHttpChild(
  globals: string[],
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ServerChild> {
  return startServerChild({
    args: [...globals, 'mcp', '--http', '--port', '0', ...args],
    env,
    urlPattern: /serving (http:\/\/\S+\/mcp)/,
  });
}

/** Stops a server child with a signal (SIGTERM by default) and returns how it ended. */
export async function stopServerChild(
  running: Pick<ServerChild, 'child' | 'result'>,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<CliResult> {
  running.child.kill(signal);
  return running.result;
}
