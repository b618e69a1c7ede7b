import type { PersonalKind, TurnRef } from '../../ports/personal-bench-store.js';
import { tokenize } from '../bm25.js';
import { uniqueRefs } from './history.js';
import { monthLabel, phraseKey } from './phrases.js';
import type { Statement } from './statements.js';

/**
 * Questions from statements (docs/evaluation.md "Personal benchmark"), without a model:
 * - single-fact: what a change led to ("What did I switch to from Notion?"), what a tool was taken up for, or the one
 *   thing started, stopped, moved to or decided in a month;
 * - temporal: "When did I …?" for every dated statement, answered by the date it states or else the turn's date;
 * - knowledge-update: two or more statements on one subject in different conversations, the latest naming what is in
 *   use now ("What do I use now instead of Firebase?"), or a belief given up ("Do I still think …?");
 * - multi-session: the same chains asked as "How did … change?", the evidence every turn of the chain.
 * Pure and deterministic: the same statements give the same questions in the same order.
 */

export interface DraftQuestion {
  kind: PersonalKind;
  question: string;
  answer: string;
  evidence: TurnRef[];
  /** When the evidence was said (the latest turn): orders and spreads the set. */
  time: number;
}

/** At most this many evidence turns for a multi-session question (the first, the last and some between). */
export const MAX_CHAIN_EVIDENCE = 5;

const ref = (s: Statement): TurnRef => ({ episodeId: s.turn.episodeId, seq: s.turn.seq });
const my = (s: Statement): string => (s.subject === 'we' ? 'our' : 'my');

/** What happened, in the user's words: "I switched from Firebase to Supabase". */
export function summary(s: Statement): string {
  const who = s.subject;
  switch (s.kind) {
    case 'change':
      if (s.verb === 'pivot') return `${who} pivoted ${s.topic ?? ''} from ${s.old ?? ''} to ${s.new ?? ''}`;
      if (s.verb === 'replace') return `${who} replaced ${s.old ?? ''} with ${s.new ?? ''}`;
      if (s.verb === 'choose') return `${who} chose ${s.new ?? ''} instead of ${s.old ?? ''}`;
      return `${who} ${past(s.verb)} from ${s.old ?? ''} to ${s.new ?? ''}`;
    case 'start':
      if (s.phrase) return `${who} started ${s.phrase}`;
      if (s.verb === 'use') return `${who} was using ${s.new ?? ''}`;
      return `${who} ${s.verb === 'decide to use' ? 'decided to use' : 'started using'} ${s.new ?? ''}`;
    case 'stop':
      return `${who} ${past(s.verb)} ${s.old ?? ''}`;
    case 'move':
      return `${who} moved to ${s.new ?? ''}`;
    case 'decide':
      return `${who} decided to ${s.phrase ?? ''}`;
    case 'belief': {
      const words = {
        holds: 'thought',
        'now-holds': 'came to think',
        doubts: 'began to doubt that',
        rejects: 'no longer thought',
      };
      return `${who} ${words[s.stance ?? 'holds']} ${s.phrase ?? ''}`;
    }
  }
}

const PAST: Record<string, string> = {
  switch: 'switched',
  move: 'moved',
  migrate: 'migrated',
  change: 'changed',
  go: 'went',
  'stop using': 'stopped using',
  quit: 'quit',
  drop: 'dropped',
  'give up': 'gave up',
  'give up on': 'gave up on',
};
const past = (verb: string): string => PAST[verb] ?? verb;

function temporal(s: Statement): string | null {
  const who = s.subject;
  switch (s.kind) {
    case 'change':
      if (s.verb === 'pivot') return `When did ${who} pivot ${s.topic ?? ''}?`;
      if (s.verb === 'replace') return `When did ${who} replace ${s.old ?? ''} with ${s.new ?? ''}?`;
      if (s.verb === 'choose') return `When did ${who} choose ${s.new ?? ''} instead of ${s.old ?? ''}?`;
      return `When did ${who} ${s.verb} from ${s.old ?? ''} to ${s.new ?? ''}?`;
    case 'start':
      if (s.phrase) return `When did ${who} start ${s.phrase}?`;
      if (s.verb === 'use') return null; // "I'm using X now" says nothing of when it began
      return `When did ${who} ${s.verb} ${s.new ?? ''}?`;
    case 'stop':
      return `When did ${who} ${s.verb} ${s.old ?? ''}?`;
    case 'move':
      return `When did ${who} move to ${s.new ?? ''}?`;
    case 'decide':
      return `When did ${who} decide to ${s.phrase ?? ''}?`;
    case 'belief':
      return s.stance === 'rejects' ? `When did ${who} stop thinking that ${s.phrase ?? ''}?` : null;
  }
}

/** A single-fact question and its answer, or null; `month` is set when the statement is the only one of its sort that month. */
function singleFact(s: Statement, month: string | null): { question: string; answer: string } | null {
  const who = s.subject;
  const n = s.new ?? '';
  switch (s.kind) {
    case 'change':
      if (s.verb === 'pivot') return { question: `What did ${who} pivot ${s.topic ?? ''} to?`, answer: n };
      if (s.verb === 'replace') return { question: `What did ${who} replace ${s.old ?? ''} with?`, answer: n };
      if (s.verb === 'choose') return { question: `What did ${who} choose instead of ${s.old ?? ''}?`, answer: n };
      return { question: `What did ${who} ${s.verb} to from ${s.old ?? ''}?`, answer: n };
    case 'start':
      if (s.phrase) return null;
      if (s.purpose)
        return { question: `What did ${who} ${s.verb === 'use' ? 'use' : s.verb} for ${s.purpose}?`, answer: n };
      return month && s.verb !== 'use' ? { question: `What did ${who} ${s.verb} in ${month}?`, answer: n } : null;
    case 'stop':
      return month ? { question: `What did ${who} ${s.verb} in ${month}?`, answer: s.old ?? '' } : null;
    case 'move':
      return month ? { question: `Where did ${who} move in ${month}?`, answer: n } : null;
    case 'decide':
      return month ? { question: `What did ${who} decide to do in ${month}?`, answer: `to ${s.phrase ?? ''}` } : null;
    case 'belief':
      return null;
  }
}

/** Statements in time order, grouped into chains about one subject (see `subjectKeys`). */
export function chains(statements: readonly Statement[]): Statement[][] {
  const sorted = [...statements].sort((a, b) => a.when.time - b.when.time || a.turn.time - b.turn.time);
  const parent = sorted.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i] ?? i)));
  const owner = new Map<string, number>();
  sorted.forEach((s, i) => {
    for (const key of subjectKeys(s)) {
      const j = owner.get(key);
      if (j === undefined) owner.set(key, i);
      else parent[root(i)] = root(j);
    }
  });
  // Beliefs: a later doubt or rejection of an earlier claim with mostly the same words; "now think" in the same turn.
  sorted.forEach((s, i) => {
    if (s.kind !== 'belief') return;
    sorted.forEach((t, j) => {
      if (j >= i || t.kind !== 'belief') return;
      const sameTurn = t.turn.episodeId === s.turn.episodeId && t.turn.seq === s.turn.seq;
      if (similar(s.phrase ?? '', t.phrase ?? '') || (sameTurn && s.stance === 'now-holds')) parent[root(i)] = root(j);
    });
  });
  const groups = new Map<number, Statement[]>();
  sorted.forEach((s, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), s]));
  return [...groups.values()];
}

/** Two statements are about one subject when they name the same thing (Firebase), or both tell of a move. */
function subjectKeys(s: Statement): string[] {
  const keys: string[] = [];
  if (s.kind === 'move') keys.push(`move:${s.subject}`);
  else if (s.kind !== 'belief') {
    for (const v of [s.old, s.new, s.topic]) if (v) keys.push(phraseKey(v));
    if (s.phrase) keys.push(phraseKey(s.kind === 'decide' ? s.phrase.replace(/^\S+\s+/, '') : s.phrase));
  }
  return keys.filter((k) => k.length >= 3).map((k) => `${s.kind === 'move' ? '' : 'thing:'}${k}`);
}

function similar(a: string, b: string): boolean {
  const x = new Set(tokenize(a));
  const y = new Set(tokenize(b));
  const both = [...x].filter((w) => y.has(w)).length;
  return both > 0 && both / new Set([...x, ...y]).size >= 0.6;
}

const episodesOf = (chain: readonly Statement[]): number => new Set(chain.map((s) => s.turn.episodeId)).size;

const uniqueTurns = (chain: readonly Statement[]): TurnRef[] => uniqueRefs(chain.map(ref));

/** Up to `max` items: the first, the last and evenly spaced ones between. */
export function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  if (max <= 1) return items.slice(0, max);
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))] as T);
}

/** Knowledge-update and multi-session questions of one chain (none unless it spans two conversations). */
function chainQuestions(chain: readonly Statement[]): DraftQuestion[] {
  if (episodesOf(chain) < 2) return [];
  const last = chain[chain.length - 1] as Statement;
  const update = (chain[0]?.kind === 'belief' ? beliefUpdate : useUpdate)(chain);
  const changed: DraftQuestion = {
    kind: 'multi-session',
    question: `How did ${chainSubject(chain)} change?`,
    answer: chain.map((s) => `${s.when.label}: ${summary(s)}`).join('; '),
    evidence: spread(uniqueTurns(chain), MAX_CHAIN_EVIDENCE),
    time: last.turn.time,
  };
  return update ? [update, changed] : [changed];
}

/** The claim a belief chain is about: what was held or doubted first. */
function claimOf(chain: readonly Statement[]): string {
  const held = chain.find((s) => s.stance === 'holds' || s.stance === 'doubts') ?? chain[0];
  return held?.phrase ?? '';
}

/** "Do I still think …?" once the belief was given up ("now I think …" when the same turn says what replaced it). */
function beliefUpdate(chain: readonly Statement[]): DraftQuestion | null {
  const first = chain[0] as Statement;
  const rejected = chain.find((s) => s.stance === 'rejects');
  if (!rejected) return null;
  const replacement = chain.find((s) => s.stance === 'now-holds' && s.when.time >= rejected.when.time);
  const now = replacement ? `; now ${first.subject} think ${replacement.phrase ?? ''}` : '';
  return {
    kind: 'knowledge-update',
    question: `Do ${first.subject} still think ${claimOf(chain)}?`,
    answer: `No: not since ${rejected.when.label}${now}.`,
    evidence: uniqueTurns([first, rejected, ...(replacement ? [replacement] : [])]),
    time: (chain[chain.length - 1] as Statement).turn.time,
  };
}

/** "What do I use now instead of …?" (moves: "Where do I live now?") when a later conversation names something new. */
function useUpdate(chain: readonly Statement[]): DraftQuestion | null {
  const first = chain[0] as Statement;
  const latest = [...chain].reverse().find((s) => s.new !== undefined);
  if (!latest?.new || latest === first || latest.turn.episodeId === first.turn.episodeId) return null;
  // What the chain began with: what a first change left ("Notion" of Notion → Obsidian → Logseq), else what it took up.
  const before = first.old ?? first.new;
  if (!before || phraseKey(before) === phraseKey(latest.new)) return null;
  return {
    kind: 'knowledge-update',
    question:
      latest.kind === 'move'
        ? `Where do ${first.subject} live now?`
        : `What do ${first.subject} use now instead of ${before}?`,
    answer: latest.new,
    evidence: uniqueTurns([first, latest]),
    time: latest.turn.time,
  };
}

/** What a chain is about, as the object of "How did … change?". */
function chainSubject(chain: readonly Statement[]): string {
  const first = chain[0] as Statement;
  if (first.kind === 'belief') return `${my(first)} view that ${claimOf(chain)}`;
  if (first.kind === 'move') return `where ${first.subject} live`;
  if (first.verb === 'pivot' && first.topic) return first.topic;
  const thing = first.new ?? first.old;
  if (thing) return `${my(first)} use of ${thing}`;
  const object = first.kind === 'decide' ? (first.phrase ?? '').replace(/^\S+\s+/, '') : (first.phrase ?? '');
  return `${my(first)} plans for the ${phraseKey(object)}`;
}

/** Every template question of a history's statements, in time order within each kind; repeated questions once. */
export function templateQuestions(input: { statements: readonly Statement[]; tz: string }): DraftQuestion[] {
  const { statements, tz } = input;
  const out: DraftQuestion[] = [];
  // A month question needs the one thing of its sort that month (the same thing said twice counts once).
  const perMonth = new Map<string, Set<string>>();
  const sortKey = (s: Statement): string => `${s.kind}|${s.verb}|${s.subject}|${monthLabel(s.when.time, tz)}`;
  const thingOf = (s: Statement): string => phraseKey(s.new ?? s.old ?? s.phrase ?? '');
  for (const s of statements) perMonth.set(sortKey(s), (perMonth.get(sortKey(s)) ?? new Set()).add(thingOf(s)));
  for (const s of statements) {
    const month = perMonth.get(sortKey(s))?.size === 1 ? monthLabel(s.when.time, tz) : null;
    const fact = singleFact(s, month);
    if (fact && fact.answer !== '') out.push({ kind: 'single-fact', ...fact, evidence: [ref(s)], time: s.turn.time });
    const when = temporal(s);
    if (when)
      out.push({ kind: 'temporal', question: when, answer: s.when.label, evidence: [ref(s)], time: s.turn.time });
  }
  for (const chain of chains(statements)) out.push(...chainQuestions(chain));
  const seen = new Set<string>();
  return out
    .sort((a, b) => a.time - b.time)
    .filter((q) => {
      const key = q.question.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
