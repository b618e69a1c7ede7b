import { localDayKey } from '../domain/time.js';
import {
  startWord,
  type Entity,
  type Period,
  type Relationship,
  type StateValue,
  type Transition,
} from '../domain/world.js';
import type { WorldStore } from '../ports/world-store.js';
import { assignFileNames } from './file-names.js';
import { syncFiles, type ExportFile, type SyncReport } from './sync.js';
import { linkAlias, noteText } from './note-text.js';
import { frontMatter } from './yaml.js';

/** The vault's home note (its name is reserved: no entity note takes it). */
export const HOME_NOTE = 'PIE World';
const PERIOD_DIR = 'Periods';
const ENTITY_DIR = 'Entities';

interface VaultIndex {
  entities: Entity[];
  byId: Map<string, Entity>;
  files: Map<string, string>;
  periods: Map<string, Period>;
  tz: string;
}

const day = (ms: number | null, tz: string): string => (ms === null ? '' : localDayKey(ms, tz));

const valueText = (v: StateValue | unknown): string => noteText(typeof v === 'string' ? v : JSON.stringify(v));

/** `[[file]]`, or `[[file|Name]]` when the file name had to differ from the entity's name. */
function link(index: VaultIndex, id: string): string {
  const entity = index.byId.get(id);
  const file = index.files.get(id);
  if (!entity || file === undefined) return '(unknown)';
  return file === entity.name ? `[[${file}]]` : `[[${file}|${linkAlias(entity.name)}]]`;
}

function notePath(index: VaultIndex, entity: Entity): string {
  const file = index.files.get(entity.id) ?? entity.id;
  return index.periods.has(entity.id) ? `${PERIOD_DIR}/${file}.md` : `${ENTITY_DIR}/${entity.type}/${file}.md`;
}

function relationshipLines(index: VaultIndex, entity: Entity, rels: Relationship[]): string[] {
  const lines: string[] = [];
  const sorted = [...rels].sort((a, b) => a.validFrom - b.validFrom || (a.id < b.id ? -1 : 1));
  for (const r of sorted) {
    const outgoing = r.sourceId === entity.id;
    const other = outgoing ? r.targetId : r.sourceId;
    if (other === entity.id && !outgoing) continue;
    const props = Object.entries(r.properties)
      .map(([k, v]) => `${noteText(k)}: ${valueText(v)}`)
      .join(', ');
    const span = `${startWord(r.type)} ${day(r.validFrom, index.tz)}${r.validTo === null ? '' : `, ended ${day(r.validTo, index.tz)}`}`;
    lines.push(
      `- ${outgoing ? `${noteText(r.type)} → ${link(index, other)}` : `${link(index, other)} → ${noteText(r.type)}`}${props ? ` (${props})` : ''} — ${span}${r.discoveredBy ? ` — discovered by ${noteText(r.discoveredBy)}` : ''}`,
    );
  }
  return lines;
}

function timelineLines(index: VaultIndex, transitions: Transition[]): string[] {
  return [...transitions]
    .sort((a, b) => a.eventTime - b.eventTime || (a.id < b.id ? -1 : 1))
    .map((t) => {
      const flag =
        t.kind === 'contradiction' ? (t.resolvedBy === null ? ' ⚠ unresolved contradiction' : ' (resolved)') : '';
      return `- **${day(t.eventTime, index.tz)}** · ${t.kind}: ${noteText(t.summary)}${flag}`;
    });
}

async function entityNote(store: WorldStore, index: VaultIndex, entity: Entity): Promise<ExportFile> {
  const [transitions, rels] = await Promise.all([
    store.transitions.forEntity(entity.id),
    store.relationships.forEntity(entity.id, { includeEnded: true }),
  ]);
  const periodIds = [
    ...new Set(
      rels
        .filter((r) => r.type === 'DURING' && r.sourceId === entity.id && index.periods.has(r.targetId))
        .map((r) => r.targetId),
    ),
  ];
  const period = index.periods.get(entity.id);
  const during =
    period !== undefined
      ? rels.filter((r) => r.type === 'DURING' && r.targetId === entity.id).map((r) => r.sourceId)
      : [];
  const front = frontMatter([
    ['pie_id', entity.id],
    ['type', entity.type],
    ['aliases', entity.aliases],
    ['tags', [`pie/${entity.type.replace(/\s+/g, '-')}`]],
    ['tier', entity.tier],
    ['importance', Math.round(entity.importance * 1000) / 1000],
    ['first_seen', day(entity.firstSeen, index.tz)],
    ['last_seen', day(entity.lastSeen, index.tz)],
    ['start', period ? day(period.start, index.tz) : undefined],
    ['end', period ? (period.end === null ? null : day(period.end, index.tz)) : undefined],
    ['periods', periodIds.length > 0 ? periodIds.map((id) => link(index, id)) : undefined],
    ['state', entity.state],
  ]);
  const body = [
    `# ${noteText(entity.name)}`,
    '',
    `${entity.type}${periodIds.length > 0 ? ` · during ${periodIds.map((id) => link(index, id)).join(', ')}` : ''} · first seen ${day(entity.firstSeen, index.tz)}, last seen ${day(entity.lastSeen, index.tz)}${entity.aliases.length > 0 ? ` · also called ${entity.aliases.map(noteText).join(', ')}` : ''}`,
  ];
  const state = Object.entries(entity.state);
  if (state.length > 0)
    body.push('', '## Current state', ...state.map(([k, v]) => `- ${noteText(k)}: ${valueText(v)}`));
  if (during.length > 0) {
    const names = [...new Set(during)].filter((id) => index.byId.has(id));
    names.sort((a, b) => ((index.files.get(a) ?? '') < (index.files.get(b) ?? '') ? -1 : 1));
    body.push('', '## During this period', ...names.map((id) => `- ${link(index, id)}`));
  }
  const relLines = relationshipLines(
    index,
    entity,
    rels.filter((r) => r.type !== 'DURING' && index.byId.has(r.sourceId) && index.byId.has(r.targetId)),
  );
  if (relLines.length > 0) body.push('', '## Relationships', ...relLines);
  if (transitions.length > 0) body.push('', '## Timeline', ...timelineLines(index, transitions));
  return { path: notePath(index, entity), content: `${front}\n\n${body.join('\n')}\n` };
}

function homeNote(index: VaultIndex): ExportFile {
  const byType = new Map<string, Entity[]>();
  for (const e of index.entities) byType.set(e.type, [...(byType.get(e.type) ?? []), e]);
  const lines = [
    frontMatter([['tags', ['pie/index']]]),
    '',
    `# ${HOME_NOTE}`,
    '',
    `${index.entities.length} entities exported from PIE. Each note has its current state, relationships and timeline.`,
  ];
  const periods = [...index.periods.values()].sort((a, b) => a.start - b.start);
  if (periods.length > 0) {
    lines.push('', '## Periods');
    for (const p of periods) {
      lines.push(
        `- ${link(index, p.entityId)} (${day(p.start, index.tz)} – ${p.end === null ? 'now' : day(p.end, index.tz)})`,
      );
    }
  }
  for (const type of [...byType.keys()].sort()) {
    const list = (byType.get(type) ?? [])
      .filter((e) => !index.periods.has(e.id))
      .sort((a, b) => b.importance - a.importance || (a.id < b.id ? -1 : 1));
    lines.push('', `## ${noteText(type)} (${list.length})`, ...list.map((e) => `- ${link(index, e.id)}`));
  }
  return { path: `${HOME_NOTE}.md`, content: `${lines.join('\n')}\n` };
}

async function* vaultFiles(store: WorldStore, tz: string): AsyncGenerator<ExportFile> {
  const entities = await store.entities.list({ orderBy: 'name' });
  entities.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const files = assignFileNames(
    entities.map((e) => ({ id: e.id, name: e.name, kind: e.type })),
    [HOME_NOTE.toLowerCase()],
  );
  const periods = new Map((await store.periods.list()).map((p) => [p.entityId, p]));
  const index: VaultIndex = { entities, byId: new Map(entities.map((e) => [e.id, e])), files, periods, tz };
  yield homeNote(index);
  for (const entity of entities) yield await entityNote(store, index, entity);
}

/**
 * Exports the world model as an Obsidian vault: one note per entity (Entities/<type>/, periods in Periods/) with
 * YAML front matter, wikilinks to related entities and to its periods, its timeline, and a home note. Unchanged
 * notes are not rewritten; notes of entities that no longer exist are removed (unless edited by hand).
 */
export async function exportObsidian(input: { store: WorldStore; dir: string; tz: string }): Promise<SyncReport> {
  return syncFiles({ dir: input.dir, kind: 'obsidian', files: vaultFiles(input.store, input.tz) });
}
