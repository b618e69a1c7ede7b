/**
 * Pass 2: read every user sentence with the batch's registry, keep track of what each conversation is about (the
 * project in focus, the last person and tool named in a turn), and run the pattern families.
 */
import type { BatchEpisode, Preamble } from '../types.js';
import { localYmd } from './dates.js';
import { emptyFindings, mergeFindings, type AnalyzedSentence, type Findings, type Sentence } from './findings.js';
import { findActions } from './patterns/actions.js';
import { findBeliefsInTurn } from './patterns/beliefs.js';
import { findProjectChanges } from './patterns/changes.js';
import { findCommitments } from './patterns/commitments.js';
import { findCounts } from './patterns/counts.js';
import { buildMasked, EARLIER_TURNS, type PatternContext } from './patterns/context.js';
import { findDecisions } from './patterns/decisions.js';
import { findFavorites } from './patterns/favorites.js';
import { findKin } from './patterns/kin.js';
import { findLife } from './patterns/life.js';
import { findLifePeriods } from './patterns/life-periods.js';
import { findPeriods } from './patterns/periods.js';
import { findPreferences } from './patterns/preferences.js';
import { findRoles } from './patterns/roles.js';
import { findToolEvents } from './patterns/tools.js';
import type { Registry } from './registry.js';
import type { SpanTagger } from './nlp.js';
import { findPersonal } from './patterns/personal.js';
import { findTravel } from './patterns/travel.js';

const SENTENCE_FAMILIES = [
  findProjectChanges,
  findToolEvents,
  findRoles,
  findLife,
  findPeriods,
  findLifePeriods,
  findDecisions,
  findPreferences,
  findFavorites,
  findCommitments,
  findActions,
  findCounts,
] as const;

export interface EpisodeAnalysis {
  episode: BatchEpisode;
  sentences: AnalyzedSentence[];
  findings: Findings;
}

function knownOfType(preamble: Preamble, type: string): string[] {
  const all = [...preamble.mentionedEntities, ...preamble.recentEntities, ...preamble.activeProjects];
  return [...new Set(all.filter((e) => e.type === type).map((e) => e.name))];
}

/** The preamble's only active project, used as focus when a conversation names none. */
function soleActiveProject(preamble: Preamble): string | null {
  const projects = [...new Set(preamble.activeProjects.map((p) => p.name))];
  return projects.length === 1 ? (projects[0] ?? null) : null;
}

export function analyzeEpisodes(input: {
  episodes: { episode: BatchEpisode; sentences: Sentence[] }[];
  registry: Registry;
  preamble: Preamble;
  tz: string;
  /** compromise, for the verbs of personal events; null: those are left out. */
  tagger?: SpanTagger | null;
}): EpisodeAnalysis[] {
  const { registry, preamble } = input;
  const knownBeliefs = knownOfType(preamble, 'belief');
  const knownPeriods = [
    ...(preamble.currentPeriod ? [preamble.currentPeriod] : []),
    ...knownOfType(preamble, 'period'),
  ];
  const fallbackProject = soleActiveProject(preamble);
  const out: EpisodeAnalysis[] = [];
  for (const { episode, sentences } of input.episodes) {
    const findings = emptyFindings();
    const analyzed: AnalyzedSentence[] = [];
    const seen = new Set<string>();
    let focusProject: string | null = null;
    let turn: PatternContext[] = [];
    const earlier: string[] = [];
    const flushTurn = (): void => {
      if (turn.length === 0) return;
      earlier.push(turn.map((c) => c.s.text).join(' '));
      if (earlier.length > EARLIER_TURNS) earlier.shift();
      const beliefs = findBeliefsInTurn(turn);
      mergeFindings(findings, beliefs);
      knownBeliefs.push(...(beliefs.beliefs ?? []).map((b) => b.statement));
      turn = [];
    };
    for (const s of sentences) {
      if (turn[0] && turn[0].s.turn !== s.turn) flushTurn();
      const mentions = registry.find(s.text, seen);
      const a: AnalyzedSentence = { ...s, mentions, masked: buildMasked(s.text, mentions) };
      analyzed.push(a);
      for (const m of mentions) seen.add(m.name);
      const sentenceProject = mentions.find((m) => m.type === 'project')?.name ?? null;
      focusProject = sentenceProject ?? focusProject;
      const previous = turn.map((c) => c.s);
      const lastOf = (type: string): string | null =>
        previous
          .flatMap((p) => p.mentions)
          .filter((m) => m.type === type)
          .pop()?.name ?? null;
      const ctx: PatternContext = {
        s: a,
        previous,
        earlier: [...earlier],
        registry,
        focusProject: focusProject ?? fallbackProject,
        episodeProject: focusProject,
        lastPerson: lastOf('person'),
        lastTool: lastOf('tool'),
        episodeTitle: episode.title,
        day: localYmd(s.time, input.tz),
        tz: input.tz,
        knownBeliefs,
        knownPeriods,
        tagger: input.tagger ?? null,
      };
      let specific = false;
      for (const family of SENTENCE_FAMILIES) {
        const found = family(ctx);
        mergeFindings(findings, found);
        specific ||= [found.stateChanges, found.decisions, found.relationships, found.entities].some(
          (l) => (l?.length ?? 0) > 0,
        );
        for (const p of found.periods ?? []) if (!knownPeriods.includes(p.name)) knownPeriods.push(p.name);
        for (const e of found.entities ?? []) if (e.type === 'project') focusProject = e.name;
      }
      // A sentence a specific family understood (a decision, a tool switch, a promise) is not also a loose event.
      mergeFindings(findings, findPersonal({ ...ctx, events: !specific }));
      // Where the speaker has been, and their people's homes and ties: edges beside the sentence's event, never instead of it.
      mergeFindings(findings, findTravel(ctx));
      mergeFindings(findings, findKin(ctx));
      turn.push(ctx);
    }
    flushTurn();
    out.push({ episode, sentences: analyzed, findings });
  }
  return out;
}
