import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pie, pieJson, ROOT, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const ENV = { PIE_NOW: '2025-10-01T00:00:00Z' };

let dir: string;
let cleanup: () => void;
let db: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir('pie-pyramid-'));
  db = join(dir, 'pie.db');
});
afterEach(() => cleanup());

describe('pyramid commands', () => {
  it('observe → summarize (deterministic) → observations, summaries, models, model', async () => {
    const o = await pieJson<{ id: string; importance: number }>(
      ['observe', 'User', 'prefers', 'vim', 'keybindings', '--importance', '6', '--at', '2025-09-30', '--db', db],
      ENV,
    );
    expect(o.importance).toBe(6);
    await pie(['observe', 'User moved to Lisbon', '--importance', '8', '--at', '2025-09-29', '--db', db], ENV);
    const s = await pie(['summarize', '--db', db], ENV);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toContain('Summarized without a model (deterministic: the most important lines of each window).');
    expect(s.stdout).toContain('Assigned 2 observations.');
    expect(s.stdout).toContain('Tier 0: 2 summaries made, 0 unchanged.');

    const list = await pie(['observations', '--db', db], ENV);
    expect(list.stdout).toMatch(/^\[[^\]]+\] 2025-09-30 \d\d:\d\d \(6\) \[system\] User prefers vim keybindings$/m);
    expect(list.stdout).toMatch(/\(8\) \[user\] User moved to Lisbon$/m);

    const models = await pie(['models', '--db', db], ENV);
    expect(models.stdout).toBe(
      '[*] self: (not summarized yet)\n[*] system: User prefers vim keybindings\n[*] user: User moved to Lisbon\n',
    );
    const summaries = await pie(['summaries', '--tier', '0', '--db', db], ENV);
    expect(summaries.stdout).toContain(
      'Tier 0 · user · 2025-09-29 to 2025-09-29 (selected without a model)\n[8] User moved to Lisbon',
    );
    const model = await pie(['model', 'user', '--db', db], ENV);
    expect(model.stdout).toBe(
      '# user — User moved to Lisbon\n\n## Tier 0 (1 day each)\n### 2025-09-29 (selected without a model)\n[8] User moved to Lisbon\n',
    );
  });

  it('derives observations from the world model once, and files them under discovered models', async () => {
    // pie apply records one observation per transition as it applies; summarize's --from-world pass finds none new.
    const applied = await pie(['apply', FIXTURE, '--db', db], ENV);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('observation.add 15, transition.insert 15');
    expect((await pie(['apply', FIXTURE, '--db', db], ENV)).stdout).not.toContain('observation.add');
    const first = await pieJson<{ observationsFromWorld: number; newModels: string[] }>(['summarize', '--db', db], ENV);
    expect(first.observationsFromWorld).toBe(0);
    // Only Tidepool has enough observations (3+) to warrant a model of its own; the rest go to user and system.
    expect(first.newModels).toEqual(['tidepool']);
    const second = await pieJson<{ observationsFromWorld: number; tiers: { made: number }[] }>(
      ['summarize', '--db', db],
      ENV,
    );
    expect(second.observationsFromWorld).toBe(0);
    expect(second.tiers.every((t) => t.made === 0)).toBe(true);
    const pyramid = await pieJson<{ tiers: { tier: number; summaries: unknown[] }[] }>(
      ['model', 'tidepool', '--db', db],
      ENV,
    );
    expect(pyramid.tiers.length).toBeGreaterThan(0);
    expect(pyramid.tiers.at(-1)?.tier).toBe(0);
    for (const t of pyramid.tiers) expect(t.summaries.length).toBeLessThanOrEqual(3);
  });

  it('pie apply keeps the observations a result carries, once, with its episode, time and entity', async () => {
    const results = join(dir, 'results.jsonl');
    const line = {
      batch: { id: '2025-09-28', date: '2025-09-28T10:00:00Z', episodeIds: ['note-1'] },
      entities: [{ name: 'Lisbon', type: 'place' }],
      observations: [
        { text: 'User is thinking about moving to Lisbon', importance: 7, about: 'Lisbon', unknownField: true },
        { text: 'User drinks tea, not coffee', eventTime: '2025-09-20' },
      ],
    };
    writeFileSync(results, `${JSON.stringify(line)}\n`);
    expect((await pie(['apply', results, '--db', db], ENV)).stdout).toContain('observation.add 3');
    expect((await pie(['apply', results, '--db', db], ENV)).stdout).not.toContain('observation.add');
    const list = await pieJson<{
      observations: {
        text: string;
        importance: number;
        eventTime: number;
        source: string;
        entityId: string | null;
        episodeId: string;
      }[];
    }>(['observations', '--db', db], ENV);
    const rows = list.observations.map((o) => [o.text, o.importance, new Date(o.eventTime).toISOString(), o.source]);
    expect(rows.sort()).toEqual([
      ['Lisbon: First mentioned in “Episode note-1”', 6, '2025-09-28T10:00:00.000Z', 'world'],
      ['User drinks tea, not coffee', 5, '2025-09-20T00:00:00.000Z', 'extraction'],
      ['User is thinking about moving to Lisbon', 7, '2025-09-28T10:00:00.000Z', 'extraction'],
    ]);
    const lisbon = await pieJson<{ entity: { id: string } }>(['entity', 'Lisbon', '--db', db], ENV);
    expect(list.observations.find((o) => o.text.includes('moving'))?.entityId).toBe(lisbon.entity.id);
    expect(list.observations.find((o) => o.text.includes('tea'))?.entityId).toBeNull();
    expect(list.observations.every((o) => o.episodeId === 'note-1')).toBe(true);
  });

  it('summarizes telegram-style with a scripted model (fake:<script.json>)', async () => {
    await pie(['observe', 'User moved to Lisbon', '--importance', '8', '--at', '2025-09-29', '--db', db], ENV);
    const script = join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        prompts: {
          'pyramid-assign-models@1': [{ response: { assignments: [] } }],
          'pyramid-summarize-observations@1': [
            { contains: 'Lisbon', response: '[8] IMPORTANT: Moved to Lisbon, Sep 2025.' },
          ],
        },
      }),
    );
    // The scripted assignment leaves the observation unassigned (a warning); assign it deterministically first.
    expect((await pie(['summarize', '--no-llm', '--tier', '0', '--db', db], ENV)).code).toBe(0);
    // Switching to a model changes how every window is made, so tier 0 is summarized again, by the model.
    const r = await pie(['summarize', '--llm', `fake:${script}`, '--db', db, '--no-world'], ENV);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Summarized with fake:');
    expect(r.stdout).toContain('Tier 0: 1 summaries made, 0 unchanged.');
    const model = await pie(['model', 'user', '--db', db], ENV);
    expect(model.stdout).toContain('### 2025-09-29\n[8] IMPORTANT: Moved to Lisbon, Sep 2025.');
  });

  it('turns bad input into one sentence and a non-zero exit', async () => {
    const cases: [string[], number, RegExp][] = [
      [['observe', 'x', '--importance', '11'], 2, /--importance must be a whole number from 1 to 10, not "11"\./],
      [['observe', '   '], 2, /The observation is empty/],
      [['observe', 'x', '--from-world'], 2, /either an observation text or --from-world/],
      [['summarize', '--tier', '-1', '--no-llm'], 2, /--tier must be a whole number from 0 to 30/],
      [['model', 'nobody'], 4, /There is no mental model "nobody"; known models: self, system, user\./],
      [['summaries', '--model', 'ghost'], 4, /There is no mental model "ghost"/],
      [['observations', '--limit', '0'], 2, /--limit must be a positive whole number/],
    ];
    await pie(['observe', 'seed', '--db', db], ENV);
    await pie(['summarize', '--no-llm', '--db', db], ENV);
    for (const [args, code, message] of cases) {
      const r = await pie([...args, '--db', db], ENV);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});
