/**
 * Deterministic episode annotations: a summary (title, the user's opening sentence, the main findings), a
 * significance from what was found (not from length), and a user state from keywords.
 */
import type { BatchEpisode } from '../types.js';
import type { Findings, Sentence } from './findings.js';
import { clip } from './names.js';

export interface EpisodeAnnotation {
  id: string;
  summary: string;
  significance: number;
  userState?: string;
}

const STATES: [string, RegExp][] = [
  [
    'frustrated',
    /\b(?:ugh|frustrat\w*|annoying|annoyed|hate|broken|doesn't work|does not work|still not|keeps? failing|stuck|wtf|driving me crazy|so slow|starting to hurt)\b/i,
  ],
  [
    'decisive',
    /\b(?:decided|decision|going with|we're going to|i'm going to|it is\.|final answer|settled on|committed to|pivoted)\b/i,
  ],
  ['excited', /\b(?:big news|excited|thrilled|we launched|finally|officially|can't wait|amazing)\b|!\s*$/i],
  ['anxious', /\b(?:worried|worry|nervous|anxious|stress\w*|overwhelm\w*|scared|too much|afraid)\b/i],
  [
    'reflective',
    /\b(?:changed my mind|no longer think|i realized|looking back|in hindsight|starting to doubt|i used to)\b/i,
  ],
  [
    'exploratory',
    /\b(?:what if|thinking about|idea|brainstorm\w*|explore|exploring|options|wondering|could i|would it)\b/i,
  ],
  [
    'learning',
    /\b(?:how do i|how does|how to|explain|what is|what's the difference|learn\w*|understand|tutorial|why does)\b/i,
  ],
];

export function userStateOf(sentences: readonly Sentence[]): string | undefined {
  const text = sentences.map((s) => s.text).join(' ');
  let best: { state: string; score: number } | null = null;
  for (const [state, re] of STATES) {
    const score = (text.match(new RegExp(re.source, 'gim')) ?? []).length;
    if (score > 0 && (!best || score > best.score)) best = { state, score };
  }
  return best?.state;
}

const WEIGHTS = {
  project: 0.5,
  stateChange: 0.3,
  decision: 0.35,
  belief: 0.3,
  person: 0.15,
  relationship: 0.1,
  commitment: 0.25,
  preference: 0.15,
  period: 0.35,
  other: 0.04,
};

/** Significance in [0.05, 0.95], saturating with the number and kind of findings. */
export function significanceOf(f: Findings): number {
  const count = (type: string): number => f.entities.filter((e) => e.type === type).length;
  const score =
    WEIGHTS.project * count('project') +
    WEIGHTS.stateChange * f.stateChanges.length +
    WEIGHTS.decision * f.decisions.length +
    WEIGHTS.belief * f.beliefs.length +
    WEIGHTS.person * count('person') +
    WEIGHTS.relationship * f.relationships.length +
    WEIGHTS.commitment * count('commitment') +
    WEIGHTS.preference * count('preference') +
    WEIGHTS.period * f.periods.filter((p) => p.cue !== 'planned').length +
    WEIGHTS.other * (count('tool') + count('organization') + count('place'));
  return Math.round((0.05 + 0.9 * (1 - Math.exp(-score))) * 100) / 100;
}

/** The user's first sentence that says something (not a greeting or a one-word reply). */
function openingSentence(sentences: readonly Sentence[]): string | null {
  const s = sentences.find(
    (x) => x.text.split(/\s+/).length >= 4 && !/^(?:hi|hey|hello|thanks|thank you|ok|okay)\b/i.test(x.text),
  );
  return s?.text ?? sentences[0]?.text ?? null;
}

export function summarizeEpisode(episode: BatchEpisode, sentences: readonly Sentence[], f: Findings): string {
  const parts: string[] = [];
  const opening = openingSentence(sentences);
  parts.push(
    opening ? `${episode.title || 'Untitled'}: ${clip(opening, 200)}` : episode.title || 'Untitled conversation',
  );
  const highlights = [
    ...f.decisions.map((d) => `Decided: ${d.summary}.`),
    ...f.stateChanges.filter((c) => c.attribute !== 'status').map((c) => `${c.entityName}: ${c.whatChanged}.`),
    ...f.beliefs.map((b) => `Believes: ${b.statement}.`),
  ];
  if (highlights.length > 0) parts.push(clip(highlights.slice(0, 3).join(' '), 300));
  return parts.join(' ');
}

export function annotateEpisode(episode: BatchEpisode, sentences: readonly Sentence[], f: Findings): EpisodeAnnotation {
  const userState = userStateOf(sentences);
  return {
    id: episode.id,
    summary: summarizeEpisode(episode, sentences, f),
    significance: significanceOf(f),
    ...(userState ? { userState } : {}),
  };
}
