import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { EXTRACTION_LEASE } from '../../src/ingest/lease-rules.js';
import { runCli } from '../../src/serve/cli/run.js';
import { rows } from '../helpers/db.js';
import {
  PLANTED,
  SECRET_ID,
  SECRET_TITLE,
  TOKEN,
  NOW,
  filesHolding,
  ftsSegmentsHold,
  holdOpen,
  plantedWorld,
  tableCounts,
  type PlantedWorld,
} from './forget-world.js';

interface PlanJson {
  applied: boolean;
  plan: {
    id: string;
    target: { kind: string };
    counts: Record<string, number>;
    entities: { deleted: { name: string }[]; kept: { name: string; otherSources: number }[] };
    stillNamedIn: number;
  };
  compact?: { walTruncated: boolean };
}

const entityNamed = (db: string, name: string) =>
  rows<{ id: string; state: string; created_from: string | null; first_seen: number }>(
    db,
    'SELECT id, state, created_from, first_seen FROM entities WHERE name = ?',
    name,
  )[0];

let w: PlantedWorld;
beforeEach(async () => {
  w = await plantedWorld();
});
afterEach(() => w.cleanup());

describe('pie forget <conversation>', () => {
  it('leaves no trace of the conversation in the file, its -wal or -shm, while what other conversations hold stays', async () => {
    const holder = holdOpen(w.db);
    try {
      // A sleep journals rows about the planted entity: undo data in the journal, written through the WAL.
      const slept = await w.run(['sleep', '--no-llm', '--json']);
      expect(slept.code).toBe(0);
      // Pyramid summaries: one window holds the forgotten conversation's observations, three do not.
      expect((await w.run(['summarize'])).code).toBe(0);
      expect(rows(w.db, 'SELECT id FROM summaries')).toHaveLength(4);
      expect(filesHolding(w.db, PLANTED)).toEqual([w.db, `${w.db}-wal`]);
      expect(ftsSegmentsHold(w.db, 'turns_fts', TOKEN)).toBe(true);
      expect(rows(w.db, 'SELECT key FROM llm_cache')).toHaveLength(3);
      expect(
        rows(w.db, 'SELECT 1 FROM journal WHERE instr(before, ?) OR instr(after, ?)', PLANTED, PLANTED).length,
      ).toBeGreaterThan(0);

      const walBefore = readFileSync(`${w.db}-wal`).length;
      const r = await w.run(['forget', SECRET_ID, '--yes']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`Forget the conversation “${SECRET_TITLE}” (${SECRET_ID}, 2024-09-10)`);
      expect(r.stdout).toMatch(/Entities deleted \(2\): .*Maya Chen \(person\)/);
      expect(r.stdout).toContain('Tidepool (project, 1 other source)');
      expect(r.stdout).toContain('no copy of what was forgotten is left in it');

      for (const text of [PLANTED, TOKEN, 'Maya Chen', 'Ravi keeps']) expect(filesHolding(w.db, text)).toEqual([]);
      // Emptied by the forget; what the closing connection wrote since is planner statistics.
      expect(readFileSync(`${w.db}-wal`).length).toBeLessThan(walBefore);
      expect(ftsSegmentsHold(w.db, 'turns_fts', TOKEN)).toBe(false);
      expect(rows(w.db, 'SELECT 1 FROM episodes WHERE id = ?', SECRET_ID)).toEqual([]);
      expect(rows(w.db, 'SELECT 1 FROM turns WHERE episode_id = ?', SECRET_ID)).toEqual([]);
      expect(rows(w.db, 'SELECT 1 FROM observations WHERE episode_id = ?', SECRET_ID)).toEqual([]);
      expect(rows(w.db, 'SELECT id FROM summaries')).toHaveLength(3);
      expect(rows(w.db, "SELECT content FROM mental_models WHERE name = 'user'")).toEqual([{ content: '' }]);
      expect(rows(w.db, 'SELECT 1 FROM ingest_batches WHERE instr(episode_ids, ?)', SECRET_ID)).toEqual([]);
      // The launch conversation's cached answer stays; the forgotten conversation's goes.
      expect(rows(w.db, 'SELECT key FROM llm_cache')).toHaveLength(2);

      // Tidepool stays with the launch conversation as its only provenance, re-derived from it.
      const tidepool = entityNamed(w.db, 'Tidepool');
      expect(tidepool).toBeDefined();
      expect(JSON.parse(tidepool?.state ?? '{}')).toEqual({ stage: 'launched' });
      expect(tidepool?.created_from).toBe('jsonl:c-launch');
      expect(tidepool?.first_seen).toBe(Date.parse('2024-11-06T18:00:00Z'));
      const sources = (table: string) =>
        rows<{ episode_id: string | null }>(
          w.db,
          `SELECT DISTINCT episode_id FROM ${table} WHERE entity_id = ?`,
          tidepool?.id,
        );
      expect(sources('entity_mentions')).toEqual([{ episode_id: 'jsonl:c-launch' }]);
      expect(sources('transitions')).toEqual([{ episode_id: 'jsonl:c-launch' }]);
      expect(sources('facts')).toEqual([{ episode_id: 'jsonl:c-launch' }]);
      expect(rows(w.db, 'SELECT value, valid_to FROM facts WHERE entity_id = ?', tidepool?.id)).toEqual([
        { value: '"launched"', valid_to: null },
      ]);
      expect(entityNamed(w.db, 'Maya Chen')).toBeUndefined();
      expect(entityNamed(w.db, SECRET_TITLE)).toBeUndefined();
      expect(entityNamed(w.db, 'Supabase')).toBeDefined();
      expect(rows(w.db, "SELECT 1 FROM turns WHERE text LIKE '%launched Tidepool%'")).toHaveLength(1);
    } finally {
      holder.close();
    }
  });

  it('--dry-run shows the plan and changes nothing', async () => {
    const counts = tableCounts(w.db);
    const bytes = readFileSync(w.db);
    const r = await w.run(['forget', SECRET_ID, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as PlanJson;
    expect(out.applied).toBe(false);
    expect(out.plan.target.kind).toBe('conversation');
    expect(out.plan.counts).toMatchObject({ episodes: 1, turns: 2, cachedAnswers: 1, ftsRows: expect.any(Number) });
    expect(out.plan.counts.transitions).toBeGreaterThan(0);
    expect(out.plan.entities.deleted.map((e) => e.name).sort()).toEqual(['Maya Chen', SECRET_TITLE].sort());
    expect(out.plan.entities.kept).toContainEqual(expect.objectContaining({ name: 'Tidepool', otherSources: 1 }));
    expect(tableCounts(w.db)).toEqual(counts);
    expect(readFileSync(w.db).equals(bytes)).toBe(true);
    expect(filesHolding(w.db, PLANTED).length).toBeGreaterThan(0);
  });

  it('without --yes and not on a terminal: shows the plan, changes nothing, and says to re-run with --yes', async () => {
    const counts = tableCounts(w.db);
    const r = await w.run(['forget', SECRET_ID]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('What goes:');
    const message = r.stderr.trim();
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(/^pie: Nothing was forgotten: [^.]*--yes[^.]*\.$/);
    expect(tableCounts(w.db)).toEqual(counts);
  });

  it('asks on a terminal, and forgets only on yes', async () => {
    const ask = async (answer: boolean) => {
      let stdout = '';
      const questions: string[] = [];
      const code = await runCli(['--db', w.db, '--now', NOW, 'forget', SECRET_ID], {
        stdout: (t) => (stdout += t),
        stderr: () => undefined,
        env: { PIE_TZ: 'UTC' },
        interactive: true,
        confirm: async (q) => {
          questions.push(q);
          return answer;
        },
      });
      return { code, stdout, questions };
    };
    const counts = tableCounts(w.db);
    const no = await ask(false);
    expect(no.code).toBe(0);
    expect(no.questions).toEqual(['Forget all of this? There is no undo afterwards. [y/N] ']);
    expect(no.stdout).toContain('Nothing was forgotten.');
    expect(tableCounts(w.db)).toEqual(counts);
    const yes = await ask(true);
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain('Forgotten: 1 conversation, 2 turns');
    expect(rows(w.db, 'SELECT 1 FROM episodes WHERE id = ?', SECRET_ID)).toEqual([]);
  });

  it('refuses a name that is both an entity and a conversation title until --kind says which', async () => {
    const r = await w.run(['forget', SECRET_TITLE, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is both an entity (concept) and the title of a conversation');
    expect(rows(w.db, 'SELECT 1 FROM episodes WHERE id = ?', SECRET_ID)).toHaveLength(1);
    const byTitle = await w.run(['forget', SECRET_TITLE, '--kind', 'conversation', '--yes', '--json']);
    expect(byTitle.code, byTitle.stderr).toBe(0);
    expect((JSON.parse(byTitle.stdout) as PlanJson).applied).toBe(true);
    expect(rows(w.db, 'SELECT 1 FROM episodes WHERE id = ?', SECRET_ID)).toEqual([]);
  });

  it('refuses while an extraction holds the lease, and changes nothing', async () => {
    const store = await openSqliteStore({ path: w.db });
    const holder = {
      id: 'ingest-1',
      pid: process.pid,
      host: (await import('node:os')).hostname(),
      purpose: 'pie ingest x',
    };
    await store.leases.acquire({ name: EXTRACTION_LEASE, holder, now: Date.now(), ttlMs: 60_000, isDead: () => false });
    await store.close();
    const counts = tableCounts(w.db);
    const r = await w.run(['forget', SECRET_ID, '--yes']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^pie: Another extraction is running on this database: pie ingest x \(process \d+/);
    expect(tableCounts(w.db)).toEqual(counts);
  });
});

describe('pie forget <entity>', () => {
  it('removes the entity and what hangs off it; the conversations naming it stay', async () => {
    const supabase = entityNamed(w.db, 'Supabase');
    const r = await w.run(['forget', 'supabase', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as PlanJson;
    expect(out.applied).toBe(true);
    expect(out.plan.target.kind).toBe('entity');
    expect(out.plan.entities.deleted.map((e) => e.name)).toEqual(['Supabase']);
    expect(out.plan.stillNamedIn).toBe(2);
    expect(out.compact?.walTruncated).toBe(true);
    expect(entityNamed(w.db, 'Supabase')).toBeUndefined();
    for (const table of ['transitions', 'facts', 'entity_mentions', 'observations']) {
      expect(rows(w.db, `SELECT 1 FROM ${table} WHERE entity_id = ?`, supabase?.id)).toEqual([]);
    }
    expect(
      rows(w.db, 'SELECT 1 FROM relationships WHERE source_id = ? OR target_id = ?', supabase?.id, supabase?.id),
    ).toEqual([]);
    // Every cached answer that spoke of it goes (the launch and costs batches); the secret batch's did not.
    expect(rows<{ n: number }>(w.db, 'SELECT count(*) AS n FROM llm_cache')[0]?.n).toBe(1);
    expect(rows(w.db, "SELECT 1 FROM llm_cache WHERE instr(lower(response), 'supabase')")).toEqual([]);
    expect(entityNamed(w.db, 'Tidepool')).toBeDefined();
    expect(rows(w.db, 'SELECT id FROM episodes ORDER BY id')).toHaveLength(3);
    expect(await w.run(['entity', 'Supabase'])).toMatchObject({ code: 4 });
  });
});

describe('pie forget <text>', () => {
  it('removes the turns holding the text, keeps the rest of their conversation, and leaves no copy', async () => {
    const r = await w.run(['forget', TOKEN, '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as PlanJson;
    expect(out.plan.target.kind).toBe('text');
    expect(out.plan.counts).toMatchObject({ episodes: 0, turns: 1 });
    expect(rows(w.db, 'SELECT seq, text FROM turns WHERE episode_id = ?', SECRET_ID)).toEqual([
      { seq: 1, text: `Noted: ${PLANTED} stays with Ravi.` },
    ]);
    expect(rows(w.db, 'SELECT turn_count FROM episodes WHERE id = ?', SECRET_ID)).toEqual([{ turn_count: 1 }]);
    expect(filesHolding(w.db, TOKEN)).toEqual([]);
    expect(ftsSegmentsHold(w.db, 'turns_fts', TOKEN)).toBe(false);
  });
});

describe('pie forget after pie sleep', () => {
  it('drops the journal rows about what it removed, and pie undo of that sleep does not bring them back', async () => {
    const slept = JSON.parse((await w.run(['sleep', '--no-llm', '--json'])).stdout) as {
      runId: string;
      journaled: number;
    };
    expect(slept.journaled).toBeGreaterThan(0);
    const maya = entityNamed(w.db, 'Maya Chen');
    const journalAbout = (id: string) =>
      rows(
        w.db,
        'SELECT 1 FROM journal WHERE run_id = ? AND (row_id = ? OR instr(before, ?) OR instr(after, ?))',
        slept.runId,
        id,
        id,
        id,
      );
    expect(journalAbout(maya?.id ?? '').length).toBeGreaterThan(0);
    const before =
      rows<{ n: number }>(w.db, 'SELECT count(*) AS n FROM journal WHERE run_id = ?', slept.runId)[0]?.n ?? 0;

    const forgot = JSON.parse((await w.run(['forget', SECRET_ID, '--yes', '--json'])).stdout) as PlanJson;
    expect(forgot.plan.counts.journalRows).toBeGreaterThan(0);
    expect(journalAbout(maya?.id ?? '')).toEqual([]);
    expect(rows(w.db, 'SELECT 1 FROM journal WHERE instr(before, ?) OR instr(after, ?)', PLANTED, PLANTED)).toEqual([]);
    const left =
      rows<{ n: number }>(w.db, 'SELECT count(*) AS n FROM journal WHERE run_id = ?', slept.runId)[0]?.n ?? 0;
    expect(left).toBeLessThan(before);

    const undone = await w.run(['undo', slept.runId]);
    expect(undone.code, undone.stderr).toBe(0);
    expect(undone.stdout).toContain(`${left} row changes reverted.`);
    expect(undone.stdout).toMatch(/\d+ of its row changes were about what pie forget removed; .* stay forgotten\./);
    expect(entityNamed(w.db, 'Maya Chen')).toBeUndefined();
    expect(entityNamed(w.db, SECRET_TITLE)).toBeUndefined();
    expect(rows(w.db, 'SELECT 1 FROM episodes WHERE id = ?', SECRET_ID)).toEqual([]);
    expect(JSON.parse(entityNamed(w.db, 'Tidepool')?.state ?? '{}')).toEqual({ stage: 'launched' });
  });
});
