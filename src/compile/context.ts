import { humanizeDuration, monthsBetween, relativeTime } from '../domain/humanize.js';
import type { Procedure, Transition } from '../domain/world.js';
import type { Excerpt, PathHop, QueryPlan, Subgraph, SubgraphEntity } from '../query/types.js';
import { changeText, stateText } from './timeline.js';
import { longDate, when, type TimeContext } from './time-format.js';

const DAY = 86_400_000;

/** An episode cited by the context, numbered in order of first citation. */
export interface ContextSource {
  n: number;
  episodeId: string;
  title: string;
  time: number;
}

export interface CompiledContext {
  text: string;
  sources: ContextSource[];
}

/**
 * The temporal context an LLM reads (DESIGN.md §4, pie-paper §4.1): per entity its age and first period,
 * staleness, change count and velocity, current state, the transitions the question needs with their time
 * (semantic, absolute or hybrid), period and summary, contradiction flags; then procedures, contradictions,
 * connections, loose events and conversation excerpts; every claim cites a numbered source episode, listed at the
 * end by title and time. Pure and deterministic for a fixed `now`.
 */
export function compileContext(input: {
  plan: QueryPlan;
  subgraph: Subgraph;
  time: TimeContext;
  /** Titles and times of the episodes the subgraph cites. */
  episodes: ReadonlyMap<string, { title: string; createdAt: number }>;
}): CompiledContext {
  const { plan, subgraph: sub, time: ctx } = input;
  const cite = citer(input.episodes);
  const out: string[] = [
    `Question: ${plan.question}`,
    `Now: ${longDate(ctx.now, ctx.tz)}. Intent: ${plan.intent.replace('_', ' ')}; ${
      plan.wantsHistory ? 'history included' : 'current state (superseded history left out)'
    }.`,
  ];
  if (plan.timeRanges.length > 0) {
    const ranges = plan.timeRanges.map(
      (r) => `"${r.text}" = ${longDate(r.start, ctx.tz)} to ${longDate(r.end - 1, ctx.tz)}`,
    );
    out.push(`Time asked about: ${ranges.join('; ')}.`);
  }
  if (sub.entities.length > 0) {
    out.push('', 'What the world model knows:');
    for (const block of sub.entities) out.push(...entityLines(ctx, block, plan.wantsHistory, cite));
  }
  if (sub.contradictions.length > 0) {
    out.push('', 'Unresolved contradictions:');
    const names = new Map(sub.entities.map((b) => [b.entity.id, b.entity.name]));
    for (const t of sub.contradictions) {
      out.push(
        `  • ${names.get(t.entityId) ?? 'an entity'}, ${when(ctx, t.eventTime)}: ${t.summary}${cite(t.episodeId)}`,
      );
    }
  }
  if (sub.procedures.length > 0) {
    out.push('', 'How the user usually works (procedures mined from their history):');
    for (const p of sub.procedures) out.push(...procedureLines(ctx, p));
  }
  if (sub.paths.length > 0) {
    out.push('', 'Connections:');
    for (const path of sub.paths) out.push(`  • ${pathText(ctx, path)}`);
  }
  if (sub.events.length > 0) {
    out.push('', 'Other relevant changes:');
    for (const t of sub.events) out.push(`  • ${when(ctx, t.eventTime)}: ${t.summary}${cite(t.episodeId)}`);
  }
  if (sub.excerpts.length > 0) {
    out.push('', 'From the conversations:');
    for (const ex of sub.excerpts) out.push(...excerptLines(ctx, ex, cite));
  }
  if (out.length <= 3 && sub.entities.length === 0 && sub.excerpts.length === 0) {
    out.push('', 'Nothing in the world model matches this question.');
  }
  const sources = cite.sources();
  if (sources.length > 0) {
    out.push('', 'Sources:');
    for (const s of sources) out.push(`  [${s.n}] “${s.title}”, ${when(ctx, s.time)}`);
  }
  return { text: out.join('\n'), sources };
}

type Cite = ((episodeId: string | null) => string) & { sources(): ContextSource[] };

function citer(episodes: ReadonlyMap<string, { title: string; createdAt: number }>): Cite {
  const numbered = new Map<string, ContextSource>();
  const fn = (episodeId: string | null): string => {
    if (episodeId === null) return '';
    const e = episodes.get(episodeId);
    if (!e) return '';
    let s = numbered.get(episodeId);
    if (!s) {
      s = { n: numbered.size + 1, episodeId, title: e.title, time: e.createdAt };
      numbered.set(episodeId, s);
    }
    return ` [${s.n}]`;
  };
  return Object.assign(fn, { sources: () => [...numbered.values()] });
}

function entityLines(ctx: TimeContext, block: SubgraphEntity, history: boolean, cite: Cite): string[] {
  const e = block.entity;
  const aliases = e.aliases.length > 0 ? `, also called ${e.aliases.join(', ')}` : '';
  const seen =
    e.lastSeen - e.firstSeen < DAY
      ? `came up ${when(ctx, e.firstSeen)}`
      : `first appeared ${when(ctx, e.firstSeen)}; last referenced ${when(ctx, e.lastSeen)}`;
  const lines = [`• ${e.name} (${e.type}${aliases}): ${seen}.`];
  const changes = block.changeCount;
  const months = Math.max(monthsBetween(e.firstSeen, e.lastSeen), 1);
  const span = e.lastSeen > e.firstSeen ? ` over ${humanizeDuration(e.lastSeen - e.firstSeen)}` : '';
  const tier = e.tier === 'active' ? '' : ` Tier: ${e.tier}.`;
  if (changes > 0 || tier) {
    const velocity = changes > 0 ? ` (~${(changes / months).toFixed(1)} per month)${span}` : '';
    lines.push(`  Changed state ${changes} ${changes === 1 ? 'time' : 'times'}${velocity}.${tier}`);
  }
  const state = stateText(e.state);
  if (state) lines.push(`  Current state: ${state}.`);
  if (block.transitions.length > 0) {
    const hidden = block.hiddenCount;
    const label = history ? 'History' : 'Latest changes';
    lines.push(`  ${label}${hidden > 0 ? ` (${hidden} more not shown)` : ''}:`);
    for (const t of block.transitions) lines.push(...transitionLines(ctx, t, cite));
  }
  for (const r of block.relationships) {
    const rel = r.relationship;
    const [a, b] = r.direction === 'out' ? [e.name, r.other.name] : [r.other.name, e.name];
    const props = stateText(rel.properties);
    const span =
      rel.validTo === null
        ? `since ${shortWhen(ctx, rel.validFrom)}`
        : `from ${shortWhen(ctx, rel.validFrom)} until ${shortWhen(ctx, rel.validTo)}`;
    lines.push(`  ↔ ${a} ${rel.type} ${b}${props ? ` (${props})` : ''}, ${span}${cite(rel.episodeId)}`);
  }
  return lines;
}

/** A secondary time (relationship spans): the date, or in the semantic format the relative time alone. */
function shortWhen(ctx: TimeContext, time: number): string {
  return ctx.format === 'semantic' ? relativeTime({ at: time, now: ctx.now }) : longDate(time, ctx.tz);
}

function transitionLines(ctx: TimeContext, t: Transition, cite: Cite): string[] {
  const change = t.fromState && t.kind !== 'creation' ? ` [${changeText(t.fromState, t.toState)}]` : '';
  const lines = [`    – ${when(ctx, t.eventTime)}: ${t.summary}${change}${cite(t.episodeId)}`];
  if (t.kind === 'contradiction') {
    lines.push(`      ⚠ Contradicted the previous state${t.resolvedBy ? ' (since resolved)' : ' (unresolved)'}.`);
  }
  if (t.kind === 'resolution') lines.push('      ✓ Resolved an earlier contradiction.');
  return lines;
}

function procedureLines(ctx: TimeContext, p: Procedure): string[] {
  const domain = p.domain ? ` [${p.domain}]` : '';
  return [
    `  • ${p.description}${domain}: seen ${p.timesObserved} times, first ${when(ctx, p.firstObserved)}, last ${when(ctx, p.lastObserved)}; confidence ${p.confidence.toFixed(2)}.`,
    ...(p.pattern.length > 0 ? [`    Steps: ${p.pattern.join(' → ')}`] : []),
  ];
}

function pathText(ctx: TimeContext, path: readonly PathHop[]): string {
  return path
    .map((hop, i) => {
      const r = hop.relationship;
      const forward = r.sourceId === hop.from.id;
      const edge = forward ? `—${r.type}→` : `←${r.type}—`;
      const ended = r.validTo === null ? '' : ` (ended ${when(ctx, r.validTo)})`;
      return `${i === 0 ? hop.from.name : ''} ${edge} ${hop.to.name}${ended}`;
    })
    .join('')
    .trim();
}

function excerptLines(ctx: TimeContext, ex: Excerpt, cite: Cite): string[] {
  const e = ex.episode;
  const lines = [`  • “${e.title}”, ${when(ctx, e.createdAt)}${cite(e.id)}`];
  if (e.summary) lines.push(`    Summary: ${e.summary}`);
  for (const l of ex.lines) {
    const at = l.time !== null && l.time !== e.createdAt ? ` (${when(ctx, l.time)})` : '';
    lines.push(`    ${l.speaker ?? (l.role === 'user' ? 'User' : 'Assistant')}${at}: ${l.text}`);
  }
  return lines;
}
