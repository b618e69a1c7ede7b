import type { Usage } from '../extract/types.js';

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, costUsd: 0, cachedCalls: 0, calls: 0 };
}

/** Sum of two usages (per-batch into per-run accounting). */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    costUsd: a.costUsd + b.costUsd,
    cachedCalls: a.cachedCalls + b.cachedCalls,
    calls: a.calls + b.calls,
  };
}
