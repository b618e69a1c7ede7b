import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../ports/llm.js';
import { createFakeModelFromFile } from './fake-file.js';

function request(content: string, signal?: AbortSignal): ModelRequest {
  return { prompt: 'extract-batch@3', messages: [{ role: 'user', content }], ...(signal ? { signal } : {}) };
}

describe('the fake model script file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pie-fake-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function script(content: object): string {
    const path = join(dir, 'script.json');
    writeFileSync(path, JSON.stringify(content));
    return path;
  }

  it('answers with the first rule whose strings all occur, and fails loudly when none does', async () => {
    const model = createFakeModelFromFile(
      script({
        prompts: {
          'extract-batch@3': [
            { contains: ['alpha', 'beta'], response: { both: true } },
            { contains: 'alpha', response: { alpha: true } },
          ],
        },
      }),
    );
    expect((await model.generate(request('alpha and beta'))).text).toBe('{"both":true}');
    expect((await model.generate(request('alpha only'))).text).toBe('{"alpha":true}');
    await expect(model.generate(request('gamma'))).rejects.toThrow(/no rule of extract-batch@3/);
  });

  it('holds every call while the holdWhileExists file is there, and answers once it is gone', async () => {
    const gate = join(dir, 'gate');
    writeFileSync(gate, '');
    const model = createFakeModelFromFile(
      script({ holdWhileExists: gate, prompts: { 'extract-batch@3': [{ response: 'done' }] } }),
    );
    let answered = false;
    const call = model.generate(request('anything')).then((r) => {
      answered = true;
      return r.text;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false);
    rmSync(gate);
    expect(await call).toBe('done');
  });

  it('stops holding when the request is aborted', async () => {
    const gate = join(dir, 'gate');
    writeFileSync(gate, '');
    const model = createFakeModelFromFile(
      script({ holdWhileExists: gate, prompts: { 'extract-batch@3': [{ response: 'done' }] } }),
    );
    const abort = new AbortController();
    const call = model.generate(request('anything', abort.signal));
    abort.abort();
    await expect(call).rejects.toThrow(/abort/i);
  });
});
