import { describe, expect, it } from 'vitest';
import type { Period } from '../domain/world.js';
import { entity, queryPlan, subgraph as subgraphOf, transition } from '../query/test-kit.js';
import { compileContext } from './context.js';
import type { TimeFormat } from './time-format.js';

const NOW = Date.UTC(2025, 10, 1, 12);
const at = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 12);
const periods: Period[] = [
  { entityId: 'p1', name: 'junior year at UMD', start: at(2024, 8, 26), end: at(2025, 5, 20) },
  { entityId: 'p2', name: 'gap semester in San Francisco', start: at(2025, 6, 1), end: null },
];
const tidepool = entity({
  id: 'tp',
  name: 'Tidepool',
  aliases: ['TP'],
  state: { stage: 'beta', focus: 'tide alerts' },
  firstSeen: at(2024, 9, 10),
  lastSeen: at(2025, 10, 11),
});
const subgraph = subgraphOf({
  entities: [
    {
      entity: tidepool,
      transitionCount: 3,
      changeCount: 2,
      hiddenCount: 1,
      transitions: [
        transition({
          id: 'c',
          entityId: 'tp',
          kind: 'creation',
          eventTime: at(2024, 9, 10),
          summary: 'Started Tidepool',
          episodeId: 'ep1',
        }),
        transition({
          id: 'x',
          entityId: 'tp',
          kind: 'contradiction',
          eventTime: at(2025, 7, 1),
          summary: 'Pivoted from surf reports to tide alerts',
          fromState: { focus: 'surf reports' },
          toState: { focus: 'tide alerts' },
          episodeId: 'ep2',
        }),
      ],
      relationships: [],
    },
  ],
});
const plan = queryPlan({
  question: 'How has Tidepool evolved?',
  intent: 'temporal_diff',
  entityIds: ['tp'],
  wantsHistory: true,
  timeFormat: 'hybrid',
});
const episodes = new Map([
  ['ep1', { title: 'Tidepool idea', createdAt: at(2024, 9, 10) }],
  ['ep2', { title: 'Pivot talk', createdAt: at(2025, 7, 1) }],
]);

function compile(format: TimeFormat) {
  return compileContext({
    plan: { ...plan, timeFormat: format },
    subgraph,
    time: { now: NOW, tz: 'UTC', format, periods },
    episodes,
  });
}

describe('compileContext', () => {
  it('semantic: relative times and periods, no dates in the entity lines', () => {
    const lines = compile('semantic').text.split('\n');
    expect(lines).toContain(
      '• Tidepool (project, also called TP): first appeared about 14 months ago (during junior year at UMD); last referenced 21 days ago, 3 weeks (during gap semester in San Francisco).',
    );
    expect(lines).toContain('  Changed state 2 times (~0.2 per month) over about 13 months.');
    expect(lines).toContain('  Current state: stage: beta; focus: tide alerts.');
    expect(lines).toContain(
      '    – about 4 months ago (during gap semester in San Francisco): Pivoted from surf reports to tide alerts [focus: surf reports → tide alerts] [2]',
    );
    expect(lines).toContain('      ⚠ Contradicted the previous state (unresolved).');
  });
  it('absolute: exact dates only', () => {
    const lines = compile('absolute').text.split('\n');
    expect(lines).toContain(
      '• Tidepool (project, also called TP): first appeared 10 September 2024; last referenced 11 October 2025.',
    );
    expect(lines).toContain('    – 10 September 2024: Started Tidepool [1]');
  });
  it('repeats a question of up to 30 words whole and a longer one by its first 30 words', () => {
    const long = `I wanted to follow up on our previous conversation about ${'the many small tide pools '.repeat(6)}you described`;
    const header = (question: string) =>
      compileContext({
        plan: { ...plan, question },
        subgraph,
        time: { now: NOW, tz: 'UTC', format: 'hybrid', periods },
        episodes,
      }).text.split('\n')[0];
    expect(header(plan.question)).toBe('Question: How has Tidepool evolved?');
    expect(header(long)).toBe(`Question: ${long.split(' ').slice(0, 30).join(' ')} …`);
  });
  it('hybrid: date, relative time and period', () => {
    const lines = compile('hybrid').text.split('\n');
    expect(lines).toContain(
      '    – 10 September 2024 (about 14 months ago, during junior year at UMD): Started Tidepool [1]',
    );
  });
  it('numbers sources in order of first citation and lists them by title and time', () => {
    const { text, sources } = compile('semantic');
    expect(sources.map((s) => [s.n, s.episodeId])).toEqual([
      [1, 'ep1'],
      [2, 'ep2'],
    ]);
    expect(text.split('\n').slice(-3)).toEqual([
      'Sources:',
      '  [1] “Tidepool idea”, about 14 months ago (during junior year at UMD)',
      '  [2] “Pivot talk”, about 4 months ago (during gap semester in San Francisco)',
    ]);
  });
  it('is deterministic for a fixed now', () => {
    expect(compile('hybrid').text).toBe(compile('hybrid').text);
  });
  it('says when nothing matches', () => {
    const empty = compileContext({
      plan,
      subgraph: { ...subgraph, entities: [] },
      time: { now: NOW, tz: 'UTC', format: 'hybrid', periods },
      episodes,
    });
    expect(empty.text).toContain('Nothing in the world model matches this question.');
    expect(empty.sources).toEqual([]);
  });
});

describe("a person's recent events", () => {
  it('are one compact line beside the latest changes, newest first, with their dates', () => {
    const melanie = entity({ id: 'm', name: 'Melanie', type: 'person', state: { latest_event: 'ran a charity race' } });
    const event = (id: string, d: number, what: string) =>
      transition({
        id,
        entityId: 'm',
        kind: 'update',
        eventTime: at(2023, 5, d),
        summary: what,
        fromState: { latest_event: null },
        toState: { latest_event: what.toLowerCase() },
        episodeId: 'ep1',
      });
    const text = compileContext({
      plan: { ...plan, question: 'What does Melanie do?', entityIds: ['m'], wantsHistory: false },
      subgraph: {
        ...subgraph,
        entities: [
          {
            entity: melanie,
            transitionCount: 4,
            changeCount: 3,
            hiddenCount: 2,
            transitions: [event('e3', 20, 'Ran a charity race')],
            recentEvents: [event('e2', 8, 'Painted a lake sunrise'), event('e1', 1, 'Went camping')],
            relationships: [],
          },
        ],
      },
      time: { now: NOW, tz: 'UTC', format: 'absolute', periods },
      episodes,
    }).text;
    expect(text).toContain('  Also did lately: painted a lake sunrise (8 May 2023); went camping (1 May 2023).');
  });
});

describe('entities the question does not ask about', () => {
  const nate = entity({ id: 'n', name: 'Nate', type: 'person', firstSeen: at(2025, 1, 5), lastSeen: at(2025, 10, 1) });
  const edge = (id: string, type: string, target: string) => ({
    relationship: {
      id,
      type,
      sourceId: 'n',
      targetId: target,
      properties: {},
      validFrom: at(2025, 3, 1),
      validTo: null,
      confidence: 0.9,
      episodeId: 'ep1',
      recordedAt: at(2025, 3, 1),
      discoveredBy: null,
    },
    other: { id: 'n', name: 'Nate', type: 'person' as const },
    direction: 'in' as const,
  });
  const block = (e: ReturnType<typeof entity>, relationships: ReturnType<typeof edge>[]) => ({
    entity: e,
    transitions: [],
    transitionCount: 1,
    changeCount: 0,
    hiddenCount: 0,
    relationships,
  });
  const film = entity({ id: 'lw', name: 'Little Women', type: 'movie', firstSeen: at(2025, 3, 1) });
  const dessert = entity({ id: 'ic', name: 'Coconut ice cream', type: 'concept', firstSeen: at(2025, 4, 1) });
  const world = subgraphOf({
    entities: [
      block(nate, []),
      block(film, [edge('r1', 'WATCHED', 'lw')]),
      block(dessert, [edge('r2', 'RELATED_TO', 'ic')]),
    ],
  });
  const text = (question: string, entityIds: string[]) =>
    compileContext({
      plan: queryPlan({ question, intent: 'entity_lookup', entityIds }),
      subgraph: world,
      time: { now: NOW, tz: 'UTC', format: 'absolute', periods: [] },
      episodes,
    }).text;

  it('leaves out a neighbour of the named person the question does not ask about', () => {
    const out = text('What are the main ingredients of the ice cream recipe shared by Nate?', ['n']);
    expect(out).toContain('• Nate (person)');
    expect(out).toContain('• Coconut ice cream (concept)');
    expect(out).not.toContain('Little Women');
  });

  it('keeps it when the question asks about its kind of link', () => {
    expect(text('Which movies has Nate watched?', ['n'])).toContain('• Little Women (movie)');
  });

  it('keeps every entity the lanes found when the question names none', () => {
    expect(text('What is the ice cream recipe?', [])).toContain('• Little Women (movie)');
  });
});
