import { textTable } from '../markdown.js';
import type { ConversationFigures, ExtractionBenchResult } from './run.js';

export interface ExtractionRunMeta {
  command: string;
  revision: string;
  data: string;
  extractor: string;
  date: string;
  seconds: number;
}

interface Group {
  name: string;
  convs: ConversationFigures[];
}

/** LoCoMo positions 1–5 are the tuning half, 6–10 the held-out half; other positions are listed on their own. */
export function groupsOf(convs: readonly ConversationFigures[]): Group[] {
  const tuned = convs.filter((c) => c.position <= 5);
  const held = convs.filter((c) => c.position > 5);
  return [
    ...(tuned.length > 0 ? [{ name: `conversations ${positions(tuned)} (tuning)`, convs: tuned }] : []),
    ...(held.length > 0 ? [{ name: `conversations ${positions(held)} (held out)`, convs: held }] : []),
  ];
}

const positions = (c: readonly ConversationFigures[]) => c.map((x) => x.position).join(',');
const sum = (c: readonly ConversationFigures[], f: (x: ConversationFigures) => number) =>
  c.reduce((n, x) => n + f(x), 0);
const pct = (a: number, b: number) => (b === 0 ? '–' : `${((a / b) * 100).toFixed(1)}`);

function merge(c: readonly ConversationFigures[], pick: (x: ConversationFigures) => Record<string, number>) {
  const out: Record<string, number> = {};
  for (const x of c) for (const [k, v] of Object.entries(pick(x))) out[k] = (out[k] ?? 0) + v;
  return out;
}

export function headlineRows(r: ExtractionBenchResult): string[][] {
  const header = [
    'conversations',
    'fact recall %',
    'event recall %',
    'entities',
    'precision % (audit estimate)',
    'precision % (labelled, n)',
    'type right % (labelled, n)',
    'transitions',
    'relationships',
    'observations',
    'periods',
  ];
  const rows = [
    ...r.conversations.map((c) => ({ name: `${c.position} ${c.sampleId}`, convs: [c] })),
    ...groupsOf(r.conversations),
  ].map((g) => {
    const c = g.convs;
    const entities = sum(c, (x) => x.entities);
    const junk = sum(c, (x) => Object.values(x.junk).reduce((n, v) => n + (v ?? 0), 0));
    const labelled = sum(c, (x) => x.labelled);
    return [
      g.name,
      pct(
        sum(c, (x) => x.factHits),
        sum(c, (x) => x.facts),
      ),
      pct(
        sum(c, (x) => x.eventHits),
        sum(c, (x) => x.events),
      ),
      String(entities),
      pct(entities - junk, entities),
      labelled === 0
        ? '–'
        : `${pct(
            sum(c, (x) => x.labelledReal),
            labelled,
          )} (${labelled})`,
      typedCell(
        sum(c, (x) => x.typedRight),
        sum(c, (x) => x.typed),
      ),
      String(sum(c, (x) => x.transitions)),
      String(sum(c, (x) => x.relationships)),
      String(sum(c, (x) => x.observations)),
      String(sum(c, (x) => x.periods)),
    ];
  });
  return [header, ...rows];
}

/** Per group: entities by type with the audit's junk count and the labelled precision of that type. */
export function typeRows(r: ExtractionBenchResult): string[][] {
  const header = ['group', 'type', 'entities', 'flagged junk', 'labelled', 'labelled real %'];
  const rows: string[][] = [];
  for (const g of groupsOf(r.conversations)) {
    const byType = merge(g.convs, (x) => x.entitiesByType);
    const junk = merge(g.convs, (x) => x.junkByType);
    const labelled = merge(g.convs, (x) =>
      Object.fromEntries(Object.entries(x.labelledByType).map(([k, v]) => [k, v.labelled])),
    );
    const real = merge(g.convs, (x) =>
      Object.fromEntries(Object.entries(x.labelledByType).map(([k, v]) => [k, v.real])),
    );
    for (const [type, n] of Object.entries(byType).sort((a, b) => b[1] - a[1])) {
      const l = labelled[type] ?? 0;
      rows.push([g.name, type, String(n), String(junk[type] ?? 0), String(l), l === 0 ? '–' : pct(real[type] ?? 0, l)]);
    }
  }
  return [header, ...rows];
}

/** Per group: which kind of record held the facts found. */
export function kindRows(r: ExtractionBenchResult): string[][] {
  const header = ['group', 'facts', 'held by a transition', 'a relationship', 'an observation', 'an entity'];
  return [
    header,
    ...groupsOf(r.conversations).map((g) => {
      const k = merge(g.convs, (x) => x.factHitsByKind);
      return [
        g.name,
        String(sum(g.convs, (x) => x.facts)),
        ...['transition', 'relationship', 'observation', 'entity'].map((n) => String(k[n] ?? 0)),
      ];
    }),
  ];
}

const table = (rows: readonly string[][]): string => {
  const [head = [], ...body] = rows;
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
};

export function extractionMarkdown(r: ExtractionBenchResult, meta: ExtractionRunMeta): string {
  const ex = (list: ExtractionBenchResult['examples']['factHits'], n: number) =>
    list
      .slice(0, n)
      .map((e) => `- ${e.sampleId}, ${e.speaker}: “${e.text}”${e.record ? ` → ${e.record.slice(0, 160)}` : ''}`);
  return [
    `## Extraction quality on LoCoMo (${meta.extractor})`,
    '',
    `Command: \`${meta.command}\`. Source at ${meta.revision}. Data: \`${meta.data}\`. Run on ${meta.date} in ${meta.seconds.toFixed(0)} s. ` +
      'Fact recall: share of the annotated observations some fact, transition, relationship or observation of the world holds ' +
      "(from an evidence turn's session, about that speaker, with at least 40 % of its key words); event recall: share of " +
      'event_summary events recorded as a transition or relationship about that speaker dated between the session before and the session (a day either side); ' +
      "precision: entities not flagged by `pie audit`'s junk detectors (estimate), and the share labelled real among the " +
      'hand-labelled entities found (bench/labels); type right: the share of those labelled real that have the type ' +
      'their label names. Definitions: docs/evaluation.md "Extraction quality".',
    '',
    table(headlineRows(r)),
    '',
    'Entities by type:',
    '',
    table(typeRows(r)),
    '',
    'Which records held the facts found:',
    '',
    table(kindRows(r)),
    '',
    'Examples of facts found:',
    '',
    ...ex(r.examples.factHits, 5),
    '',
    'Examples of facts missed:',
    '',
    ...ex(r.examples.factMisses, 5),
    '',
    'Examples of events missed:',
    '',
    ...ex(r.examples.eventMisses, 4),
  ].join('\n');
}

export function extractionText(r: ExtractionBenchResult): string {
  return [textTable(headlineRows(r)), '', textTable(typeRows(r))].join('\n');
}

/** "96.0 (25)": the share of labelled real entities that have the type their label names; "–" without any. */
function typedCell(right: number, typed: number): string {
  return typed === 0 ? '–' : `${pct(right, typed)} (${typed})`;
}
