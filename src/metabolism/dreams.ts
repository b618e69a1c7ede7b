import type { Entity, Procedure, Transition } from '../domain/world.js';
import type { GraphEdge, GraphNode, RawRow } from '../ports/maintenance-store.js';
import type { DreamInsights } from './prompts.js';
import { utcDate } from '../domain/time.js';

/**
 * Deep and mega dreams (pie-architecture "Dreaming Engine", pie-paper §4.6), the pure parts: which entities the
 * model is shown, how they are keyed (E1, E2 … so the model can cite them), and how its answer becomes insight rows
 * whose evidence is entity ids.
 */

export interface DreamRules {
  /** Deep dreams per run: clusters around the most important entities. */
  clusters: number;
  /** Entities per cluster (the seed and its most important neighbours); smaller clusters are not dreamt about. */
  clusterSize: number;
  minClusterSize: number;
  /** Recent transitions shown per cluster. */
  changes: number;
  /** Entities and procedures shown to a mega dream. */
  megaEntities: number;
  megaProcedures: number;
}

export const DEFAULT_DREAM_RULES: DreamRules = {
  clusters: 3,
  clusterSize: 12,
  minClusterSize: 3,
  changes: 20,
  megaEntities: 25,
  megaProcedures: 10,
};

export interface ScoredNode {
  id: string;
  importance: number;
}

/** Entities worth dreaming about: not periods, not protected, not archived, with the cycle's new scores. */
export function dreamable(
  nodes: readonly GraphNode[],
  scores: ReadonlyMap<string, number>,
  tiers: ReadonlyMap<string, string>,
): ScoredNode[] {
  return nodes
    .filter((n) => n.type !== 'period' && !n.protected && (tiers.get(n.id) ?? n.tier) !== 'archived')
    .map((n) => ({ id: n.id, importance: scores.get(n.id) ?? n.importance }))
    .sort((a, b) => b.importance - a.importance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Clusters for deep dreams: the most important entity not yet in a cluster, with its most important neighbours;
 * then the next one, until `rules.clusters` clusters are found. Deterministic.
 */
export function pickClusters(input: {
  nodes: readonly ScoredNode[];
  edges: readonly GraphEdge[];
  rules?: DreamRules;
}): string[][] {
  const rules = input.rules ?? DEFAULT_DREAM_RULES;
  const rank = new Map(input.nodes.map((n, i) => [n.id, i]));
  const neighbours = new Map<string, Set<string>>();
  for (const e of input.edges) {
    if (!rank.has(e.sourceId) || !rank.has(e.targetId)) continue;
    for (const [x, y] of [
      [e.sourceId, e.targetId],
      [e.targetId, e.sourceId],
    ] as const) {
      const set = neighbours.get(x) ?? new Set<string>();
      set.add(y);
      neighbours.set(x, set);
    }
  }
  const covered = new Set<string>();
  const clusters: string[][] = [];
  for (const seed of input.nodes) {
    if (clusters.length >= rules.clusters) break;
    if (covered.has(seed.id)) continue;
    const around = [...(neighbours.get(seed.id) ?? [])].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
    const members = [seed.id, ...around.slice(0, rules.clusterSize - 1)];
    if (members.length < rules.minClusterSize) continue;
    for (const id of members) covered.add(id);
    clusters.push(members);
  }
  return clusters;
}

/** Keys the model cites: E1 … in the order given. */
export function entityKeys(ids: readonly string[]): Map<string, string> {
  return new Map(ids.map((id, i) => [`E${i + 1}`, id]));
}

function stateText(e: Entity): string {
  const parts = Object.entries(e.state).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length === 0 ? '' : `: ${parts.join(', ')}`;
}

export function entityLines(keys: ReadonlyMap<string, string>, entities: ReadonlyMap<string, Entity>): string {
  const lines: string[] = [];
  for (const [key, id] of keys) {
    const e = entities.get(id);
    if (e === undefined) continue;
    lines.push(`[${key}] ${e.name} (${e.type})${stateText(e)}; seen ${utcDate(e.firstSeen)} to ${utcDate(e.lastSeen)}`);
  }
  return lines.join('\n');
}

export function changeLines(keys: ReadonlyMap<string, string>, transitions: readonly Transition[]): string {
  const keyOf = new Map([...keys].map(([k, id]) => [id, k]));
  const lines = transitions.map(
    (t) => `${utcDate(t.eventTime)} ${keyOf.get(t.entityId) ?? '?'} (${t.kind}): ${t.summary}`,
  );
  return lines.length === 0 ? '(none)' : lines.join('\n');
}

export function procedureLines(procedures: readonly Procedure[]): string {
  if (procedures.length === 0) return '(none yet)';
  return procedures
    .map(
      (p, i) =>
        `[P${i + 1}] ${p.domain ?? 'general'}: ${p.pattern.join(' → ')} (observed ${p.timesObserved} times, confidence ${p.confidence})`,
    )
    .join('\n');
}

export function normalizeText(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The model's insights as `insights` rows: evidence keys become entity ids (unknown keys dropped, repeats once);
 * an insight citing no known entity, or one whose text is already stored (`known`, normalized), is left out.
 */
export function insightRows(input: {
  answer: DreamInsights;
  keys: ReadonlyMap<string, string>;
  kind: string;
  runId: string;
  now: number;
  newId: () => string;
  known: Set<string>;
}): RawRow[] {
  const rows: RawRow[] = [];
  for (const insight of input.answer.insights) {
    const evidence = [
      ...new Set(insight.evidence.map((k) => input.keys.get(k.trim())).filter((id): id is string => id !== undefined)),
    ];
    const norm = normalizeText(insight.text);
    if (evidence.length === 0 || norm === '' || input.known.has(norm)) continue;
    input.known.add(norm);
    rows.push({
      id: input.newId(),
      kind: input.kind,
      text: insight.text,
      evidence: JSON.stringify(evidence),
      confidence: Math.round(insight.confidence * 100) / 100,
      status: 'new',
      run_id: input.runId,
      created_at: input.now,
    });
  }
  return rows;
}
