import { beforeAll, describe, expect, it } from 'vitest';
import { extractionResultSchema, type ExtractionResult } from '../result.js';
import { createOfflineExtractor } from './index.js';
import { batchOf, episode, known, T0 } from './test-kit.js';

const HOUR = 3_600_000;

/** A day with three conversations: a project with a pivot and a tool switch, a personal note switch, a recipe. */
const batch = batchOf(
  [
    episode(
      'conv-1',
      [
        "Big news: Priya Raman joined as my co-founder on Lumen. We're going with Postgres over MongoDB because our data is relational.",
        'We pivoted Lumen from a tutoring marketplace to a study planner for nursing students. I decided to pivot because tutors churned every month.',
        "I promised Priya I'd send the investor update by Friday.",
        'Here is the stack trace:\n```\nTypeError: x is undefined\n    at main (index.js:1:1)\n```',
      ],
      { title: 'Lumen pivot', at: T0 },
    ),
    episode(
      'conv-2',
      [
        'I switched from Evernote to Obsidian for my personal notes. I no longer think daily notes are useless. I now think daily notes are the best inbox for ideas.',
      ],
      { title: 'Notes setup', at: T0 + 2 * HOUR },
    ),
    episode('conv-3', ['Easy chicken tikka masala for 4 people? Thanks!'], {
      title: 'Tikka masala',
      at: T0 + 4 * HOUR,
    }),
  ],
  {
    currentPeriod: 'senior year at Rutgers',
    mentionedEntities: [
      known('Lumen', 'project', [], { stage: 'building', focus: 'a tutoring marketplace' }),
      known('daily notes are useless', 'belief'),
    ],
  },
);

let result: ExtractionResult;
beforeAll(async () => {
  const out = await createOfflineExtractor().extract({ batch });
  expect(out.usage).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0, cachedCalls: 0, calls: 0 });
  result = extractionResultSchema.parse(out.result);
});

describe('offline extractor, end to end', () => {
  it('identifies itself', () => {
    const extractor = createOfflineExtractor();
    expect([extractor.kind, extractor.label]).toEqual(['offline', 'offline-rules@1']);
  });

  it('fills the batch from the input', () => {
    expect(result.batch).toEqual({
      id: '2025-01-15',
      date: new Date(T0).toISOString(),
      episodeIds: ['conv-1', 'conv-2', 'conv-3'],
    });
    expect(result.periodContext).toBe('senior year at Rutgers');
  });

  it('finds exactly the expected entities', () => {
    expect(result.entities.map((e) => `${e.type}:${e.name}`).sort()).toEqual(
      [
        'commitment:send the investor update',
        'person:Priya Raman',
        'project:Lumen',
        'tool:Evernote',
        'tool:MongoDB',
        'tool:Obsidian',
        'tool:PostgreSQL',
      ].sort(),
    );
    expect(result.entities.find((e) => e.name === 'Lumen')?.matchesExisting).toBe('Lumen');
    expect(result.entities.find((e) => e.name === 'Priya Raman')?.aliases).toEqual(['Priya']);
    expect(result.entities.find((e) => e.name === 'send the investor update')?.state).toEqual({
      due: '2025-01-17',
      status: 'open',
      to: 'Priya Raman',
    });
  });

  it('finds the state changes', () => {
    expect(result.stateChanges.map((c) => `${c.entityName}.${c.attribute}=${c.newStateAspect}`).sort()).toEqual(
      [
        'Evernote.status=dropped',
        'Lumen.focus=a study planner for nursing students',
        'Lumen.stage=pivoted',
        'Obsidian.status=adopted',
        'PostgreSQL.status=adopted',
        'Priya Raman.role=co-founder',
      ].sort(),
    );
    expect(result.stateChanges.find((c) => c.attribute === 'focus')).toMatchObject({
      oldStateAspect: 'a tutoring marketplace',
      isContradiction: true,
      episodeId: 'conv-1',
    });
  });

  it('finds the relationships', () => {
    expect(
      result.relationships.map((r) => `${r.source} ${r.type}${r.ended ? '(ended)' : ''} ${r.target}`).sort(),
    ).toEqual(
      [
        'Lumen USES PostgreSQL',
        'Priya Raman COLLABORATES_WITH User',
        'Priya Raman WORKS_ON Lumen',
        'User USES Obsidian',
        'User USES(ended) Evernote',
        'send the investor update PROMISED_TO Priya Raman',
      ].sort(),
    );
  });

  it('finds the belief reversal and the decisions', () => {
    expect(result.beliefs).toEqual([
      expect.objectContaining({
        statement: 'daily notes are the best inbox for ideas',
        replaces: 'daily notes are useless',
        episodeId: 'conv-2',
      }),
    ]);
    expect(result.decisions).toEqual([
      expect.objectContaining({
        summary: 'go with Postgres',
        alternatives: ['MongoDB'],
        reasoning: 'our data is relational',
        relatedEntities: ['PostgreSQL', 'MongoDB', 'Lumen'],
      }),
      expect.objectContaining({
        summary: 'pivot Lumen',
        reasoning: 'tutors churned every month',
        relatedEntities: ['Lumen'],
      }),
    ]);
  });

  it('annotates every episode; the recipe is insignificant', () => {
    expect(result.episodes.map((e) => e.id)).toEqual(['conv-1', 'conv-2', 'conv-3']);
    const [work, notes, recipe] = result.episodes;
    expect(recipe?.significance).toBe(0.05);
    expect(work?.significance).toBeGreaterThan(0.8);
    expect(notes?.significance).toBeGreaterThan(0.5);
    expect(result.significance).toBe(work?.significance);
    expect(work?.userState).toBe('decisive');
    expect(recipe?.summary).toBe('Tikka masala: Easy chicken tikka masala for 4 people?');
    expect(result.summary).toContain('Lumen pivot: Big news: Priya Raman joined as my co-founder on Lumen.');
  });

  it('puts an episode id on every item', () => {
    const items = [
      ...result.entities,
      ...result.relationships,
      ...result.stateChanges,
      ...result.beliefs,
      ...result.decisions,
    ];
    expect(items.every((i) => i.episodeId && ['conv-1', 'conv-2', 'conv-3'].includes(i.episodeId))).toBe(true);
  });

  it('is deterministic', async () => {
    const again = await createOfflineExtractor().extract({ batch });
    expect(again.result).toEqual(result);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createOfflineExtractor().extract({ batch, signal: controller.signal })).rejects.toThrow();
  });
});
