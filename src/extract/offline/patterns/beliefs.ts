/**
 * Beliefs: "I think/believe/I'm convinced …", "in my opinion …"; reversals: "I no longer think X. I now think Y",
 * "I used to think X but now Y", "I've changed my mind (about Z)"; doubts: "I'm starting to doubt my assumption that
 * X". A reversal names the earlier belief in `replaces` (the known belief whose words match best, else the words as
 * written). Works on a whole turn, because a reversal and its new belief are often separate sentences.
 * Intentions and small talk are not beliefs: the clause must be a claim (3–30 words) that does not start with a
 * pronoun ("I think I'll …", "I think it's fine", "I think so") or a word that points at the talk around it ("I
 * think these are not just gifts", "I feel like something important is missing").
 */
import type { BeliefFinding, EntityFinding, Findings, StateChangeFinding } from '../findings.js';
import { clip, contentWords, cutClause, lowerFirst, overlap } from '../names.js';
import { isQuestion, type PatternContext } from './context.js';

const THINK =
  /\b(?:I|we)\s+((?:now|really|honestly|strongly|genuinely|still|actually|firmly|increasingly|do)\s+)*(think|believe|feel like|feel that|am convinced|'m convinced|am now convinced|'m now convinced|am sure|'m sure|am certain|'m certain|suspect)\s+(?:that\s+)?(.+)$/i;
const OPINION = /\b(?:in my (?:opinion|view)|IMO|IMHO|my take is that|my view is that),?\s+(.+)$/i;
const NO_LONGER = /\bI\s+(?:no longer|don't|do not)\s+(?:think|believe)\s+(?:that\s+)?(.+?)(?:\s+any\s?more)?$/i;
const USED_TO =
  /\bI\s+used\s+to\s+(?:think|believe)\s+(?:that\s+)?(.+?),?\s+but\s+(?:now\s+)?(?:I\s+(?:now\s+)?(?:think|believe|realize|know|see)\s+(?:that\s+)?)?(.+)$/i;
const CHANGED_MIND = /\bI(?:'ve| have)?\s+changed\s+my\s+mind(?:\s+(?:about|on)\s+(.+?))?(?:[:.,;!]|$)/i;
const DOUBT =
  /\bI(?:'m| am)\s+(?:starting|beginning)\s+to\s+(?:doubt|question)\s+(?:my\s+(?:assumption|belief|view|idea|theory)\s+that\s+|whether\s+|that\s+)?(.+)$/i;
const WRONG_ABOUT = /\bI\s+was\s+wrong\s+(?:about|that)\s+(.+)$/i;
const BAD_START =
  /^(?:i|i'm|i'll|i'd|i've|we|we're|we'll|we'd|you|you're|it|it's|its|this|that|that's|these|those|there|there's|something|someone|somebody|nothing|everything|anything|so|maybe|yes|no|he|she|they|they're|me|my|our|what|how|why|about|of|in|if|when|not|too|just|the answer|this is|one of|part of|is|are|was|were|has|have|had|could|would|will|can|should|might|may|does|do|did|sounds?|looks?|seems?|all of|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight)\b|^[$\d"]/i;
/** Reactions to a suggestion and predictions about one's own plans are not beliefs. */
const NOT_A_CLAIM =
  /\b(?:would|could|might|will|should|won't|wouldn't|I|me|my|mine|myself|we|us|our)\b|'ll\b|\b(?:sounds?|looks?|seems?)\b|\b(?:great|good|nice|perfect|fair|reasonable|fun|amazing|awesome|helpful|useful|cool|lovely|wonderful|excellent)\s+(?:idea|choice|option|plan|touch|addition|price|deal|starting point|fit|way|pick|gift|one)\b|\b(?:is|are|was|were)\s+(?:so\s+|really\s+|very\s+)?(?:perfect|helpful|great|fine|incredible|amazing|awesome|fun)\b/i;
/**
 * A clause that means something only beside the talk it came from is no standing belief: it points at a thing
 * there ("the plot of this movie is very compact"), rates an unnamed part of it ("the most interesting part is
 * the emotional changes", "the first thing is to make a plan"; "the best thing about remote work is …" names it),
 * or is about the talk itself ("the conversation has been wrapped up nicely").
 */
const LEANS_ON_CONTEXT =
  /\b(?:this|these|those)\s+[a-z]|^the\s+(?:\w+\s+){0,2}(?:part|thing|step|bit)s?\s+(?:is|are|was|were)\b|^(?:the|our)\s+(?:conversation|chat|discussion)s?\b/i;
/**
 * A claim says something of something: it has a verb ("is", "can", "beats", "worked"). "I feel like a different
 * person now" compares; "a different person now" is no belief.
 */
const HAS_VERB =
  /\b(?:is|are|was|were|be|been|being|am|has|have|had|can|could|will|would|should|must|may|might|do|does|did|need|needs|makes?|matters?)\b|\s\w{2,}(?:s|ed)\b/i;
const BOUNDARY =
  /\s*(?:[;:!?]|\.(?:\s|$)|,\s+(?:but|so|which|because|since|and (?:I|we|you|it|that|this))\b|\s+(?:because|since|but|so that)\s+|\s+—\s+|\s+-\s+|\s+(?:any\s?more|right now|though)\b)/i;

const DOMAINS: [string, RegExp][] = [
  ['AI memory', /\b(?:vector|embedding|retriev\w*|rag|knowledge graphs?|memory systems?)\b/i],
  ['AI', /\b(?:ai|llms?|gpt|models?|agents?|chatbots?|neural|machine learning|ml|prompts?)\b/i],
  [
    'software engineering',
    /\b(?:code|coding|databases?|frameworks?|typescript|javascript|python|apis?|backend|frontend|architecture|tests?|testing|programming|software|abstractions?)\b/i,
  ],
  [
    'startups',
    /\b(?:startups?|founders?|investors?|fundrais\w*|customers?|users?|market|product|revenue|pricing|growth|pivot\w*)\b/i,
  ],
  ['education', /\b(?:school|college|university|class|classes|students?|exams?|grades?|professors?|degree)\b/i],
  ['productivity', /\b(?:notes?|habits?|productiv\w*|routines?|todo)\b/i],
  ['health', /\b(?:health|sleep|diet|exercise|workouts?|running|therapy)\b/i],
  ['career', /\b(?:career|jobs?|internships?|hiring|resume|interviews?)\b/i],
  ['finance', /\b(?:money|invest\w*|stocks?|savings|budget|tax|crypto)\b/i],
  ['relationships', /\b(?:friends?|family|relationships?|dating|parents?)\b/i],
];

export function guessDomain(statement: string): string | undefined {
  return DOMAINS.find(([, re]) => re.test(statement))?.[0];
}

/** A belief clause as a normalized statement, or null when it is not a claim. */
export function normalizeStatement(raw: string): string | null {
  const clause = cutClause(raw.trim(), BOUNDARY)
    .replace(/^(?:that|like)\s+/i, '')
    .replace(/["']+$/g, '')
    .trim();
  const words = clause.split(/\s+/).filter((w) => w.length > 0);
  if (words.length < 3 || words.length > 30 || BAD_START.test(clause) || clause.includes('?')) return null;
  if (NOT_A_CLAIM.test(clause) || LEANS_ON_CONTEXT.test(clause) || !HAS_VERB.test(clause)) return null;
  return clip(lowerFirst(clause), 200);
}

/** The known belief a statement refers to: equal words, or most words shared. */
export function matchBelief(statement: string, known: readonly string[]): string | null {
  let best: { name: string; score: number } | null = null;
  const norm = contentWords(statement).join(' ');
  for (const k of known) {
    if (contentWords(k).join(' ') === norm) return k;
    const score = (overlap(statement, k) + overlap(k, statement)) / 2;
    if (score >= 0.6 && (!best || score > best.score)) best = { name: k, score };
  }
  return best?.name ?? null;
}

function confidenceOf(verb: string, adverbs: string): number {
  const v = verb.toLowerCase();
  if (/convinced|sure|certain/.test(v)) return 0.9;
  if (/suspect/.test(v)) return 0.5;
  if (/feel/.test(v)) return 0.55;
  const base = /believe/.test(v) ? 0.75 : 0.7;
  return /now|strongly|firmly|really/i.test(adverbs) ? Math.round(Math.min(0.85, base + 0.1) * 100) / 100 : base;
}

/** Beliefs, reversals and doubts in one turn (its sentences' contexts, in order). */
export function findBeliefsInTurn(turn: PatternContext[]): Partial<Findings> {
  const beliefs: BeliefFinding[] = [];
  const stateChanges: StateChangeFinding[] = [];
  const entities: EntityFinding[] = [];
  /** An earlier belief the user just let go of; the next belief in the turn replaces it. */
  let pending: { old: string | null; topic: string | null; episodeId: string } | null = null;
  const known = (ctx: PatternContext): string[] => [...ctx.knownBeliefs, ...beliefs.map((b) => b.statement)];
  const add = (ctx: PatternContext, statement: string, confidence: number, replaces?: string): void => {
    let old = replaces;
    if (!old && pending) {
      old = pending.old ?? matchBelief(pending.topic ?? statement, known(ctx)) ?? undefined;
      pending = null;
    }
    beliefs.push({
      statement,
      domain: guessDomain(statement),
      confidence,
      episodeId: ctx.s.episodeId,
      ...(old && old !== statement ? { replaces: old } : {}),
    });
  };
  for (const ctx of turn) {
    const text = ctx.s.text.replace(/\bI'm\b/g, 'I am').replace(/\bI've\b/g, 'I have');
    const usedTo = USED_TO.exec(text);
    if (usedTo) {
      const before = normalizeStatement(usedTo[1] ?? '');
      const after = normalizeStatement(usedTo[2] ?? '');
      if (before && after) add(ctx, after, 0.8, matchBelief(before, known(ctx)) ?? before);
      continue;
    }
    const noLonger = NO_LONGER.exec(text) ?? WRONG_ABOUT.exec(text);
    if (noLonger && /no longer|wrong|any\s?more/i.test(noLonger[0])) {
      const stmt = normalizeStatement(noLonger[1] ?? '');
      if (stmt) pending = { old: matchBelief(stmt, known(ctx)) ?? stmt, topic: null, episodeId: ctx.s.episodeId };
      continue;
    }
    const changed = CHANGED_MIND.exec(text);
    if (changed) {
      const topic = changed[1]?.trim() ?? null;
      pending = { old: topic ? matchBelief(topic, known(ctx)) : null, topic, episodeId: ctx.s.episodeId };
      continue;
    }
    const doubt = DOUBT.exec(text);
    if (doubt) {
      const stmt = normalizeStatement(doubt[1] ?? '');
      // An unknown belief is named by its words: the world resolves it by name when it was recorded that way.
      const target = stmt ? (matchBelief(stmt, known(ctx)) ?? stmt) : null;
      if (target) {
        entities.push({ name: target, type: 'belief', aliases: [], state: {}, episodeId: ctx.s.episodeId });
        stateChanges.push({
          entityName: target,
          attribute: 'stance',
          oldStateAspect: 'held',
          newStateAspect: 'doubted',
          whatChanged: `Started to doubt: ${target}`,
          isContradiction: false,
          confidence: 0.7,
          episodeId: ctx.s.episodeId,
        });
      }
      continue;
    }
    if (isQuestion(ctx.s)) continue;
    const think = THINK.exec(text);
    const opinion = think ? null : OPINION.exec(text);
    const stmt = normalizeStatement((think ? think[3] : opinion?.[1]) ?? '');
    if (stmt) add(ctx, stmt, think ? confidenceOf(think[2] ?? '', think[1] ?? '') : 0.7);
  }
  if (pending?.old) {
    const old: string = pending.old;
    entities.push({ name: old, type: 'belief', aliases: [], state: {}, episodeId: pending.episodeId });
    stateChanges.push({
      entityName: old,
      attribute: 'stance',
      oldStateAspect: 'held',
      newStateAspect: 'abandoned',
      whatChanged: `No longer believes: ${old}`,
      isContradiction: true,
      confidence: 0.75,
      episodeId: pending.episodeId,
    });
  }
  return { beliefs, stateChanges, entities };
}
