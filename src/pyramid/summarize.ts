import { createHash } from 'node:crypto';
import { PieError, errorMessage } from '../domain/errors.js';
import { localDayKey } from '../domain/time.js';
import type { LlmClient } from '../llm/index.js';
import type { MentalModel, Observation, Summary } from '../ports/pyramid-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { linesForTier, parseLines, renderLines, selectLines, type SummaryLine } from './lines.js';
import {
  assignWithoutModel,
  BASE_MODELS,
  baseModel,
  modelSlug,
  TOPIC_MAX_NEW,
  TOPIC_MIN_OBSERVATIONS,
} from './models.js';
import { ASSIGN_MODELS, SUMMARIZE_OBSERVATIONS, SUMMARIZE_SUMMARIES } from './prompts.js';
import { dayNumber, dayStart, groupByWindow, maxTier, tierSpanDays } from './tiers.js';

export interface SummarizeReport {
  assigned: number;
  newModels: string[];
  /** Per tier: summaries made (new or changed sources) and windows left as they were. */
  tiers: { tier: number; made: number; unchanged: number }[];
  /** 'deterministic' or the model label. */
  method: string;
  warnings: string[];
}

export interface SummarizeOptions {
  store: WorldStore;
  tz: string;
  now: number;
  newId: () => string;
  /** With a model: telegram-style compression and model assignment by the model; without: deterministic. */
  llm?: LlmClient | null;
  /** Only this tier (0: assignment and day summaries; N: tier N from tier N-1). Default: every tier. */
  tier?: number;
}

const ASSIGN_BATCH = 40;

/** The base models exist in every pyramid. */
export async function ensureBaseModels(store: WorldStore, now: number): Promise<void> {
  for (const name of BASE_MODELS) {
    if (!(await store.pyramid.model(name))) await store.pyramid.putModel(baseModel(name, now));
  }
}

const hashOf = (parts: readonly string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

async function assignModels(o: SummarizeOptions, report: SummarizeReport): Promise<void> {
  const { store } = o;
  const pending = await store.pyramid.observations({ unassigned: true });
  if (pending.length === 0) return;
  const models = new Map((await store.pyramid.models()).map((m) => [m.name, m]));
  const target = new Map<string, string[]>();
  const put = (name: string, id: string): void => {
    target.set(name, [...(target.get(name) ?? []), id]);
  };

  if (o.llm) {
    for (let i = 0; i < pending.length; i += ASSIGN_BATCH) {
      const batch = pending.slice(i, i + ASSIGN_BATCH);
      const { object } = await o.llm.generate({
        prompt: ASSIGN_MODELS,
        input: {
          models: [...models.values()].map((m) => `- ${m.name}${m.description ? `: ${m.description}` : ''}`).join('\n'),
          observations: batch.map((b) => `${b.id}: ${b.text}`).join('\n'),
        },
      });
      const ids = new Set(batch.map((b) => b.id));
      for (const a of object.assignments) {
        const name = modelSlug(a.modelName);
        if (ids.has(a.observationId) && name !== '') put(name, a.observationId);
        ids.delete(a.observationId);
      }
      if (ids.size > 0)
        report.warnings.push(`The model left ${ids.size} observations unassigned; they stay for the next run.`);
    }
  } else {
    const entities = new Map<string, { name: string; type: string } | null>();
    const perEntity = new Map<string, number>();
    for (const obs of pending) {
      if (obs.entityId !== null) perEntity.set(obs.entityId, (perEntity.get(obs.entityId) ?? 0) + 1);
    }
    // New topics: the most observed entities with enough observations, at most TOPIC_MAX_NEW of them.
    const candidates = new Set(
      [...perEntity.entries()]
        .filter(([, count]) => count >= TOPIC_MIN_OBSERVATIONS)
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
        .slice(0, TOPIC_MAX_NEW)
        .map(([id]) => id),
    );
    for (const obs of pending) {
      let entity: { name: string; type: string } | null = null;
      let topic = false;
      if (obs.entityId !== null) {
        if (!entities.has(obs.entityId)) entities.set(obs.entityId, await store.entities.get(obs.entityId));
        entity = entities.get(obs.entityId) ?? null;
        topic = candidates.has(obs.entityId) || (entity !== null && models.has(modelSlug(entity.name)));
      }
      put(assignWithoutModel(obs, entity, topic), obs.id);
    }
  }
  for (const [name, ids] of [...target.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    let model = models.get(name);
    if (!model) {
      model = await store.pyramid.putModel({ id: o.newId(), name, description: '', isBase: false, updatedAt: o.now });
      models.set(name, model);
      report.newModels.push(name);
    }
    await store.pyramid.assign({ observationIds: ids, modelId: model.id });
    report.assigned += ids.length;
  }
}

function windowLabel(first: number, tier: number, tz: string): string {
  const start = localDayKey(dayStart(first, tz), tz);
  if (tier === 0) return start;
  const last = localDayKey(dayStart(first + tierSpanDays(tier) - 1, tz), tz);
  return `${start} to ${last} (${tierSpanDays(tier)} days)`;
}

async function compress(input: {
  o: SummarizeOptions;
  model: MentalModel;
  tier: number;
  first: number;
  lines: SummaryLine[];
  report: SummarizeReport;
}): Promise<{ text: string; method: string }> {
  const { o, model, tier, lines } = input;
  const deterministic = { text: renderLines(selectLines(lines, linesForTier(tier))), method: 'deterministic' };
  if (!o.llm) return deterministic;
  const window = windowLabel(input.first, tier, o.tz);
  const listed = renderLines([...lines].sort((a, b) => a.time - b.time));
  const result =
    tier === 0
      ? await o.llm.generateText({
          prompt: SUMMARIZE_OBSERVATIONS,
          input: { model: model.name, window, lines: listed },
        })
      : await o.llm.generateText({
          prompt: SUMMARIZE_SUMMARIES,
          input: { model: model.name, window, tier, lines: listed },
        });
  const parsed = parseLines(result.text);
  if (parsed.length === 0) {
    input.report.warnings.push(
      `The model's tier-${tier} summary of ${model.name} for ${window} had no "[N] text" lines; kept the deterministic selection instead.`,
    );
    return deterministic;
  }
  return { text: renderLines(parsed), method: `llm:${o.llm.label}` };
}

interface Source {
  id: string;
  day: number;
  lines: SummaryLine[];
  fingerprint: string;
}

async function summarizeTier(input: {
  o: SummarizeOptions;
  model: MentalModel;
  tier: number;
  sources: Source[];
  report: SummarizeReport;
  /** False: only work out which sources are carried up (for --tier N above the tiers being built). */
  write: boolean;
}): Promise<Source[]> {
  const { o, model, tier } = input;
  const existing = new Map((await o.store.pyramid.summaries({ modelId: model.id, tier })).map((s) => [s.start, s]));
  let made = 0;
  let unchanged = 0;
  const carried: Source[] = [];
  for (const [first, group] of groupByWindow(input.sources, (s) => s.day, tier)) {
    const start = dayStart(first, o.tz);
    // Above tier 0, a window with a single source would only repeat it: the source is carried up instead.
    const single = group[0];
    if (tier > 0 && group.length === 1 && single && !existing.has(start)) {
      carried.push(single);
      continue;
    }
    if (!input.write) continue;
    const sourceHash = hashOf([o.llm ? `llm:${o.llm.label}` : 'deterministic', ...group.map((g) => g.fingerprint)]);
    if (existing.get(start)?.sourceHash === sourceHash) {
      unchanged += 1;
      continue;
    }
    const { text, method } = await compress({
      o,
      model,
      tier,
      first,
      lines: group.flatMap((g) => g.lines),
      report: input.report,
    });
    const summary: Summary = {
      id: existing.get(start)?.id ?? o.newId(),
      modelId: model.id,
      tier,
      start,
      end: dayStart(first + tierSpanDays(tier), o.tz),
      text,
      sourceIds: group.map((g) => g.id),
      createdAt: o.now,
      method,
      sourceHash,
    };
    await o.store.pyramid.putSummary(summary);
    made += 1;
  }
  if (input.write) {
    const row = input.report.tiers.find((t) => t.tier === tier);
    if (row) {
      row.made += made;
      row.unchanged += unchanged;
    } else input.report.tiers.push({ tier, made, unchanged });
  }
  return carried;
}

const observationSource = (obs: Observation, tz: string): Source => ({
  id: obs.id,
  day: dayNumber(obs.eventTime, tz),
  lines: [{ importance: obs.importance, text: obs.text, time: obs.eventTime }],
  fingerprint: `${obs.id}|${obs.importance}|${obs.text}`,
});

const summarySource = (s: Summary, tz: string): Source => ({
  id: s.id,
  day: dayNumber(s.start, tz),
  lines: parseLines(s.text, s.start),
  fingerprint: `${s.id}|${s.text}`,
});

/**
 * Runs summarization (spec: Summarization Flow): unassigned observations get a model, observations by (day, model)
 * become tier-0 summaries, tier N summaries in each tier N+1 window (3 windows of tier N) become a tier N+1 summary,
 * up to the tier whose span covers the model's whole history. A window above tier 0 with a single source is not
 * summarized (it would only repeat it): that source is carried up to the next tier's window instead. A window whose sources did not change is left as it
 * is, so a second run makes nothing. Each model's description becomes the first line of its highest summary.
 */
export async function summarize(o: SummarizeOptions): Promise<SummarizeReport> {
  if (o.tier !== undefined && (!Number.isInteger(o.tier) || o.tier < 0)) {
    throw new PieError('INVALID_ARGUMENT', `--tier must be a whole number from 0 up, not ${String(o.tier)}.`);
  }
  const report: SummarizeReport = {
    assigned: 0,
    newModels: [],
    tiers: [],
    method: o.llm ? o.llm.label : 'deterministic',
    warnings: [],
  };
  try {
    await ensureBaseModels(o.store, o.now);
    if (o.tier === undefined || o.tier === 0) await assignModels(o, report);
    for (const model of await o.store.pyramid.models()) {
      const observations = await o.store.pyramid.observations({ modelId: model.id });
      if (observations.length === 0) continue;
      const first = dayNumber(observations[0]?.eventTime ?? 0, o.tz);
      const last = dayNumber(observations.at(-1)?.eventTime ?? 0, o.tz);
      const top = maxTier(first, last);
      if (o.tier === undefined || o.tier === 0) {
        const sources = observations.map((x) => observationSource(x, o.tz));
        await summarizeTier({ o, model, tier: 0, sources, report, write: true });
      }
      let carried: Source[] = [];
      for (let tier = 1; tier <= top && (o.tier === undefined || tier <= o.tier); tier += 1) {
        const below = await o.store.pyramid.summaries({ modelId: model.id, tier: tier - 1 });
        const sources = [...below.map((s) => summarySource(s, o.tz)), ...carried].sort((a, b) => a.day - b.day);
        const write = o.tier === undefined || o.tier === tier;
        carried = await summarizeTier({ o, model, tier, sources, report, write });
      }
      await describe(o, model);
    }
  } catch (error) {
    if (error instanceof PieError) throw error;
    throw new PieError('INTERNAL', `Summarization failed: ${errorMessage(error)}`, { cause: error });
  }
  report.tiers.sort((a, b) => a.tier - b.tier);
  return report;
}

async function describe(o: SummarizeOptions, model: MentalModel): Promise<void> {
  const all = await o.store.pyramid.summaries({ modelId: model.id, order: 'desc' });
  const topTier = Math.max(...all.map((s) => s.tier));
  const latest = all.find((s) => s.tier === topTier);
  const line = latest ? parseLines(latest.text)[0] : undefined;
  const description = line ? line.text.replace(/^(IMPORTANT|CRITICAL|ESSENTIAL):\s*/, '') : '';
  if (description !== '' && description !== model.description) {
    await o.store.pyramid.putModel({ ...model, description, updatedAt: o.now });
  }
}
