import { isObject, stringField } from '../../import/common.js';
import { locomoSampleToConversations } from '../../import/locomo.js';
import { junkReason, type JunkKind } from '../../audit/junk.js';
import type { Usage } from '../../extract/types.js';
import { addUsage, emptyUsage } from '../../llm/index.js';
import type { WorldStore } from '../../ports/world-store.js';
import type { ProgressEvent } from '../retrieval-options.js';
import { buildWorld, type WorldExtraction } from '../world.js';
import { locomoAnnotations } from './annotations.js';
import { findEvent, findFact, loadLemmatizer, type WorldRecord } from './match.js';
import { worldRecords } from './records.js';
import { entityContext } from '../../audit/context.js';
import type { EntityLabel } from './labels.js';

export interface ExtractionBenchOptions {
  tz: string;
  extraction: WorldExtraction;
  openStore: () => Promise<WorldStore>;
  /** Hand labels of extracted entities (bench/labels), keyed by sample id and lower-case name. */
  labels: ReadonlyMap<string, EntityLabel>;
  /** Examples of hits and misses kept per kind and conversation (8 unless given). */
  examples?: number;
  onProgress?: (event: ProgressEvent) => void;
}

export interface ConversationFigures {
  sampleId: string;
  position: number;
  facts: number;
  factHits: number;
  /** Fact hits by the kind of record that held them. */
  factHitsByKind: Record<WorldRecord['kind'], number>;
  events: number;
  eventHits: number;
  entities: number;
  entitiesByType: Record<string, number>;
  /** Entities the junk detectors flag, by detector. */
  junk: Partial<Record<JunkKind, number>>;
  junkByType: Record<string, number>;
  labelled: number;
  labelledReal: number;
  labelledByType: Record<string, { labelled: number; real: number }>;
  /** Labelled-real entities whose label names the type they should have, and how many of them have it. */
  typed: number;
  typedRight: number;
  transitions: number;
  relationships: number;
  observations: number;
  periods: number;
  usage: Usage;
}

export interface Example {
  sampleId: string;
  speaker: string;
  text: string;
  /** The record that held it (hits), or null (misses). */
  record: string | null;
}

export interface ExtractionBenchResult {
  conversations: ConversationFigures[];
  examples: { factHits: Example[]; factMisses: Example[]; eventHits: Example[]; eventMisses: Example[] };
  /** Entities flagged as junk, with why (for the report). */
  junkExamples: { sampleId: string; name: string; type: string; why: string }[];
  skippedAnnotations: number;
}

const emptyKinds = (): Record<WorldRecord['kind'], number> => ({
  transition: 0,
  relationship: 0,
  observation: 0,
  entity: 0,
});

/**
 * Extraction quality on LoCoMo (docs/evaluation.md "Extraction quality"): each chosen conversation is imported and
 * extracted by the users' own ingest path into a fresh world; its annotated observations (facts per speaker, with
 * evidence turns) and event summaries (events per speaker, with the session date) are matched against what the world
 * holds, and its entities are checked against the hand labels and the audit's junk detectors.
 */
export async function runExtractionBench(
  samples: readonly { position: number; sample: unknown }[],
  options: ExtractionBenchOptions,
): Promise<ExtractionBenchResult> {
  const result: ExtractionBenchResult = {
    conversations: [],
    examples: { factHits: [], factMisses: [], eventHits: [], eventMisses: [] },
    junkExamples: [],
    skippedAnnotations: 0,
  };
  const keep = options.examples ?? 8;
  const lemmatize = await loadLemmatizer();
  const push = (list: Example[], e: Example) => {
    if (list.length < keep * samples.length) list.push(e);
  };
  for (const [i, { position, sample }] of samples.entries()) {
    const sampleId = isObject(sample) ? (stringField(sample, 'sample_id') ?? `#${position}`) : `#${position}`;
    options.onProgress?.({ phase: 'ingest', label: sampleId, done: i, total: samples.length });
    const conversations = locomoSampleToConversations(sample, options.tz);
    const annotations = locomoAnnotations(sample);
    result.skippedAnnotations += annotations.skipped;
    const world = await buildWorld({ ...options, conversations, label: sampleId });
    try {
      const episodeOfSession = new Map<number, string>();
      for (const [episodeId, external] of world.sessionOf) {
        const m = /:session_(\d+)$/.exec(external);
        if (m) episodeOfSession.set(Number(m[1]), episodeId);
      }
      const { records, entities } = await worldRecords(world.store);
      const names = annotations.speakers;
      const fig: ConversationFigures = {
        sampleId,
        position,
        facts: annotations.facts.length,
        factHits: 0,
        factHitsByKind: emptyKinds(),
        events: 0,
        eventHits: 0,
        entities: entities.length,
        entitiesByType: {},
        junk: {},
        junkByType: {},
        labelled: 0,
        labelledReal: 0,
        labelledByType: {},
        typed: 0,
        typedRight: 0,
        transitions: records.filter((r) => r.kind === 'transition').length,
        relationships: records.filter((r) => r.kind === 'relationship').length,
        observations: records.filter((r) => r.kind === 'observation').length,
        periods: entities.filter((e) => e.type === 'period').length,
        usage: addUsage(emptyUsage(), world.ingest.usage),
      };
      for (const f of annotations.facts) {
        const sessions = new Set(
          f.evidence.flatMap((d) => {
            const id = episodeOfSession.get(Number(/^D(\d+):/.exec(d)?.[1]));
            return id ? [id] : [];
          }),
        );
        const hit = findFact({ text: f.text, speaker: f.speaker, names, episodes: sessions, records, lemmatize });
        if (hit) {
          fig.factHits += 1;
          fig.factHitsByKind[hit.kind] += 1;
          push(result.examples.factHits, {
            sampleId,
            speaker: f.speaker,
            text: f.text,
            record: `${hit.kind}: ${hit.text}`,
          });
        } else push(result.examples.factMisses, { sampleId, speaker: f.speaker, text: f.text, record: null });
      }
      for (const e of annotations.events) {
        if (e.date === null) continue;
        fig.events += 1;
        const hit = findEvent({
          text: e.text,
          speaker: e.speaker,
          names,
          date: e.date,
          since: e.since,
          records,
          lemmatize,
        });
        if (hit) {
          fig.eventHits += 1;
          push(result.examples.eventHits, {
            sampleId,
            speaker: e.speaker,
            text: e.text,
            record: `${hit.kind}: ${hit.text}`,
          });
        } else push(result.examples.eventMisses, { sampleId, speaker: e.speaker, text: e.text, record: null });
      }
      const context = entityContext(world.store);
      for (const entity of entities) {
        fig.entitiesByType[entity.type] = (fig.entitiesByType[entity.type] ?? 0) + 1;
        const junk = junkReason(entity, (await context.of(entity)).sentences);
        if (junk) {
          fig.junk[junk.kind] = (fig.junk[junk.kind] ?? 0) + 1;
          fig.junkByType[entity.type] = (fig.junkByType[entity.type] ?? 0) + 1;
          result.junkExamples.push({ sampleId, name: entity.name, type: entity.type, why: junk.why });
        }
        const label = options.labels.get(`${sampleId}\t${entity.name.toLowerCase()}`);
        if (label) {
          fig.labelled += 1;
          const real = label.label === 'real';
          if (real) fig.labelledReal += 1;
          const t = (fig.labelledByType[entity.type] ??= { labelled: 0, real: 0 });
          t.labelled += 1;
          if (real) t.real += 1;
          if (real && label.correctType !== null) {
            fig.typed += 1;
            if (label.correctType === entity.type) fig.typedRight += 1;
          }
        }
      }
      result.conversations.push(fig);
    } finally {
      await world.close();
    }
  }
  return result;
}
