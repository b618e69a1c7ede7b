import { humanizeDuration, monthsBetween, relativeTime } from '../domain/humanize.js';
import type { Tokenizer } from '../ports/tokenizer.js';
import { createTokenBudget } from './budget.js';
import { compileEvidence, wholeEvidenceTokens, type EvidenceOptions } from './evidence.js';
import { asksAcquaintance, questionAsksChange, questionAsksEdge, questionAsksEntity } from './edge-cues.js';
import { timeNote, type MemorySpan } from './time-note.js';
import { intervalLines } from './interval.js';
import type { Evidence } from '../query/evidence.js';
import {
  EVENT_ATTRIBUTE,
  isBareAcquaintance,
  isBareCreation,
  POINT_RELATIONSHIPS,
  type Procedure,
  type Transition,
} from '../domain/world.js';
import type { Excerpt, PathHop, QueryPlan, Subgraph, SubgraphEntity } from '../query/types.js';
import { changeNote, relationshipProps, stateText } from './timeline.js';
import { edgeStart, longDate, when, type TimeContext } from './time-format.js';

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
  /** Tokens of `text` (counted with the budget's tokenizer; an estimate without one). */
  tokens: number;
  /** The conversation turns the text shows (evidence, or the subgraph's excerpts without evidence). */
  excerpts: Excerpt[];
}

/** The token budget a context is compiled for and the tokenizer that counts it. */
export interface ContextBudget {
  limit: number;
  tokenizer: Tokenizer;
}

/** The share of the budget the world model's part may take before the evidence turns: more when the question is about entities. */
const WORLD_SHARE: Record<QueryPlan['intent'], number> = {
  general: 0.3,
  entity_lookup: 0.5,
  current_state: 0.5,
  temporal_diff: 0.5,
  relationship: 0.5,
  procedural: 0.5,
  contradiction: 0.5,
};

/**
 * The temporal context an LLM reads (DESIGN.md §4, pie-paper §4.1): per entity its age and first period,
 * staleness, change count and velocity, current state, the transitions the question needs with their time
 * (semantic, absolute or hybrid), period and summary, contradiction flags; then procedures, contradictions,
 * connections and loose events — the world model's part, sized to the question (at most its intent's share of the
 * budget, block by block); then the evidence turns, whole and dated, filling the rest of the budget (evidence.ts);
 * every claim cites a numbered source episode. Never longer than `budget.limit` tokens. Pure and deterministic for
 * a fixed `now`.
 */
export function compileContext(input: {
  plan: QueryPlan;
  subgraph: Subgraph;
  time: TimeContext;
  /** Titles and times of the episodes the subgraph cites. */
  episodes: ReadonlyMap<string, { title: string; createdAt: number }>;
  /** Without a budget the text is as long as the subgraph makes it (an estimate counts its tokens). */
  budget?: ContextBudget;
  /** Ranked evidence turns to fill the budget with; without them the subgraph's excerpts are shown. */
  evidence?: Omit<EvidenceOptions, 'limit' | 'tokenizer' | 'time' | 'cite'>;
  /** The time between things the question asks for, with the turns that date each end (written after the header). */
  interval?: Evidence['interval'];
  /** The memory's first and latest conversation (null: none): a note says when time puts the question outside it. */
  memorySpan?: MemorySpan | null;
}): CompiledContext {
  const { plan, subgraph: sub, time: ctx } = input;
  const tokenizer = input.budget?.tokenizer ?? ESTIMATE;
  const limit = input.budget?.limit ?? Number.MAX_SAFE_INTEGER;
  const cite = citer(input.episodes);
  const out = createTokenBudget({ limit, tokenizer });
  for (const line of headerLines(plan, ctx)) out.take(line);
  // Time explains what the memory cannot hold (a clock set in the past, a year before the first conversation).
  const reason =
    input.memorySpan === undefined
      ? null
      : timeNote({ now: ctx.now, tz: ctx.tz, timeRanges: plan.timeRanges, span: input.memorySpan });
  if (reason) out.take(`Note: ${reason}`);
  if (input.interval) {
    for (const line of intervalLines({ ...input.interval, now: ctx.now, tz: ctx.tz, cite })) out.take(line);
  }
  const worldLimit = input.budget ? worldPartLimit({ ...input, limit, tokenizer, header: out.used() }) : limit;
  const worldOut = createTokenBudget({ limit: Math.max(0, worldLimit - out.used()), tokenizer });
  const titles = new Set<string>();
  for (const block of worldBlocks({ plan, sub, ctx })) {
    // The block whole, else its shorter form (an entity cut to the relationships asked about), else nothing.
    for (const form of block.shorter ? [block.lines, block.shorter] : [block.lines]) {
      const mark = cite.mark();
      const own = form(cite);
      if (own === null) continue;
      const lines = [...(titles.has(block.title) ? [] : ['', block.title]), ...own];
      if (worldOut.takeAll(lines)) {
        titles.add(block.title);
        break;
      }
      cite.rollback(mark);
    }
  }
  if (worldOut.used() > 0) out.take(worldOut.text());
  const sourceLines = (sources: ContextSource[]) =>
    sources.length === 0
      ? []
      : ['', 'Sources:', ...sources.map((s) => `  [${s.n}] “${s.title}”, ${when(ctx, s.time)}`)];
  const worldSources = cite.sources();
  const reserved = tokenizer.count(sourceLines(worldSources).join('\n')) + 1;
  let excerpts = sub.excerpts;
  if (input.evidence) {
    const section = compileEvidence({
      ...input.evidence,
      limit: Math.max(0, out.left() - reserved),
      tokenizer,
      time: ctx,
      cite,
    });
    // Counted as it will be written; should the sum of its lines' counts have been short, line by line.
    if (!out.takeAll(section.lines)) for (const l of section.lines) if (!out.take(l)) break;
    excerpts = section.excerpts;
  } else if (sub.excerpts.length > 0) {
    out.take('');
    out.take('From the conversations:');
    for (const ex of sub.excerpts) for (const l of excerptLines(ctx, ex, cite)) if (!out.take(l)) break;
  }
  if (worldOut.used() === 0 && excerpts.length === 0) {
    out.take('');
    out.take('Nothing in the world model matches this question.');
  }
  for (const l of sourceLines(worldSources)) out.take(l);
  return { text: out.text(), sources: cite.sources(), tokens: out.tokens(), excerpts };
}

/** The least share of the budget the world model's part keeps when the evidence would fit whole beside it. */
const WORLD_FLOOR = 0.1;
/** The world model's share when the question asks what the assistant said. */
const ASSISTANT_SHARE = 0.15;

/**
 * Tokens the world model's part may take: its intent's share of the budget; less when the conversations the
 * evidence comes from would fit whole in the rest (the turns are what the world model was read from, and a summary
 * crowding them out loses what it did not capture), down to a floor; a question about what the assistant said
 * gets ASSISTANT_SHARE whatever its intent (the world model is read from the user's side).
 */
function worldPartLimit(input: {
  plan: QueryPlan;
  limit: number;
  header: number;
  tokenizer: Tokenizer;
  evidence?: Omit<EvidenceOptions, 'limit' | 'tokenizer' | 'time' | 'cite'>;
}): number {
  const { limit, evidence } = input;
  const share = evidence?.assistantWanted
    ? Math.min(WORLD_SHARE[input.plan.intent], ASSISTANT_SHARE)
    : WORLD_SHARE[input.plan.intent];
  const shareLimit = Math.floor(limit * share);
  if (!evidence || evidence.candidates.length === 0) return shareLimit;
  const floor = Math.floor(limit * WORLD_FLOOR);
  const whole = wholeEvidenceTokens({ ...evidence, tokenizer: input.tokenizer }, limit - input.header - floor);
  if (!Number.isFinite(whole)) return shareLimit;
  // Room for the sources list the world part's citations add.
  const room = limit - input.header - whole - 40;
  return Math.min(shareLimit, Math.max(floor, room));
}

/** Four characters a token: the estimate used when no tokenizer is given. */
const ESTIMATE: Tokenizer = { name: 'estimate', count: (text) => Math.ceil(text.length / 4) };

/** Words of the question the header repeats: the model has the question, a long one is named by its start. */
const HEADER_QUESTION_WORDS = 30;

function headerLines(plan: QueryPlan, ctx: TimeContext): string[] {
  const words = plan.question.trim().split(/\s+/);
  const question =
    words.length > HEADER_QUESTION_WORDS ? `${words.slice(0, HEADER_QUESTION_WORDS).join(' ')} …` : plan.question;
  const out = [
    `Question: ${question}`,
    `Now: ${longDate(ctx.now, ctx.tz)}. Intent: ${plan.intent.replace('_', ' ')}; ${
      plan.wantsHistory ? 'history included' : 'current state (superseded history left out)'
    }.`,
  ];
  if (plan.timeRanges.length > 0) {
    const ranges = plan.timeRanges.map(
      (r) =>
        `"${r.text}" = ${longDate(r.start, ctx.tz)} to ${longDate(r.end - 1, ctx.tz)}${
          r.movedToMemory ? ' (no year given: the latest with conversations in the memory)' : ''
        }`,
    );
    out.push(`Time asked about: ${ranges.join('; ')}.`);
  }
  return out;
}

/**
 * A piece of the world model's part: its section's title and its lines, rendered with the citer when taken; and a
 * shorter form tried when the whole one does not fit (null when the block has none for this question).
 */
interface WorldBlock {
  title: string;
  lines: (c: Cite) => string[];
  shorter?: (c: Cite) => string[] | null;
}

/** The world model's part as blocks in priority order. */
function worldBlocks(input: { plan: QueryPlan; sub: Subgraph; ctx: TimeContext }): WorldBlock[] {
  const { plan, sub, ctx } = input;
  const blocks: WorldBlock[] = [];
  const section = <T>(title: string, items: readonly T[], lines: (item: T, c: Cite) => string[]) => {
    for (const item of items) blocks.push({ title, lines: (c) => lines(item, c) });
  };
  // With entities named, the others shown are mostly their neighbours: those the question does not ask about leave
  // the room to the evidence. Without, the entities the lanes found are all the question has.
  const namedNames = sub.entities.filter((b) => plan.entityIds.includes(b.entity.id)).map((b) => b.entity.name);
  const asked = questionAsksEntity(plan.question, namedNames);
  const shown = (b: SubgraphEntity): boolean =>
    namedNames.length === 0 ||
    plan.entityIds.includes(b.entity.id) ||
    asked({ ...b, texts: [...b.transitions, ...(b.recentEvents ?? [])].map((t) => t.summary) });
  for (const whole of sub.entities.filter(shown)) {
    const b = withoutUnaskedAcquaintances(whole, plan.question);
    blocks.push({
      title: 'What the world model knows:',
      lines: (c) => entityLines(ctx, b, plan.wantsHistory, c),
      shorter: (c) => {
        const cut = shorterBlock(b, plan.question);
        if (cut) return entityLines(ctx, cut, plan.wantsHistory, c);
        // An entity the question names keeps its head line when it has other names: the turns may use them.
        const named = plan.entityIds.includes(b.entity.id) && b.entity.aliases.length > 0;
        return named ? entityLines(ctx, headOnly(b), false, c) : null;
      },
    });
  }
  const names = new Map(sub.entities.map((b) => [b.entity.id, b.entity.name]));
  section('Unresolved contradictions:', sub.contradictions, (t, c) => [
    `  • ${names.get(t.entityId) ?? 'an entity'}, ${when(ctx, t.eventTime)}: ${t.summary}${c(t.episodeId)}`,
  ]);
  section('How the user usually works (procedures mined from their history):', sub.procedures, (p) =>
    procedureLines(ctx, p),
  );
  section('Connections:', sub.paths, (path) => [`  • ${pathText(ctx, path)}`]);
  section('Other relevant changes:', sub.events, (t, c) => [
    `  • ${when(ctx, t.eventTime)}: ${t.summary}${c(t.episodeId)}`,
  ]);
  return blocks;
}

type Cite = ((episodeId: string | null) => string) & {
  sources(): ContextSource[];
  /** How many sources are numbered now (rollback forgets those numbered after). */
  mark(): number;
  rollback(mark: number): void;
};

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
  return Object.assign(fn, {
    sources: () => [...numbered.values()],
    mark: () => numbered.size,
    rollback: (mark: number) => {
      for (const [id, src] of numbered) if (src.n > mark) numbered.delete(id);
    },
  });
}

/**
 * An entity's block cut to what the question asks when the whole one does not fit the world model's share: its
 * head and current state with the relationships the question asks about (edge-cues.ts), none of its history; null
 * when it asks about none (the block is then left out, and the evidence turns have the room; an entity the
 * question names keeps its head line). Pure.
 */
export function shorterBlock(block: SubgraphEntity, question: string): SubgraphEntity | null {
  const relationships = block.relationships.filter((r) =>
    questionAsksEdge(question, {
      type: r.relationship.type,
      otherName: r.other.name,
      properties: r.relationship.properties,
    }),
  );
  const asked = questionAsksChange(question, block.entity.name);
  const transitions = block.transitions.filter((t) => !isBareCreation(t) && asked(t.summary));
  const events = (block.recentEvents ?? []).filter((t) => asked(String(t.toState[EVENT_ATTRIBUTE] ?? '')));
  if (relationships.length === 0 && transitions.length === 0 && events.length === 0) return null;
  const { recentEvents: _events, ...rest } = block;
  return {
    ...rest,
    transitions,
    ...(events.length > 0 ? { recentEvents: events } : {}),
    hiddenCount: block.hiddenCount + block.transitions.length - transitions.length,
    relationships,
  };
}

/**
 * The block without the bare acquaintances (KNOWS with no role: people who talk with each other) the question does
 * not ask about: "Caroline KNOWS Melanie" in every block of a chat between them would only take the evidence's room.
 * Pure.
 */
function withoutUnaskedAcquaintances(block: SubgraphEntity, question: string): SubgraphEntity {
  if (asksAcquaintance(question)) return block;
  const relationships = block.relationships.filter((r) => !isBareAcquaintance(r.relationship));
  return relationships.length === block.relationships.length ? block : { ...block, relationships };
}

/** An entity's block reduced to its head line: no state, changes, events or relationships. Pure. */
function headOnly(block: SubgraphEntity): SubgraphEntity {
  const { recentEvents: _events, ...rest } = block;
  return { ...rest, entity: { ...block.entity, state: {} }, transitions: [], relationships: [], changeCount: 0 };
}

function entityLines(ctx: TimeContext, block: SubgraphEntity, history: boolean, cite: Cite): string[] {
  const e = block.entity;
  const aliases = e.aliases.length > 0 ? `, also called ${e.aliases.join(', ')}` : '';
  const seenCiting = (firstCite: string) =>
    e.lastSeen - e.firstSeen < DAY
      ? `came up ${when(ctx, e.firstSeen)}${firstCite}`
      : `first appeared ${when(ctx, e.firstSeen)}${firstCite}; last referenced ${when(ctx, e.lastSeen)}`;
  // An entity the world knows only by name (created when first mentioned, nothing changed, no state beyond its
  // category, no relationship) is one line citing where it came up: its history would repeat that line.
  const onlyMention =
    block.changeCount === 0 &&
    block.relationships.length === 0 &&
    Object.keys(e.state).every((k) => k === 'category') &&
    block.transitions.every((t) => t.kind === 'creation');
  if (onlyMention) {
    const first = block.transitions[0];
    return [`• ${e.name} (${e.type}${aliases}): ${seenCiting(first ? cite(first.episodeId) : '')}.`];
  }
  // A creation that only says where the entity came up repeats the head line's first date: with nothing else to show
  // it becomes the head line's citation, and beside other changes it is left out.
  const shown = block.transitions.filter((t) => !isBareCreation(t));
  const firstCited = shown.length === 0 && block.transitions[0] ? cite(block.transitions[0].episodeId) : '';
  const lines = [`• ${e.name} (${e.type}${aliases}): ${seenCiting(firstCited)}.`];
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
  if (shown.length > 0) {
    const hidden = block.hiddenCount;
    const label = history ? 'History' : 'Latest changes';
    lines.push(`  ${label}${hidden > 0 ? ` (${hidden} more not shown)` : ''}:`);
    for (const t of shown) lines.push(...transitionLines(ctx, t, cite));
  }
  if (block.recentEvents && block.recentEvents.length > 0) {
    const done = block.recentEvents.map(
      (t) => `${String(t.toState[EVENT_ATTRIBUTE])} (${shortWhen(ctx, t.eventTime)})`,
    );
    lines.push(`  Also did lately: ${done.join('; ')}.`);
  }
  for (const r of block.relationships) {
    const rel = r.relationship;
    const [a, b] = r.direction === 'out' ? [e.name, r.other.name] : [r.other.name, e.name];
    const props = relationshipProps(rel.properties);
    const span =
      rel.validTo === null || POINT_RELATIONSHIPS.has(rel.type)
        ? edgeStart(ctx, rel.type, shortWhen(ctx, rel.validFrom))
        : `from ${shortWhen(ctx, rel.validFrom)} until ${shortWhen(ctx, rel.validTo)}`;
    lines.push(`  ↔ ${a} ${rel.type} ${b}${props ? ` (${props})` : ''}, ${span}${cite(rel.episodeId)}`);
  }
  return lines;
}

/** A secondary time (relationship spans): the date, or in the semantic format the relative time alone. */
function shortWhen(ctx: TimeContext, time: number): string {
  return ctx.format === 'semantic' ? relativeTime({ at: time, now: ctx.now, tz: ctx.tz }) : longDate(time, ctx.tz);
}

function transitionLines(ctx: TimeContext, t: Transition, cite: Cite): string[] {
  const change = changeNote(t);
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
