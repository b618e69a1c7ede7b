/**
 * The offline extractor over the bundled sample export (sample/chatgpt-export.json), day by day, with a preamble
 * accumulated from what earlier days produced, checked against the story's ground truth (sample/ground-truth.json).
 * The export is parsed here directly (walk from current_node, keep user/assistant text) so this test does not
 * depend on the importer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ExtractionResult } from '../result.js';
import type { BatchEpisode, ExtractionBatch, PreambleEntity } from '../types.js';
import { extractOffline } from './index.js';
import { loadSpanTagger } from './nlp.js';

const EXPORT = new URL('../../../sample/chatgpt-export.json', import.meta.url);
const TRUTH = new URL('../../../sample/ground-truth.json', import.meta.url);
const present = existsSync(EXPORT) && existsSync(TRUTH);

interface ExportMessage {
  author: { role: string };
  create_time: number | null;
  content: { content_type: string; parts?: unknown[] };
  metadata?: { is_visually_hidden_from_conversation?: boolean };
}
interface ExportConversation {
  conversation_id: string;
  title: string;
  create_time: number;
  default_model_slug: string | null;
  current_node: string;
  mapping: Record<string, { message: ExportMessage | null; parent: string | null }>;
}
interface Truth {
  conversations: { key: string; id: string; date: string }[];
  entities: { name: string; type: string; aliases: string[] }[];
}

function toEpisode(c: ExportConversation): BatchEpisode {
  const turns: BatchEpisode['turns'] = [];
  for (let id: string | null = c.current_node; id; id = c.mapping[id]?.parent ?? null) {
    const m = c.mapping[id]?.message;
    if (!m || (m.author.role !== 'user' && m.author.role !== 'assistant')) continue;
    if (m.metadata?.is_visually_hidden_from_conversation) continue;
    if (m.content.content_type !== 'text' && m.content.content_type !== 'multimodal_text') continue;
    const text = (m.content.parts ?? [])
      .filter((p): p is string => typeof p === 'string')
      .join('\n')
      .trim();
    if (text) turns.push({ role: m.author.role, text, time: m.create_time === null ? null : m.create_time * 1000 });
  }
  turns.reverse();
  return { id: c.conversation_id, title: c.title, createdAt: c.create_time * 1000, model: c.default_model_slug, turns };
}

/** Runs the sample day by day; the preamble is a plain accumulation of earlier results. */
async function runSample(): Promise<ExtractionResult[]> {
  const tagger = await loadSpanTagger();
  const conversations = (JSON.parse(readFileSync(EXPORT, 'utf8')) as ExportConversation[]).map(toEpisode);
  conversations.sort((a, b) => a.createdAt - b.createdAt);
  const days = new Map<string, BatchEpisode[]>();
  for (const c of conversations) {
    const day = new Date(c.createdAt).toISOString().slice(0, 10);
    days.set(day, [...(days.get(day) ?? []), c]);
  }
  const world = new Map<string, PreambleEntity>();
  let currentPeriod: string | null = null;
  const results: ExtractionResult[] = [];
  for (const [day, episodes] of days) {
    const text = episodes
      .flatMap((e) => e.turns.map((t) => t.text))
      .join('\n')
      .toLowerCase();
    const all = [...world.values()];
    const batch: ExtractionBatch = {
      id: day,
      date: episodes[0]?.createdAt ?? 0,
      tz: 'UTC',
      episodes,
      preamble: {
        recentEntities: [],
        recentTransitions: [],
        activeProjects: all.filter((e) => e.type === 'project'),
        mentionedEntities: all.filter((e) => [e.name, ...e.aliases].some((n) => text.includes(n.toLowerCase()))),
        currentPeriod,
      },
    };
    const r = extractOffline(batch, tagger);
    results.push(r);
    for (const e of r.entities) {
      const key = (e.matchesExisting ?? e.name).toLowerCase();
      const prior = world.get(key);
      if (prior) {
        prior.aliases = [...new Set([...prior.aliases, ...e.aliases])];
        Object.assign(prior.state, e.state);
      } else world.set(key, { name: e.name, type: e.type, aliases: [...e.aliases], state: { ...e.state } });
    }
    for (const c of r.stateChanges) {
      const w = world.get(c.entityName.toLowerCase());
      if (w) w.state[c.attribute ?? 'status'] = c.newStateAspect;
    }
    for (const b of r.beliefs) {
      if (!world.has(b.statement.toLowerCase()))
        world.set(b.statement.toLowerCase(), { name: b.statement, type: 'belief', aliases: [], state: {} });
    }
    if (r.periodContext) currentPeriod = r.periodContext;
  }
  return results;
}

describe.skipIf(!present)('offline extractor on the bundled sample', () => {
  let results: ExtractionResult[] = [];
  let truth: Truth;
  const conv = (key: string): string => truth.conversations.find((c) => c.key === key)?.id ?? `missing ${key}`;
  const relationships = () => results.flatMap((r) => r.relationships);
  const beliefsOf = () => results.flatMap((r) => r.beliefs);
  const decisionsOf = () => results.flatMap((r) => r.decisions);
  const entities = () => results.flatMap((r) => r.entities);
  const changes = (entity: string, attribute: string) =>
    results.flatMap((r) => r.stateChanges).filter((c) => c.entityName === entity && c.attribute === attribute);
  const uses = (source: string, target: string) =>
    results
      .flatMap((r) => r.relationships)
      .filter((x) => x.type === 'USES' && x.source === source && x.target === target);

  beforeAll(async () => {
    truth = JSON.parse(readFileSync(TRUTH, 'utf8')) as Truth;
    results = await runSample();
  }, 60_000);

  it('finds the main project, its alias and its stages', () => {
    const tidepool = entities().filter((e) => e.name === 'Tidepool');
    expect(tidepool[0]).toMatchObject({ type: 'project', episodeId: conv('tidepool-idea') });
    expect(tidepool[0]?.state.description).toContain('study groups');
    expect(tidepool.flatMap((e) => e.aliases)).toContain('TP');
    expect(changes('Tidepool', 'stage').map((c) => c.newStateAspect)).toEqual(['prototype', 'launched', 'pivoted']);
    expect(changes('Tidepool', 'stage')[1]).toMatchObject({
      episodeId: conv('launch-week'),
      eventTime: '2025-01-27T12:00:00.000Z',
    });
    expect(changes('Tidepool', 'labs')[0]).toMatchObject({ newStateAspect: '12', episodeId: conv('tp-growth') });
  });

  it('finds the pivot as a contradiction', () => {
    expect(changes('Tidepool', 'focus')).toEqual([
      expect.objectContaining({
        oldStateAspect: 'a study-group app for students',
        newStateAspect: 'a research-notes tool for labs',
        isContradiction: true,
        episodeId: conv('pivot'),
      }),
    ]);
  });

  it('finds the co-founder and her roles', () => {
    const maya = entities().filter((e) => e.name === 'Maya Chen');
    expect(maya[0]).toMatchObject({ type: 'person', episodeId: conv('maya-joins') });
    expect(maya.flatMap((e) => e.aliases)).toContain('Maya');
    expect(changes('Maya Chen', 'role').map((c) => [c.newStateAspect, c.isContradiction])).toEqual([
      ['co-founder', false],
      ['CEO', true],
    ]);
    expect(relationships()).toContainEqual(
      expect.objectContaining({
        source: 'Maya Chen',
        type: 'WORKS_ON',
        target: 'Tidepool',
        properties: { role: 'co-founder' },
      }),
    );
    expect(changes('Maya Chen', 'responsibility').map((c) => c.newStateAspect)).toContain('customer interviews');
  });

  it('finds the other people', () => {
    const people = new Set(
      entities()
        .filter((e) => e.type === 'person')
        .map((e) => e.name),
    );
    for (const name of ['Nora', 'Daniel Okafor', 'Elena Park']) expect(people).toContain(name);
    expect(
      entities()
        .filter((e) => e.name === 'Daniel Okafor')
        .flatMap((e) => e.aliases),
    ).toContain('Prof. Okafor');
  });

  it('finds the tool switches', () => {
    expect(uses('Tidepool', 'Firebase').map((x) => x.ended)).toEqual([false, true]);
    expect(uses('Tidepool', 'Supabase').some((x) => !x.ended)).toBe(true);
    expect(uses('User', 'Notion').map((x) => x.ended)).toEqual([true]);
    expect(uses('User', 'Obsidian').map((x) => x.ended)).toEqual([false]);
    expect(uses('Tidepool', 'LangChain').map((x) => x.ended)).toEqual([false, false, true]);
    expect(changes('LangChain', 'status').at(-1)).toMatchObject({ newStateAspect: 'dropped', isContradiction: true });
    for (const tool of ['OpenAI SDK', 'Yjs', 'Next.js', 'pgvector', 'PostgreSQL', 'React'])
      expect(changes(tool, 'status')[0]?.newStateAspect).toBe('adopted');
    expect(changes('MongoDB', 'status')).toEqual([]);
  });

  it('finds the belief, the doubt and the reversal with `replaces`', () => {
    const beliefs = beliefsOf();
    expect(beliefs.map((b) => b.statement)).toEqual([
      'vector search is enough for memory',
      'knowledge graphs beat pure vector search for personal memory',
    ]);
    expect(beliefs[1]).toMatchObject({
      replaces: 'vector search is enough for memory',
      episodeId: conv('kg-reversal'),
    });
    expect(changes('vector search is enough for memory', 'stance')[0]).toMatchObject({
      newStateAspect: 'doubted',
      episodeId: conv('vector-doubts'),
    });
  });

  it('finds the decisions with reasons and alternatives', () => {
    const decisions = decisionsOf();
    const find = (summary: string) => decisions.find((d) => d.summary === summary);
    expect(find('use Firebase')?.reasoning).toContain('fastest way to get auth');
    expect(find('use Supabase')).toMatchObject({ alternatives: ['Firebase'], episodeId: conv('supabase-decision') });
    expect(find('go with Postgres')).toMatchObject({ alternatives: ['MongoDB'] });
    expect(find('pivot Tidepool')?.alternatives).toEqual([
      'keeping the student app and adding paid tutoring',
      'shutting it down and applying to internships',
    ]);
    expect(find('take a gap semester in San Francisco')?.alternatives).toHaveLength(1);
    expect(find('build the graph layer inside Postgres')).toMatchObject({ alternatives: ['Neo4j'] });
    expect(find('take the Northgate SAFE at an $8M post-money cap')?.alternatives).toEqual([
      'waiting for a priced round',
    ]);
    expect(find('extend my gap semester in San Francisco through spring 2026')?.alternatives).toEqual([
      'going back to UMD in January',
    ]);
    expect(decisions).toHaveLength(8);
  });

  it('finds the commitments with their dates', () => {
    const commitments = entities().filter((e) => e.type === 'commitment' && e.state.to);
    expect(commitments.map((c) => [c.state.due, c.state.to])).toEqual([
      ['2025-01-20', 'Maya Chen'],
      ['2025-04-11', 'Daniel Okafor'],
      ['2025-09-12', 'Maya Chen'],
    ]);
  });

  it('finds both periods and the move', () => {
    const byDay = results.map((r) => [r.batch.id, r.periodContext]);
    expect(byDay.filter(([d]) => (d ?? '') < '2025-05-18').every(([, p]) => p === 'junior year at UMD')).toBe(true);
    expect(
      byDay.filter(([d]) => (d ?? '') > '2025-05-18').every(([, p]) => p === 'gap semester in San Francisco'),
    ).toBe(true);
    expect(entities().find((e) => e.name === 'junior year at UMD')?.state).toMatchObject({ start: '2024-08-26' });
    expect(relationships()).toContainEqual(
      expect.objectContaining({
        source: 'User',
        type: 'LIVES_IN',
        target: 'San Francisco',
        eventTime: '2025-05-18T12:00:00.000Z',
      }),
    );
  });

  it('stays precise: almost every named entity is in the story', () => {
    const known = new Set(truth.entities.flatMap((e) => [e.name, ...e.aliases]).map((n) => n.toLowerCase()));
    // Real things the ground truth does not list, reviewed by hand.
    const extras = new Set(
      [
        'PostgreSQL',
        'JavaScript',
        'GroupMe',
        'Common App',
        'Georgia Institute of Technology',
        'Chicago',
        'pgmq',
        'Slack',
        'Yosemite',
      ].map((n) => n.toLowerCase()),
    );
    const named = [
      ...new Set(
        entities()
          .filter((e) => ['person', 'organization', 'place', 'tool', 'project'].includes(e.type))
          .map((e) => e.name),
      ),
    ];
    const junk = named.filter((n) => !known.has(n.toLowerCase()) && !extras.has(n.toLowerCase()));
    expect(named.length).toBeGreaterThan(30);
    expect(junk.length).toBeLessThanOrEqual(3);
  });
});
