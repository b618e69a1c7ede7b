import type { OpenedMemories } from './memories.js';
import { describeMemories } from './memories.js';

/** Made on first use and kept; a failure is not kept, so the next call tries again. */
export function madeOnce<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    made.catch(() => (made = undefined));
    return made;
  };
}

/**
 * Runs a server until Ctrl-C or SIGTERM: `serve` starts it and returns what stops it, which runs once a signal came
 * (at once when one came during the start). The signal handlers are removed however it ends.
 */
export async function serveUntilStopped(input: {
  log: (message: string) => void;
  serve: (signal: AbortSignal) => Promise<(() => Promise<void>) | null>;
}): Promise<void> {
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const close = await input.serve(stop.signal);
    if (close === null) return;
    await new Promise<void>((resolve) => {
      if (stop.signal.aborted) resolve();
      stop.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    input.log('stopping.');
    await close();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** The start-up line's "who may call": the memories' tokens, the one token in `tokenEnv`, or loopback only. */
export function accessNote(input: {
  served: OpenedMemories | null;
  token: string | undefined;
  tokenEnv: string;
  requests: string;
}): string {
  if (input.served) return describeMemories(input.served);
  return input.token
    ? `${input.requests} needs "Authorization: Bearer $${input.tokenEnv}"`
    : 'no token (loopback only)';
}
