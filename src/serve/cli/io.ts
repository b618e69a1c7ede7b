import { createInterface } from 'node:readline';
import type { Env } from '../../config/config.js';

/** What the CLI touches of the outside world, so tests can run it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Env;
  /** True when stderr is an interactive terminal: progress lines are shown only then. */
  interactive: boolean;
  /**
   * Asks a yes/no question on the terminal and answers true for "y" or "yes"; absent when stdin or stderr is not a
   * terminal (a script, a pipe, CI), where commands that need a confirmation ask for --yes instead.
   */
  confirm?: (question: string) => Promise<boolean>;
}

export function processIo(): CliIo {
  // A reader that stops early (`pie ingest … | head -3`) closes the pipe: the command still finishes its work (an
  // ingest half done would only be resumed later) and writes no more to it, instead of dying on an unhandled EPIPE.
  let stdoutClosed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stdoutClosed = true;
  });
  return {
    stdout: (text) => {
      if (!stdoutClosed) process.stdout.write(text);
    },
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    interactive: Boolean(process.stderr.isTTY),
    ...(process.stdin.isTTY && process.stderr.isTTY ? { confirm: askOnTerminal } : {}),
  };
}

async function askOnTerminal(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await new Promise<string>((resolve) => {
      rl.once('close', () => resolve(''));
      rl.question(question, resolve);
    });
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}

/** A progress line that rewrites itself on a terminal and stays silent elsewhere (pipes, CI, --json). */
export interface Progress {
  update(text: string): void;
  done(): void;
}

export function createProgress(input: { io: CliIo; enabled: boolean; minIntervalMs?: number }): Progress {
  const { io } = input;
  if (!input.enabled || !io.interactive) return { update: () => undefined, done: () => undefined };
  const minInterval = input.minIntervalMs ?? 100;
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const t = Date.now();
      if (t - last < minInterval) return;
      last = t;
      shown = true;
      io.stderr(`\r\u001b[2K${text}`);
    },
    done() {
      if (shown) io.stderr('\r\u001b[2K');
      shown = false;
    },
  };
}
