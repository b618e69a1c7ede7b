import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, tempDir } from '../helpers/cli.js';

interface EntityView {
  relationships: {
    relationship: { type: string; validFrom: number; validTo: number | null };
    other: { name: string };
  }[];
}

/**
 * An ending told again is one ending: Gina says she lost her job at Door Dash, and says it again in a later session
 * and, in a second import run (another process), in another conversation. The world keeps one ended WORKS_AT edge
 * dated by the first telling; the timeline and the entity view list it once. A new job at the same place after the
 * ending is still a new edge. An open edge told again with an earlier start, in a later run, holds since then.
 */
describe('an ending told again', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--now', '2023-07-01', ...args];
  const env = { PIE_TZ: 'UTC' };

  /** Writes one LoCoMo conversation of Gina (even turns) and Jon and imports it in a process of its own. */
  const ingest = async (id: string, sessions: { date: string; turns: string[] }[]) => {
    const conversation: Record<string, unknown> = { speaker_a: 'Gina', speaker_b: 'Jon' };
    sessions.forEach((s, i) => {
      conversation[`session_${i + 1}_date_time`] = s.date;
      conversation[`session_${i + 1}`] = s.turns.map((text, j) => ({
        speaker: j % 2 === 0 ? 'Gina' : 'Jon',
        dia_id: `D${i + 1}:${j + 1}`,
        text,
      }));
    });
    const file = join(dir.dir, `${id}.json`);
    writeFileSync(file, JSON.stringify([{ sample_id: id, conversation, qa: [] }]));
    const ingested = await pie(cli(['ingest', file, '--format', 'locomo', '--extractor', 'offline']), env);
    expect(ingested.code, ingested.stderr).toBe(0);
  };

  const workEdges = async (): Promise<{ validFrom: number; validTo: number | null }[]> => {
    const shown = await pie(cli(['--json', 'entity', 'Gina']), env);
    expect(shown.code, shown.stderr).toBe(0);
    const view = JSON.parse(shown.stdout) as EntityView;
    return view.relationships
      .filter((r) => r.relationship.type === 'WORKS_AT' && r.other.name === 'Door Dash')
      .map((r) => ({ validFrom: r.relationship.validFrom, validTo: r.relationship.validTo }));
  };

  beforeAll(async () => {
    dir = tempDir('pie-retold-ending-');
    db = join(dir.dir, 'pie.db');
    await ingest('gina-1', [
      {
        date: '1:00 pm on 15 March, 2023',
        turns: ['I lost my job at Door Dash last week, so I am opening my own store.', 'Sorry to hear that!'],
      },
      {
        date: '2:00 pm on 2 April, 2023',
        turns: ['Since I lost my job at Door Dash, I have been working on my store every day.', 'Dedication!'],
      },
    ]);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('two sessions telling one lost job give one ended edge, dated by the first telling', async () => {
    // "last week", said on Wednesday 15 March 2023: the week before, dated at noon on its Thursday (9 March).
    expect(await workEdges()).toEqual([
      { validFrom: Date.parse('2023-03-09T12:00:00Z'), validTo: Date.parse('2023-03-09T12:00:00Z') },
    ]);
    const timeline = await pie(cli(['timeline', 'Gina']), env);
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout.match(/WORKS_AT Door Dash/g)).toHaveLength(1);
    // The loss is Gina's event in her history too, on the day it happened.
    expect(timeline.stdout).toMatch(/9 March 2023[^\n]*Lost my job at Door Dash \(last week/);
    // A period of one's life is known by the day it was told, not held since then.
    expect(timeline.stdout).toMatch(/HAS_PERIOD Gina's unemployment \(period: unemployment\), by 2 April 2023/);
  });

  it('a later import run in another process telling it again adds no edge; a new job there does', async () => {
    await ingest('gina-2', [
      {
        date: '9:00 am on 10 May, 2023',
        turns: ['I still think about how I lost my job at Door Dash.', 'That was hard.'],
      },
    ]);
    expect(await workEdges()).toHaveLength(1);

    await ingest('gina-3', [
      {
        date: '9:00 am on 20 June, 2023',
        turns: ['I started a new job at Door Dash yesterday, back where I began!', 'Congrats!'],
      },
    ]);
    const edges = await workEdges();
    expect(edges).toHaveLength(2);
    expect(edges[1]).toEqual({ validFrom: Date.parse('2023-06-19T12:00:00Z'), validTo: null });
  });

  it('an edge told again in a later run with an earlier start holds since then', async () => {
    const owns = async () => {
      const shown = await pie(cli(['--json', 'entity', 'Max']), env);
      expect(shown.code, shown.stderr).toBe(0);
      const view = JSON.parse(shown.stdout) as EntityView;
      return view.relationships.filter((r) => r.relationship.type === 'OWNS').map((r) => r.relationship.validFrom);
    };
    await ingest('gina-4', [{ date: '9:00 am on 25 June, 2023', turns: ['My dog Max is so sweet.', 'Cute!'] }]);
    expect(await owns()).toEqual([Date.parse('2023-06-25T12:00:00Z')]);
    await ingest('gina-5', [{ date: '9:00 am on 26 June, 2023', turns: ['I adopted my dog Max in 2019.', 'Aw!'] }]);
    // One edge, its start moved back to the middle of 2019; the snapshot of 2020 has it.
    expect(await owns()).toEqual([Date.parse('2019-07-02T12:00:00Z')]);
    const snapshot = await pie(cli(['snapshot', '--at', '2020-06-01']), env);
    expect(snapshot.code, snapshot.stderr).toBe(0);
    expect(snapshot.stdout).toMatch(/OWNS Max[^\n]*since 2 July 2019/);
  });
});
