import type { PhaseReport } from './run-phases.js';

/**
 * What a sleep phase did (or would do), as lines a person can read and follow: which entities move tier, which
 * facts' confidence decays, which duplicates merge or wait for review, which connections are discovered. The web
 * Maintenance view shows them under each phase; entity ids are resolved to names and links by the caller. Pure.
 */
export interface PhaseItem {
  text: string;
  /** Entities the line is about (ids), listed after the text. */
  entityIds?: string[];
}

/** Entities listed under one line, at most. */
export const ITEM_ENTITIES = 50;

type Details = Record<string, unknown>;

export function phaseItems(phase: Pick<PhaseReport, 'name' | 'details' | 'issues'>): PhaseItem[] {
  const d: Details = phase.details ?? {};
  const items = specific(phase.name, d) ?? generic(d);
  return [...items, ...(phase.issues ?? []).map((text) => ({ text }))];
}

function specific(name: string, d: Details): PhaseItem[] | null {
  switch (name) {
    case 'tiers':
      return tierItems(d);
    case 'confidence decay':
      return list(d.decayed).length > 0
        ? [withEntities(`Confidence lowered on ${num(d.facts)} facts of`, strings(d.decayed))]
        : null;
    case 'merge duplicates':
      return mergeItems(d);
    case 'micro dreams':
      return list(d.pairs).map((p) => {
        const pair = record(p);
        return withEntities(
          `Connected (said together in ${num(pair.count)} conversations):`,
          strings([pair.a, pair.b]),
        );
      });
    case 'period refinement':
      return strings(d.refined).map((text) => ({ text: `Refined: ${text}` }));
    default:
      return null;
  }
}

function tierItems(d: Details): PhaseItem[] {
  const byMove = new Map<string, string[]>();
  for (const m of list(d.moved)) {
    const move = record(m);
    const key = `${String(move.from)} → ${String(move.to)}`;
    byMove.set(key, [...(byMove.get(key) ?? []), String(move.entityId)]);
  }
  const counts = record(d.moves);
  return [...byMove].map(([move, ids]) => {
    const total = num(counts[move.replace(' → ', '→')]) || ids.length;
    return withEntities(`${move} (${total}):`, ids);
  });
}

function mergeItems(d: Details): PhaseItem[] {
  const out: PhaseItem[] = [];
  for (const m of list(d.merged)) {
    const x = record(m);
    out.push({ text: `Merged “${String(x.from)}” into “${String(x.into)}” (${String(x.reason)})` });
  }
  for (const r of list(d.rejected)) {
    const x = record(r);
    out.push({ text: `Kept apart: ${strings(x.names).join(' / ')} (${String(x.why ?? x.reason)})` });
  }
  for (const l of list(d.leftForReview)) {
    const x = record(l);
    out.push({ text: `Left for review: ${strings(x.names).join(' / ')} (${String(x.why ?? x.reason)})` });
  }
  return out.length > 0 ? out : generic(d);
}

/** The phase's plain figures, one line ("open: 5, resolved: 2"). */
function generic(d: Details): PhaseItem[] {
  const parts = Object.entries(d)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string')
    .map(([k, v]) => `${k}: ${String(v)}`);
  return parts.length > 0 ? [{ text: parts.join(', ') }] : [];
}

function withEntities(text: string, ids: readonly string[]): PhaseItem {
  const shown = ids.slice(0, ITEM_ENTITIES);
  const more = ids.length - shown.length;
  return { text: more > 0 ? `${text} (${more} more not listed)` : text, entityIds: shown };
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const strings = (v: unknown): string[] => list(v).filter((x): x is string => typeof x === 'string');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
