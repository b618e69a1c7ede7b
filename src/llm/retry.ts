import { setTimeout as delay } from 'node:timers/promises';
import { isPieError } from '../domain/errors.js';

/** Waits `ms`; rejects when `signal` aborts. Injected so tests assert durations instead of waiting. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal === undefined ? undefined : { signal });
};

export interface RetryPolicy {
  /** Total attempts per model call, the first included. */
  maxAttempts: number;
  /** First backoff delay; doubles on every further attempt. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server asking for a longer pause than this is not waited for: the call fails with its rate-limit error. */
  maxRetryAfterMs: number;
  /** Jitter source in [0, 1); injectable for deterministic tests. */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 6,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
  random: Math.random,
};

/** Exponential backoff with "equal jitter": half the step is fixed, half random, so retries spread out. */
export function backoffDelay(input: { attempt: number; policy: RetryPolicy }): number {
  const { attempt, policy } = input;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + policy.random() * (step / 2));
}

/**
 * How long to wait before retrying after `error` on attempt `attempt` (1-based), or null when the error is final:
 * rate limits wait what the server asked (or back off), transient unavailability backs off, everything else is final.
 */
export function retryDelay(input: { error: unknown; attempt: number; policy: RetryPolicy }): number | null {
  const { error, attempt, policy } = input;
  if (attempt >= policy.maxAttempts) return null;
  if (isPieError(error, 'LLM_RATE_LIMITED')) {
    const asked = error.details?.retryAfterMs;
    if (typeof asked === 'number' && Number.isFinite(asked) && asked >= 0) {
      return asked > policy.maxRetryAfterMs ? null : Math.ceil(asked);
    }
    return backoffDelay({ attempt, policy });
  }
  if (isPieError(error, 'LLM_UNAVAILABLE') && error.details?.transient === true) {
    return backoffDelay({ attempt, policy });
  }
  return null;
}
