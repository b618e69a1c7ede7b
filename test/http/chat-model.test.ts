import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { fixtureWorld, openApi, type Api } from './harness.js';

/** The browser tests' scripted model, so the API and the UI are held to the same script. */
const SCRIPT = join(ROOT, 'test', 'browser', 'fake-llm.json');

let world: Awaited<ReturnType<typeof fixtureWorld>>;
let api: Api;

beforeAll(async () => {
  world = await fixtureWorld();
  api = await openApi({ db: world.db, env: { PIE_LLM: `fake:${SCRIPT}` } });
});
afterAll(async () => {
  await api.close();
  world.cleanup();
});

describe('HTTP API with a model', () => {
  it('answers a chat question with the model and the sources of its context', async () => {
    const r = await api.post<{ route: string; answer: { text: string; model: string }; sources: unknown[] }>(
      '/api/chat',
      { message: 'How has Tidepool changed?' },
    );
    expect(r.status).toBe(200);
    expect(r.body.route).toBe('question');
    expect(r.body.answer.text).toContain('research-notes tool');
    expect(r.body.answer.model).toContain('fake');
    expect(r.body.sources.length).toBeGreaterThan(0);
  });

  it('stores a statement through the model extraction', async () => {
    const r = await api.post<{ route: string; outcome: string; extractor: string; entities: { name: string }[] }>(
      '/api/chat',
      { message: 'I started learning Rust today.' },
    );
    expect(r.status).toBe(200);
    expect(r.body.route).toBe('statement');
    expect(r.body.outcome).toBe('ingested');
    expect(r.body.entities.map((e) => e.name)).toContain('Rust');
    const status = await api.get<{ model: string }>('/api/status');
    expect(status.body.model).toContain('fake');
  });
});
