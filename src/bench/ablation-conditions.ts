import { PieError } from '../domain/errors.js';
import type { TimeFormat } from '../compile/time-format.js';
import type { WorldStore } from '../ports/world-store.js';
import { buildQueryContext } from '../query/ask.js';
import { renderDerived } from './time-renderings.js';

/**
 * The temporal-format conditions of the ablation: pie-paper §5.1's A–D plus PIE's `hybrid` and `auto`.
 * B and D are compiler formats; A and C are ablation-only renderings (src/bench/time-renderings.ts).
 */
export const ABLATION_CONDITIONS = ['raw', 'absolute', 'relative', 'semantic', 'hybrid', 'auto'] as const;
export type AblationCondition = (typeof ABLATION_CONDITIONS)[number];

export const CONDITION_LABELS: Record<AblationCondition, string> = {
  raw: 'A raw timestamps',
  absolute: 'B formatted dates (`absolute`)',
  relative: 'C relative only',
  semantic: 'D full semantic (`semantic`)',
  hybrid: '`hybrid` (date + relative + period)',
  auto: '`auto` (chosen per question)',
};

export function parseConditions(text: string | undefined): AblationCondition[] {
  if (text === undefined) return [...ABLATION_CONDITIONS];
  return text.split(',').map((s) => {
    const found = ABLATION_CONDITIONS.find((c) => c === s.trim());
    if (!found) {
      throw new PieError(
        'INVALID_ARGUMENT',
        `--conditions: "${s.trim()}" is not a condition; use ${ABLATION_CONDITIONS.join(', ')}.`,
      );
    }
    return found;
  });
}

/** PIE's compiled context for one question in one condition, and the compiler format `auto` chose. */
export async function conditionContext(input: {
  store: WorldStore;
  question: string;
  now: number;
  tz: string;
  condition: AblationCondition;
}): Promise<{ text: string; chose: TimeFormat }> {
  const { condition } = input;
  const format = condition === 'raw' || condition === 'relative' ? 'hybrid' : condition;
  const context = await buildQueryContext({
    store: input.store,
    question: input.question,
    now: input.now,
    tz: input.tz,
    format,
    // Intent by rules, as in the retrieval benchmarks.
    client: null,
  });
  const text =
    condition === 'raw' || condition === 'relative'
      ? renderDerived(context.text, { to: condition, now: input.now, tz: input.tz })
      : context.text;
  return { text, chose: context.plan.timeFormat };
}
