import { localDayKey } from '../domain/time.js';
import type { Entity } from '../domain/world.js';
import type { MentalModel, Summary } from '../ports/pyramid-store.js';
import type { WorldStore } from '../ports/world-store.js';
import { parseLines, renderLines } from '../pyramid/lines.js';
import { modelSlug } from '../pyramid/models.js';
import { getPyramid, type Pyramid } from '../pyramid/pyramid.js';

/**
 * Pyramid memory as a retrieval source of `pie ask` (spec/pyramid-memory.md): the pyramids (last 3 summaries per
 * tier) of the topic models of the entities the question names and of the user, written as a labelled section with
 * its own sources (P1, P2 … = summaries). Bounded: at most MAX_MODELS models, LINES_PER_SUMMARY lines per summary,
 * about MAX_SECTION_CHARS characters in all (each model an equal share); no summaries → no section.
 */
export const MAX_MODELS = 3;
export const LINES_PER_SUMMARY = 4;
export const MAX_SECTION_CHARS = 4000;
/** Characters a summary's header and source line take besides its lines (counted against the budget). */
const BLOCK_OVERHEAD = 200;

/** A summary the section cites as [P<n>]. */
export interface PyramidSource {
  ref: string;
  summaryId: string;
  model: string;
  tier: number;
  spanDays: number;
  start: number;
  end: number;
  method: string;
  /** How many observations (tier 0) or summaries (tiers above) it was made from. */
  madeFrom: number;
}

export interface PyramidSection {
  text: string;
  sources: PyramidSource[];
}

/** The section for a question naming `entityIds` (most specific first), or null when no model has summaries. */
export async function pyramidSection(input: {
  store: WorldStore;
  entityIds: readonly string[];
  tz: string;
  /** At most this many characters (default MAX_SECTION_CHARS): a small context budget gets a small section. */
  maxChars?: number;
}): Promise<PyramidSection | null> {
  const { store } = input;
  const models: MentalModel[] = [];
  const add = (m: MentalModel | null): void => {
    if (m && models.length < MAX_MODELS && !models.some((x) => x.id === m.id)) models.push(m);
  };
  for (const id of input.entityIds.slice(0, 10)) {
    if (models.length >= MAX_MODELS - 1) break;
    const entity = await store.entities.get(id);
    if (entity) add(await topicModel(store, entity));
  }
  add(await store.pyramid.model('user'));
  const pyramids: Pyramid[] = [];
  for (const m of models) {
    const p = await getPyramid({ store, model: m.name });
    if (p.tiers.length > 0) pyramids.push(p);
  }
  if (pyramids.length === 0) return null;
  return renderSection(pyramids, input.tz, Math.min(input.maxChars ?? MAX_SECTION_CHARS, MAX_SECTION_CHARS));
}

/** The discovered model of an entity: its name's slug, else an alias's (never a base model). */
async function topicModel(store: WorldStore, entity: Entity): Promise<MentalModel | null> {
  for (const name of [entity.name, ...entity.aliases]) {
    const slug = modelSlug(name);
    if (slug === '' || slug === 'user' || slug === 'self' || slug === 'system') continue;
    const m = await store.pyramid.model(slug);
    if (m) return m;
  }
  return null;
}

interface Block {
  summary: Summary;
  tier: number;
  spanDays: number;
  lines: string;
}

/**
 * Which summaries of one pyramid fit `budget` characters: the newest of tier 0 (recent detail) and of the highest
 * tier (long-term context) first, then the tiers between, then the next newest of each. Pure.
 */
export function fitPyramid(p: Pyramid, budget: number): Block[] {
  const tiers = p.tiers.map((t) => t.tier);
  const top = Math.max(...tiers);
  const order = [...new Set([0, top, ...[...tiers].sort((a, b) => a - b)])].filter((t) => tiers.includes(t));
  const candidates: Block[] = [];
  for (let rank = 0; rank < 3; rank++) {
    for (const tier of order) {
      const t = p.tiers.find((x) => x.tier === tier);
      const s = t?.summaries[t.summaries.length - 1 - rank];
      const lines = s ? topLines(s.text) : '';
      if (t && s && lines !== '') candidates.push({ summary: s, tier, spanDays: t.spanDays, lines });
    }
  }
  const kept: Block[] = [];
  let used = 0;
  for (const b of candidates) {
    const size = b.lines.length + BLOCK_OVERHEAD;
    if (used + size > budget) continue;
    kept.push(b);
    used += size;
  }
  // Pyramid order: highest tier first, each tier oldest first.
  return kept.sort((a, b) => b.tier - a.tier || a.summary.start - b.summary.start);
}

/** The LINES_PER_SUMMARY most important "[N] text" lines, in their order. */
function topLines(text: string): string {
  const lines = parseLines(text).map((l, i) => ({ ...l, time: i }));
  const best = [...lines].sort((a, b) => b.importance - a.importance || a.time - b.time).slice(0, LINES_PER_SUMMARY);
  return renderLines(best.sort((a, b) => a.time - b.time));
}

function renderSection(pyramids: readonly Pyramid[], tz: string, maxChars: number): PyramidSection {
  const budget = Math.floor(maxChars / pyramids.length);
  const out = ['Pyramid memory (summaries of observations about the person, by time tier; long-term first):'];
  const sources: PyramidSource[] = [];
  for (const p of pyramids) {
    const who = p.model.name === 'user' ? 'the person' : 'a topic';
    out.push(`  Model "${p.model.name}" (${who}):`);
    for (const b of fitPyramid(p, budget)) {
      const ref = `P${sources.length + 1}`;
      const s = b.summary;
      const span = b.spanDays === 1 ? '1 day' : `${b.spanDays} days`;
      out.push(`    Tier ${b.tier} (${span}), ${window(s, tz)} [${ref}]:`);
      for (const line of b.lines.split('\n')) if (line) out.push(`      ${line}`);
      sources.push({
        ref,
        summaryId: s.id,
        model: p.model.name,
        tier: b.tier,
        spanDays: b.spanDays,
        start: s.start,
        end: s.end,
        method: s.method,
        madeFrom: s.sourceIds.length,
      });
    }
  }
  out.push('', 'Pyramid sources:');
  for (const s of sources) {
    const what =
      s.tier === 0 ? (s.madeFrom === 1 ? 'observation' : 'observations') : s.madeFrom === 1 ? 'summary' : 'summaries';
    const how =
      s.method === 'deterministic' ? 'selected without a model' : `written by ${s.method.replace(/^llm:/, '')}`;
    out.push(
      `  [${s.ref}] summary ${s.summaryId} of model "${s.model}", tier ${s.tier}: ${s.madeFrom} ${what}, ${how}`,
    );
  }
  return { text: out.join('\n'), sources };
}

function window(s: Summary, tz: string): string {
  const start = localDayKey(s.start, tz);
  const end = localDayKey(s.end - 1, tz);
  return start === end ? start : `${start} to ${end}`;
}
