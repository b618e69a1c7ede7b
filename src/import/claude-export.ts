/** The files of a Claude.ai export read beside conversations.json: projects.json, then memories.json. */
import { errorMessage } from '../domain/errors.js';
import { claudeMemoriesToEvents, claudeProjectToEvents } from './claude-extras.js';
import { isObject, stringField } from './common.js';
import type { ByteSource } from './input.js';
import type { ImportEvent } from './types.js';

async function readJson(source: ByteSource): Promise<{ value: unknown } | { warning: ImportEvent }> {
  try {
    const parts: Buffer[] = [];
    for await (const chunk of source.open()) parts.push(chunk);
    return { value: JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown };
  } catch (error) {
    return {
      warning: {
        kind: 'warning',
        ref: source.label,
        message: `${source.label} could not be read as JSON (${errorMessage(error)}); what it holds was not imported.`,
      },
    };
  }
}

/** Claude's projects and memories, when the export holds them; nothing when it does not (older exports). */
export async function* importClaudeExtras(opts: {
  sibling: (baseName: string) => Promise<ByteSource | null>;
  tz: string;
}): AsyncGenerator<ImportEvent> {
  const projectNames = new Map<string, string>();
  const projects = await opts.sibling('projects.json');
  if (projects) {
    const read = await readJson(projects);
    if ('warning' in read) yield read.warning;
    else {
      const list = Array.isArray(read.value) ? read.value : [read.value];
      for (const [index, raw] of list.entries()) {
        if (isObject(raw)) {
          const id = stringField(raw, 'uuid');
          const name = stringField(raw, 'name');
          if (id && name) projectNames.set(id, name);
        }
        yield* claudeProjectToEvents(raw, { tz: opts.tz, label: projects.label, exportedAt: projects.mtimeMs, index });
      }
    }
  }
  const memories = await opts.sibling('memories.json');
  if (memories) {
    const read = await readJson(memories);
    if ('warning' in read) yield read.warning;
    else {
      yield* claudeMemoriesToEvents(read.value, {
        tz: opts.tz,
        label: memories.label,
        exportedAt: memories.mtimeMs,
        projectNames,
      });
    }
  }
}
