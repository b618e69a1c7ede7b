import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, tempDir } from '../helpers/cli.js';
import { rows, snapshot } from '../helpers/db.js';

/**
 * A world with duplicates that entity resolution could not avoid at ingestion: "JS" was a tool of its own before
 * "JavaScript" got "JS" as an alias; "Tidepool app" was only close to "Tidepool" (left as an ambiguous merge task);
 * "Lantern festival" is close to "Lantern" but another thing.
 */
const LINES = [
  {
    batch: { id: '2024-03-01', date: '2024-03-01T10:00:00Z', episodeIds: ['c-1'] },
    entities: [
      { name: 'Tidepool', type: 'project', state: { stage: 'idea', focus: 'surf reports' } },
      { name: 'JS', type: 'tool', state: { status: 'learning' } },
      { name: 'Maya Chen', type: 'person', state: { role: 'classmate' } },
      { name: 'Lantern', type: 'project', state: { stage: 'idea' } },
    ],
    relationships: [
      { source: 'Maya Chen', target: 'Tidepool', type: 'WORKS_ON' },
      { source: 'Tidepool', target: 'JS', type: 'USES', properties: { part: 'frontend' } },
    ],
    summary: 'Started Tidepool; learning JS.',
  },
  {
    batch: { id: '2024-04-01', date: '2024-04-01T10:00:00Z', episodeIds: ['c-2'] },
    entities: [{ name: 'JavaScript', type: 'tool', state: { status: 'using' } }],
    relationships: [{ source: 'Tidepool', target: 'JavaScript', type: 'USES' }],
    summary: 'Using JavaScript for Tidepool.',
  },
  {
    batch: { id: '2024-05-01', date: '2024-05-01T10:00:00Z', episodeIds: ['c-3'] },
    entities: [{ name: 'JavaScript', type: 'tool', aliases: ['JS'], state: { status: 'daily driver' } }],
    summary: 'JavaScript every day.',
  },
  {
    batch: { id: '2024-06-01', date: '2024-06-01T10:00:00Z', episodeIds: ['c-4'] },
    entities: [
      { name: 'Tidepool app', type: 'project', state: { stage: 'beta', platform: 'iOS' } },
      { name: 'Lantern festival', type: 'project', state: { stage: 'planning' } },
    ],
    relationships: [{ source: 'Maya Chen', target: 'Tidepool app', type: 'WORKS_ON', properties: { role: 'design' } }],
    summary: 'Tidepool app beta; planning the Lantern festival.',
  },
];

interface Phase {
  name: string;
  status: string;
  changes: number;
  details?: {
    merged?: { from: string; into: string; reason: string; transitions?: number; facts?: number }[];
    rejected?: { names: string[]; reason: string }[];
    leftForReview?: { names: string[]; reason: string }[];
    confirmationsAsked?: number;
  };
  issues?: string[];
}
interface Report {
  runId: string;
  journaled: number;
  phases: Phase[];
}
interface Timeline {
  entity: { id: string; name: string; aliases: string[] };
  transitions: { summary: string; eventTime: number }[];
}

const mergePhase = (r: Report): Phase | undefined => r.phases.find((p) => p.name === 'merge duplicates');
const pairs = (list: { names: string[] }[] | undefined): string[] =>
  (list ?? []).map((x) => [...x.names].sort().join(' / ')).sort();

describe('pie sleep merges duplicates (KIP sleep phase 6)', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const run = (args: string[]) => pie(['--db', db, ...args]);
  const runJson = <T>(args: string[]) => pieJson<T>(['--db', db, ...args]);

  beforeEach(async () => {
    dir = tempDir('pie-merge-');
    db = join(dir.dir, 'pie.db');
    const input = join(dir.dir, 'world.jsonl');
    writeFileSync(input, `${LINES.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const applied = await run(['apply', input]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  });
  afterEach(() => dir.cleanup());

  const entityId = (name: string): string =>
    rows<{ id: string }>(db, 'SELECT id FROM entities WHERE name = ?', name)[0]?.id ?? '';

  it('without a model: merges the alias match, leaves the rest for review, undo restores every row', async () => {
    const js = entityId('JS');
    const javascript = entityId('JavaScript');
    const jsTransitions = rows<{ id: string; summary: string }>(
      db,
      'SELECT id, summary FROM transitions WHERE entity_id = ?',
      js,
    );
    expect(jsTransitions.length).toBeGreaterThan(0);
    const before = snapshot(db, ['llm_cache']);

    const report = await runJson<Report>(['sleep', '--now', '2024-07-01', '--no-llm']);
    const phase = mergePhase(report);
    expect(phase).toMatchObject({ status: 'done' });
    expect(phase?.details?.merged).toEqual([
      expect.objectContaining({ from: 'JS', into: 'JavaScript', reason: 'alias', transitions: jsTransitions.length }),
    ]);
    expect(pairs(phase?.details?.leftForReview)).toEqual(['Lantern / Lantern festival', 'Tidepool / Tidepool app']);
    expect(phase?.issues?.join('\n')).toContain('Left for review: ');

    // The duplicate stays, archived and pointing at the canonical entity.
    expect(rows(db, 'SELECT merged_into, tier FROM entities WHERE id = ?', js)).toEqual([
      { merged_into: javascript, tier: 'archived' },
    ]);
    // Both histories on the canonical timeline (the duplicate's transitions kept their ids), plus the merge record.
    const timeline = await runJson<Timeline>(['timeline', 'JavaScript']);
    const ids = rows<{ id: string }>(db, 'SELECT id FROM transitions WHERE entity_id = ?', javascript).map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(jsTransitions.map((t) => t.id)));
    const summaries = timeline.transitions.map((t) => t.summary);
    expect(summaries).toEqual(expect.arrayContaining(jsTransitions.map((t) => t.summary)));
    expect(summaries.at(-1)).toMatch(
      new RegExp(`^Merged "JS" into "JavaScript" \\(${jsTransitions.length} transitions?, \\d+ facts?, `),
    );
    // The name finds the canonical entity now.
    expect((await runJson<Timeline>(['timeline', 'JS'])).entity.id).toBe(javascript);
    // The duplicate's fact for an attribute the canonical one has is closed and superseded, not deleted.
    const status = rows<{ entity_id: string; value: string; valid_to: number | null; superseded_by: string | null }>(
      db,
      "SELECT entity_id, value, valid_to, superseded_by FROM facts WHERE attribute = 'status' ORDER BY valid_from",
    );
    expect(status.every((f) => f.entity_id === javascript)).toBe(true);
    expect(status.filter((f) => f.valid_to === null).map((f) => JSON.parse(f.value) as string)).toEqual([
      'daily driver',
    ]);
    const learning = status.find((f) => f.value === '"learning"');
    expect(learning?.superseded_by).not.toBeNull();
    // Tidepool USES JS folded into Tidepool USES JavaScript: one open edge, which gained the property it lacked.
    const uses = rows<{ target_id: string; properties: string; valid_to: number | null }>(
      db,
      "SELECT target_id, properties, valid_to FROM relationships WHERE type = 'USES'",
    );
    expect(uses.every((r) => r.target_id === javascript)).toBe(true);
    expect(uses.filter((r) => r.valid_to === null).map((r) => JSON.parse(r.properties) as unknown)).toEqual([
      { part: 'frontend' },
    ]);
    // Mentions moved; no alias or mention row is left on the duplicate.
    expect(rows(db, 'SELECT episode_id FROM entity_mentions WHERE entity_id = ?', js)).toEqual([]);
    expect(
      rows<{ episode_id: string }>(db, 'SELECT episode_id FROM entity_mentions WHERE entity_id = ?', javascript)
        .map((m) => m.episode_id)
        .sort(),
    ).toEqual(['c-1', 'c-2', 'c-3']);
    // Pairs left for review have an open merge task each (ingestion's, or one the cycle left).
    const open = rows<{ subject_ids: string }>(
      db,
      "SELECT subject_ids FROM sleep_tasks WHERE action = 'merge_duplicates' AND status = 'pending'",
    ).map((t) => (JSON.parse(t.subject_ids) as string[]).sort().join(','));
    for (const [x, y] of [
      ['Tidepool', 'Tidepool app'],
      ['Lantern', 'Lantern festival'],
    ]) {
      expect(open).toContain([entityId(x as string), entityId(y as string)].sort().join(','));
    }

    const undone = await runJson<{ restored: number }>(['undo', report.runId]);
    expect(undone.restored).toBe(report.journaled);
    expect(snapshot(db, ['llm_cache'])).toEqual(before);
  });

  it('after a merge, ingestion resolves the merged name to the canonical entity', async () => {
    expect((await run(['sleep', '--now', '2024-07-01', '--no-llm'])).code).toBe(0);
    const later = join(dir.dir, 'later.jsonl');
    writeFileSync(
      later,
      `${JSON.stringify({
        batch: { id: '2024-08-01', date: '2024-08-01T10:00:00Z', episodeIds: ['c-5'] },
        entities: [{ name: 'JS', type: 'tool', state: { status: 'teaching it' } }],
        summary: 'Teaching JS.',
      })}\n`,
    );
    expect((await run(['apply', later])).code).toBe(0);
    expect(rows(db, "SELECT count(*) AS n FROM entities WHERE name = 'JS'")).toEqual([{ n: 1 }]);
    expect(rows(db, "SELECT entity_id FROM entity_mentions WHERE episode_id = 'c-5'")).toEqual([
      { entity_id: entityId('JavaScript') },
    ]);
  });

  it('--dry-run lists the planned merge and writes nothing', async () => {
    const bytes = readFileSync(db);
    const report = await runJson<Report>(['sleep', '--dry-run', '--now', '2024-07-01']);
    const phase = mergePhase(report);
    expect(phase).toMatchObject({ status: 'planned', changes: 1 });
    expect(phase?.details?.merged?.map((m) => [m.from, m.into])).toEqual([['JS', 'JavaScript']]);
    expect(readFileSync(db).equals(bytes)).toBe(true);
  });

  it('with a model: merges the confirmed pairs only, keeps the rejected ones apart; undo restores every row', async () => {
    const script = join(dir.dir, 'model.json');
    writeFileSync(
      script,
      JSON.stringify({
        prompts: {
          'confirm-merge@1': [
            {
              contains: ['Entry A: "Lantern', 'Entry B: "Lantern'],
              response: { same: false, reason: 'an event, not the project' },
            },
            {
              contains: ['Entry A: "Tidepool', 'Entry B: "Tidepool'],
              response: { same: true, reason: 'the same project' },
            },
            { contains: ['Entry A: "J', 'Entry B: "J'], response: { same: true, reason: 'JS is JavaScript' } },
          ],
          // the full cycle also asks for procedures (after the merges); none recur in this small world
          'extract-procedures@1': [{ response: { procedures: [] } }],
        },
      }),
    );
    const tidepool = entityId('Tidepool');
    const app = entityId('Tidepool app');
    const appTransitions = rows<{ summary: string }>(db, 'SELECT summary FROM transitions WHERE entity_id = ?', app);
    const before = snapshot(db, ['llm_cache']);
    const report = await runJson<Report>(['sleep', '--now', '2024-07-01', '--llm', `fake:${script}`]);
    const phase = mergePhase(report);
    expect(phase?.details?.confirmationsAsked).toBe(3);
    expect(phase?.details?.merged?.map((m) => `${m.from} → ${m.into}`).sort()).toEqual([
      'JS → JavaScript',
      'Tidepool app → Tidepool',
    ]);
    expect(pairs(phase?.details?.rejected)).toEqual(['Lantern / Lantern festival']);
    expect(phase?.details?.leftForReview).toEqual([]);
    expect(rows(db, "SELECT merged_into FROM entities WHERE name LIKE 'Lantern%'")).toEqual([
      { merged_into: null },
      { merged_into: null },
    ]);

    const timeline = await runJson<Timeline>(['timeline', 'Tidepool']);
    expect(timeline.entity.aliases).toContain('Tidepool app');
    const summaries = timeline.transitions.map((t) => t.summary);
    expect(summaries).toEqual(expect.arrayContaining(appTransitions.map((t) => t.summary)));
    expect(summaries.some((s) => s.startsWith('Merged "Tidepool app" into "Tidepool"'))).toBe(true);
    // Maya works on one Tidepool now: the moved edge keeps its id and properties.
    const worksOn = rows<{ target_id: string; valid_to: number | null }>(
      db,
      "SELECT target_id, valid_to FROM relationships WHERE type = 'WORKS_ON'",
    );
    expect(worksOn.every((r) => r.target_id === tidepool)).toBe(true);
    // The canonical state gained what only the duplicate knew.
    const state = rows<{ state: string }>(db, 'SELECT state FROM entities WHERE id = ?', tidepool)[0]?.state ?? '{}';
    expect(JSON.parse(state)).toMatchObject({ platform: 'iOS' });
    // The ingestion task for the pair is finished by the sleep-task phase of the same cycle.
    const task = rows<{ status: string; result: string }>(
      db,
      "SELECT status, result FROM sleep_tasks WHERE action = 'merge_duplicates' AND subject_ids LIKE ?",
      `%${app}%`,
    );
    expect(task).toEqual([expect.objectContaining({ status: 'completed' })]);
    // The pair the model kept apart has its ingestion task closed with the model's reason.
    const festival = entityId('Lantern festival');
    expect(
      rows<{ status: string; result: string }>(
        db,
        "SELECT status, result FROM sleep_tasks WHERE action = 'merge_duplicates' AND subject_ids LIKE ?",
        `%${festival}%`,
      ),
    ).toEqual([{ status: 'dismissed', result: `Kept apart: an event, not the project (fake:${script}).` }]);

    expect((await run(['undo', report.runId])).code).toBe(0);
    expect(snapshot(db, ['llm_cache'])).toEqual(before);
  });
});
