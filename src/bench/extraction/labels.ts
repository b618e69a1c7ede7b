import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { PieError } from '../../domain/errors.js';

/**
 * A hand label of an extracted entity (bench/labels/README.md has the rules): is it a real thing a person would want
 * tracked, and what type should it have?
 */
export const entityLabelSchema = z.object({
  sample: z.string().min(1),
  name: z.string().min(1),
  type: z.string().min(1),
  label: z.enum(['real', 'junk']),
  correctType: z.string().min(1).nullable(),
  reason: z.string(),
});
export type EntityLabel = z.infer<typeof entityLabelSchema>;

/** The labels of a JSONL file, keyed by "sample\tlower-case name"; a missing file is no labels. */
export function readEntityLabels(path: string): Map<string, EntityLabel> {
  const out = new Map<string, EntityLabel>();
  if (!existsSync(path)) return out;
  const lines = readFileSync(path, 'utf8').split('\n');
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new PieError('UNREADABLE_INPUT', `Line ${i + 1} of the labels file ${path} is not JSON; fix or remove it.`);
    }
    const label = entityLabelSchema.safeParse(parsed);
    if (!label.success) {
      throw new PieError(
        'UNREADABLE_INPUT',
        `Line ${i + 1} of the labels file ${path} is not a label (${label.error.issues[0]?.message ?? 'invalid'}); see bench/labels/README.md.`,
      );
    }
    out.set(`${label.data.sample}\t${label.data.name.toLowerCase()}`, label.data);
  }
  return out;
}
