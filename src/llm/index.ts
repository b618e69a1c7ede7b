export { createLlmClient, type LlmClientOptions } from './client.js';
export { llmCacheKey } from './cache-key.js';
export { extractJsonText, parseModelJson, summarizeIssues } from './parse.js';
export {
  DEFAULT_PRICES,
  estimateCost,
  findPrice,
  loadPrices,
  type CostEstimate,
  type ModelPrice,
  type PriceTable,
} from './prices.js';
export {
  definePrompt,
  defineTextPrompt,
  toModelJsonSchema,
  type PromptDefinition,
  type PromptModule,
  type TextPromptModule,
} from './prompt.js';
export { DEFAULT_RETRY_POLICY, backoffDelay, realSleep, retryDelay, type RetryPolicy, type Sleep } from './retry.js';
export {
  DEFAULT_MODELS,
  formatModelRef,
  parseModelRef,
  selectModel,
  type ModelSelection,
  type ModelSource,
} from './select.js';
export type { LlmCallEvent, LlmClient, LlmResult, LlmRetryEvent, LlmTextResult } from './types.js';
export { addUsage, emptyUsage } from './usage.js';
