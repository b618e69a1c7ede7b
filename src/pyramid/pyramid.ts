import { PieError } from '../domain/errors.js';
import { localDayKey } from '../domain/time.js';
import type { MentalModel, Summary } from '../ports/pyramid-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { closeModelNames, modelSlug } from './models.js';
import { selectPyramid, STEP, tierSpanDays } from './tiers.js';

export interface PyramidTier {
  tier: number;
  spanDays: number;
  /** Oldest first. */
  summaries: Summary[];
}

export interface Pyramid {
  model: MentalModel;
  /** Highest tier (long-term context) first, tier 0 (recent detail) last. */
  tiers: PyramidTier[];
}

/**
 * Pyramid retrieval for one model (spec: the last 3 summaries of each tier): recent detail plus long-term context,
 * bounded whatever the length of the history. For `pie model`, the MCP tool get_pyramid(model) and `pie ask`.
 */
export async function getPyramid(input: { store: WorldStore; model: string; perTier?: number }): Promise<Pyramid> {
  const name = modelSlug(input.model) || input.model;
  const model = (await input.store.pyramid.model(name)) ?? (await input.store.pyramid.model(input.model));
  if (!model) {
    const known = (await input.store.pyramid.models()).map((m) => m.name);
    throw new PieError(
      'NOT_FOUND',
      `There is no mental model "${input.model}"${known.length > 0 ? `; known models: ${known.join(', ')}` : '; run pie summarize first'}.`,
      { details: { suggestions: closeModelNames(input.model, known), known } },
    );
  }
  const perTier = input.perTier ?? STEP;
  const selected = selectPyramid(await input.store.pyramid.recentByTier({ modelId: model.id, perTier }), perTier);
  const tiers: PyramidTier[] = [];
  for (const s of selected) {
    const last = tiers.at(-1);
    if (last?.tier === s.tier) last.summaries.push(s);
    else tiers.push({ tier: s.tier, spanDays: tierSpanDays(s.tier), summaries: [s] });
  }
  return { model, tiers };
}

/** The pyramid as text for a model's context or a person: one block per tier, each summary under its window. */
export function renderPyramid(p: Pyramid, tz: string): string {
  const lines = [`# ${p.model.name}${p.model.description ? ` — ${p.model.description}` : ''}`];
  if (p.tiers.length === 0) lines.push('', '(no summaries yet; run pie summarize)');
  for (const t of p.tiers) {
    lines.push('', `## Tier ${t.tier} (${t.spanDays === 1 ? '1 day' : `${t.spanDays} days`} each)`);
    for (const s of t.summaries) {
      const end = localDayKey(s.end - 1, tz);
      const start = localDayKey(s.start, tz);
      lines.push(
        `### ${start === end ? start : `${start} to ${end}`}${s.method === 'deterministic' ? ' (selected without a model)' : ''}`,
        s.text,
      );
    }
  }
  return lines.join('\n');
}
