import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { PieError } from '../../domain/errors.js';
import type { ModelRequest } from '../../ports/llm.js';
import { createScriptedModel, type ScriptedModel } from './fake.js';

/**
 * The scripted fake, loaded from a JSON file: `--llm fake:<script.json>` (or PIE_LLM). For end-to-end tests that run
 * `pie` as a real child process (crash-resume, MCP over stdio); never a default. Format:
 *
 *   { "delayMs": 0,
 *     "prompts": { "extract-batch@3": [ { "contains": "Tidepool kickoff", "response": { … } }, { "response": … } ] } }
 *
 * A request is answered by the first rule of its prompt whose `contains` (a string, or strings that must all occur)
 * appears in the request's messages; a rule without `contains` matches anything. Rules are reusable, so a re-run
 * after a crash gets the same answers. No matching rule: the call fails loudly. With `holdWhileExists`, every call
 * first waits while that file exists (checked every 50 ms), so a test holds the extraction of real processes at a
 * point of its choosing and lets it go by deleting the file.
 */
const ruleSchema = z.object({
  contains: z.union([z.string(), z.array(z.string())]).optional(),
  response: z.unknown(),
});
const fileSchema = z.object({
  delayMs: z.number().int().min(0).optional(),
  /** Wait between the streamed pieces of a plain-text answer. */
  streamDelayMs: z.number().int().min(0).optional(),
  prompts: z.record(z.string(), z.array(ruleSchema)),
  /** A path: while a file is there, calls wait before answering. */
  holdWhileExists: z.string().min(1).optional(),
});

const HOLD_POLL_MS = 50;

export function createFakeModelFromFile(path: string): ScriptedModel {
  let parsed: z.infer<typeof fileSchema>;
  try {
    parsed = fileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch (cause) {
    throw new PieError('INVALID_ARGUMENT', `The fake model script ${path} is not a valid script file.`, { cause });
  }
  const hold = parsed.holdWhileExists;
  const respond = async (request: ModelRequest): Promise<string | object> => {
    while (hold !== undefined && existsSync(hold)) {
      await delay(HOLD_POLL_MS, undefined, request.signal === undefined ? undefined : { signal: request.signal });
    }
    const rules = parsed.prompts[request.prompt];
    if (!rules) throw new Error(`fake model: no rules for prompt ${request.prompt} in ${path}`);
    const text = request.messages.map((m) => m.content).join('\n');
    for (const rule of rules) {
      const needles = rule.contains === undefined ? [] : Array.isArray(rule.contains) ? rule.contains : [rule.contains];
      if (needles.every((n) => text.includes(n))) {
        if (typeof rule.response === 'string' || (typeof rule.response === 'object' && rule.response !== null)) {
          return rule.response;
        }
        return JSON.stringify(rule.response);
      }
    }
    throw new Error(`fake model: no rule of ${request.prompt} in ${path} matches this request`);
  };
  return createScriptedModel({
    respond,
    ...(parsed.delayMs !== undefined ? { delayMs: parsed.delayMs } : {}),
    ...(parsed.streamDelayMs !== undefined ? { streamDelayMs: parsed.streamDelayMs } : {}),
    ref: { provider: 'fake', model: path },
  });
}
