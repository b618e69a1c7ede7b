/**
 * Merges the findings of a batch into one ExtractionResult: entities (declared, discovered and mentioned) merged by
 * canonical name with their aliases and state, deduplicated relationships, changes, beliefs and decisions,
 * "The alternatives were …" attached to their decision, the period context, and the annotations.
 */
import type { ExtractionResultInput } from '../result.js';
import type { ExtractionBatch } from '../types.js';
import type { EpisodeAnalysis } from './analyze.js';
import type { Discovery } from './discover.js';
import { emptyFindings, mergeFindings, type EntityFinding, type Findings } from './findings.js';
import type { Registry } from './registry.js';
import { coSpeakerEdges } from './patterns/speakers.js';
import { annotateEpisode, type EpisodeAnnotation } from './summary.js';

/** The user, when the source does not name the speaker; the world applier maps it to its self entity. */
export const SELF_NAME = 'User';

function mergeEntities(list: EntityFinding[], registry: Registry): NonNullable<ExtractionResultInput['entities']> {
  const byName = new Map<string, EntityFinding>();
  for (const e of list) {
    const key = e.name.toLowerCase();
    const prior = byName.get(key);
    if (!prior) {
      byName.set(key, { ...e, aliases: [...e.aliases], state: { ...e.state } });
      continue;
    }
    for (const a of e.aliases)
      if (!prior.aliases.some((x) => x.toLowerCase() === a.toLowerCase())) prior.aliases.push(a);
    prior.state = { ...prior.state, ...e.state };
    // What a pattern read from the words ("my dog Max") beats a name tagger's guess ("Max" as a person).
    const read = ['pet', 'book', 'movie', 'song', 'game'];
    if (read.includes(e.type) && (prior.type === 'person' || prior.type === 'place')) prior.type = e.type;
  }
  return [...byName.values()].map((e) => {
    const entry = registry.get(e.name);
    const knownAliases = new Set((entry?.knownAliases ?? []).map((a) => a.toLowerCase()));
    const aliases = e.aliases.filter(
      (a) => a.toLowerCase() !== e.name.toLowerCase() && !knownAliases.has(a.toLowerCase()),
    );
    return {
      name: e.name,
      type: e.type,
      aliases,
      state: e.state,
      matchesExisting: entry?.origin === 'known' ? entry.name : null,
      episodeId: e.episodeId,
      ...(e.eventTime ? { eventTime: e.eventTime } : {}),
    };
  });
}

/** Entities named in sentences, with the surface forms people used as aliases. */
function mentionedEntities(analyses: EpisodeAnalysis[], registry: Registry): EntityFinding[] {
  const out: EntityFinding[] = [];
  for (const { sentences } of analyses) {
    for (const s of sentences) {
      for (const m of s.mentions) {
        const entry = registry.get(m.name);
        const state: Record<string, string> =
          entry?.category && entry.origin === 'gazetteer' ? { category: entry.category } : {};
        const alias = m.surface.toLowerCase() !== m.name.toLowerCase() && m.surface.length > 1 ? [m.surface] : [];
        out.push({ name: m.name, type: m.type, aliases: alias, state, episodeId: s.episodeId });
      }
    }
  }
  return out;
}

function periodEntities(f: Findings): EntityFinding[] {
  return f.periods.map((p) => {
    const state: Record<string, string> = { status: p.status };
    if (p.date && (p.cue === 'start' || p.cue === 'ongoing')) state.start = p.date;
    if (p.date && p.cue === 'end') state.end = p.date;
    return { name: p.name, type: 'period', aliases: [], state, episodeId: p.episodeId };
  });
}

function attachAlternatives(f: Findings): void {
  for (const alt of f.alternatives) {
    const target = [...f.decisions].reverse().find((d) => d.episodeId === alt.episodeId && d.turn === alt.turn);
    if (target) for (const item of alt.items) if (!target.alternatives.includes(item)) target.alternatives.push(item);
  }
}

function dedupe<T>(list: T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return list.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function batchSummary(annotations: EpisodeAnnotation[]): string {
  const text = annotations.map((a) => a.summary).join(' | ');
  return text.length > 1200 ? `${text.slice(0, 1199)}…` : text;
}

export function assemble(input: {
  batch: ExtractionBatch;
  discovery: Discovery;
  analyses: EpisodeAnalysis[];
}): ExtractionResultInput {
  const { batch, discovery, analyses } = input;
  const registry = discovery.registry;
  const all = emptyFindings();
  mergeFindings(all, { entities: discovery.entities, relationships: discovery.relationships });
  for (const a of analyses) mergeFindings(all, a.findings);
  const sentences = analyses.flatMap((a) => a.sentences);
  mergeFindings(all, { relationships: coSpeakerEdges({ sentences, anonymousSelf: SELF_NAME }) });
  attachAlternatives(all);
  for (const a of discovery.aliases) {
    const target = registry.get(a.name);
    if (target)
      all.entities.push({
        name: target.name,
        type: target.type,
        aliases: [a.alias],
        state: {},
        episodeId: a.episodeId,
      });
  }
  // Each speaker is declared from the first episode they speak in: a batch may hold several people's conversations
  // (MemoryBank's users, one day each), and the batch's first episode is not theirs.
  const selves = new Map<string, string>();
  for (const s of sentences) {
    if (s.self !== SELF_NAME && !selves.has(s.self)) selves.set(s.self, s.episodeId);
  }
  for (const [self, episodeId] of selves) {
    all.entities.push({ name: self, type: 'person', aliases: [], state: {}, episodeId });
  }
  const entities = mergeEntities(
    [...mentionedEntities(analyses, registry), ...all.entities, ...periodEntities(all)],
    registry,
  );
  const annotations = analyses.map((a) => annotateEpisode(a.episode, a.sentences, a.findings));
  // Only the user's own current period frames the batch; another speaker's is theirs alone.
  const explicit = all.periods.filter((p) => (p.cue === 'start' || p.cue === 'ongoing') && !p.owner).pop();
  const main = [...annotations].sort((x, y) => y.significance - x.significance)[0];
  return {
    batch: { id: batch.id, date: new Date(batch.date).toISOString(), episodeIds: batch.episodes.map((e) => e.id) },
    entities,
    relationships: dedupe(all.relationships, (r) => `${r.source}|${r.target}|${r.type}|${r.ended}`),
    stateChanges: dedupe(all.stateChanges, (c) =>
      `${c.entityName}|${c.attribute ?? ''}|${c.newStateAspect}`.toLowerCase(),
    ),
    beliefs: dedupe(all.beliefs, (b) => b.statement.toLowerCase()),
    decisions: dedupe(all.decisions, (d) => d.summary.toLowerCase()).map(({ turn: _turn, ...d }) => d),
    actions: dedupe(all.actions, (a) => `${a.actor}|${a.verb}|${a.object}`),
    observations: dedupe(all.observations, (o) => o.text.toLowerCase()),
    locations: [...new Set(all.locations.map((l) => l.name))],
    periodContext: explicit?.name ?? batch.preamble.currentPeriod ?? undefined,
    summary: batchSummary(annotations),
    significance: main?.significance,
    userState: main?.userState,
    episodes: annotations,
  };
}
