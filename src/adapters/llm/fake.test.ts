import { describe, expect, it } from 'vitest';
import { PieError } from '../../domain/errors.js';
import type { ModelRequest } from '../../ports/llm.js';
import { createScriptedModel } from './fake.js';

function request(prompt: string, content = 'hello'): ModelRequest {
  return { prompt, messages: [{ role: 'user', content }] };
}

describe('scripted fake model', () => {
  it('answers each prompt with its scripted items in order', async () => {
    const model = createScriptedModel({
      script: {
        'a@1': ['first', { n: 2 }, (req) => ({ echo: req.messages[0]?.content })],
        'b@1': ['only b'],
      },
    });
    expect((await model.generate(request('a@1'))).text).toBe('first');
    expect((await model.generate(request('b@1'))).text).toBe('only b');
    expect((await model.generate(request('a@1'))).text).toBe('{"n":2}');
    expect((await model.generate(request('a@1', 'xyz'))).text).toBe('{"echo":"xyz"}');
    expect(model.calls.map((c) => c.prompt)).toEqual(['a@1', 'b@1', 'a@1', 'a@1']);
    expect(model.remaining()).toEqual({ 'a@1': 0, 'b@1': 0 });
  });

  it('reports deterministic token usage (characters / 4, rounded up)', async () => {
    const model = createScriptedModel({ script: { 'a@1': ['12345'] } });
    const response = await model.generate(request('a@1', 'x'.repeat(10)));
    expect(response).toEqual({ text: '12345', inputTokens: 3, outputTokens: 2, finishReason: 'stop' });
  });

  it('throws scripted errors', async () => {
    const limited = new PieError('LLM_RATE_LIMITED', 'slow down', { details: { retryAfterMs: 10 } });
    const model = createScriptedModel({ script: { 'a@1': [limited, 'ok'] } });
    await expect(model.generate(request('a@1'))).rejects.toBe(limited);
    expect((await model.generate(request('a@1'))).text).toBe('ok');
  });

  it('fails loudly on an unscripted prompt, naming it and listing the script', async () => {
    const model = createScriptedModel({ script: { 'a@1': ['x'], 'b@2': [] } });
    await expect(model.generate(request('c@1'))).rejects.toThrow(
      /unscripted prompt, "c@1"; scripted prompts: a@1 \(1 of 1 left\), b@2 \(0 of 0 left\)/,
    );
  });

  it('fails loudly when a prompt’s answers are used up', async () => {
    const model = createScriptedModel({ script: { 'a@1': ['x'] } });
    await model.generate(request('a@1'));
    await expect(model.generate(request('a@1'))).rejects.toThrow(/answers are all used, "a@1".*a@1 \(0 of 1 left\)/);
  });

  it('answers uncovered calls with respond() when given, after the delay', async () => {
    const model = createScriptedModel({
      script: { 'a@1': ['scripted'] },
      respond: (req) => ({ prompt: req.prompt }),
      delayMs: 5,
      ref: { provider: 'fake', model: 'bench' },
    });
    expect((await model.generate(request('a@1'))).text).toBe('scripted');
    expect((await model.generate(request('a@1'))).text).toBe('{"prompt":"a@1"}');
    expect((await model.generate(request('z@9'))).text).toBe('{"prompt":"z@9"}');
    expect(model.ref).toEqual({ provider: 'fake', model: 'bench' });
  });

  it('stops waiting when the request is aborted', async () => {
    const model = createScriptedModel({ script: { 'a@1': ['x'] }, delayMs: 60_000 });
    const controller = new AbortController();
    const pending = model.generate({ ...request('a@1'), signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });
});
