import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compose, createEmbedderFromEnv, createExtraction, type Services } from '../src/compose.js';
import { loadConfig } from '../src/config/config.js';
import { tempDir } from './helpers/cli.js';

let services: Services;
let cleanup: () => void;

async function open(env: Record<string, string>): Promise<Services> {
  const t = tempDir();
  cleanup = t.cleanup;
  const config = loadConfig({ flags: { db: join(t.dir, 'pie.db'), tz: 'UTC' }, env });
  return compose({ config, env });
}

afterEach(async () => {
  await services.close();
  cleanup();
});

describe('composition root: choosing the extractor', () => {
  beforeEach(async () => {
    services = await open({});
  });

  it('auto without a model is the offline extractor; --extractor llm without one is a clear error', async () => {
    const auto = await createExtraction({ services, choice: 'auto' });
    expect([auto.extractor.kind, auto.model, auto.description]).toEqual(['offline', null, 'offline rules']);
    await expect(createExtraction({ services, choice: 'llm' })).rejects.toThrow(
      /No model is configured for --extractor llm/,
    );
  });

  it('an API key selects the provider; --extractor offline overrides it', async () => {
    services.env.OPENAI_API_KEY = 'sk-test';
    const llm = await createExtraction({ services, choice: 'auto' });
    expect([llm.extractor.kind, llm.description]).toEqual(['llm', 'openai:gpt-5-mini (from OPENAI_API_KEY)']);
    expect(llm.verifier).toBeTypeOf('function');
    const offline = await createExtraction({ services, choice: 'offline' });
    expect(offline.extractor.kind).toBe('offline');
  });

  it('PIE_EMBEDDER configures the embedding layer; a provider without embeddings is refused', () => {
    expect(createEmbedderFromEnv({})).toBeUndefined();
    expect(createEmbedderFromEnv({ PIE_EMBEDDER: 'fake:trigram' })?.model).toBe('fake:trigram-64');
    expect(createEmbedderFromEnv({ PIE_EMBEDDER: 'ollama:nomic-embed-text' })?.model).toBe('ollama:nomic-embed-text');
    expect(() => createEmbedderFromEnv({ PIE_EMBEDDER: 'anthropic:x' })).toThrow(/no embedding models/);
  });
});
