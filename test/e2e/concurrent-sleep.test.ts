import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE, finished, spawnPie, tempDir, type CliResult } from '../helpers/cli.js';
import {
  episodesWithText,
  extracting,
  postgresMemory,
  sqliteMemory,
  until,
  worldCounts,
  type Memory,
  type WorldCounts,
} from '../helpers/memory-counts.js';
import { describeWithPostgres } from '../helpers/postgres.js';
import { writeSampleModel } from '../helpers/sample-model.js';
import {
  NOTE_RULES,
  NOTES,
  readLoad,
  startServed,
  writeHttpNote,
  writeMcpNote,
  type NoteOutcome,
  type Served,
} from '../helpers/served-memory.js';

/**
 * Issue 18, "many processes, one memory": real `pie ingest`, `pie sleep`, `pie serve` and `pie mcp --http` processes
 * on one memory at once, on SQLite and on a real PostgreSQL server. Two ingests and a sleep leave the world one
 * ingest and then one sleep leave; of two sleeps at once exactly one applies and the other refuses (exit 5) in one
 * sentence; both servers answer every read throughout, and a note written through each is stored and extracted
 * exactly once.
 *
 * No timing is assumed: the scripted model of the parallel runs holds every call while a gate file exists. Once the
 * ingest has applied a few batches the test closes the gate, starts what must overlap it, waits until each has
 * shown it is there (the sleep says it waits, the servers answer with episodes still pending), and opens the gate.
 */

const SLEEP_WAITS =
  /Another extraction is running on this database: pie ingest .*\(process \d+ on .*\); waiting for it to finish, then this sleep runs on the world it leaves \(Ctrl-C stops waiting\)\./;

/** Resolves true once the child's stderr matches, false if it ends without. Attach right after spawning. */
function announced(child: ChildProcess, pattern: RegExp): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = '';
    child.stderr?.on('data', (d: Buffer) => {
      seen += d.toString();
      if (pattern.test(seen)) resolve(true);
    });
    child.on('close', () => resolve(pattern.test(seen)));
  });
}

function scenarios(label: string, open: (name: string) => Promise<Memory>): void {
  let dir: string;
  let cleanup: () => void;
  /** The references' model: no delay. */
  let fast: string;
  /** The parallel runs' model: 200 ms a call, held while the gate file exists. */
  let paced: string;
  let gate: string;
  let expected: WorldCounts;
  let expectedWithNotes: WorldCounts;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir('pie-concurrent-sleep-'));
    gate = join(dir, 'hold-the-model');
    fast = writeSampleModel({ dir, delayMs: 0, name: 'fast.json', rules: NOTE_RULES });
    paced = writeSampleModel({ dir, delayMs: 200, name: 'paced.json', rules: NOTE_RULES, holdWhileExists: gate });
  });
  afterAll(() => {
    release();
    cleanup();
  });
  const hold = (): void => writeFileSync(gate, '');
  const release = (): void => rmSync(gate, { force: true });

  const env = (): Record<string, string> => ({ PIE_HOME: dir });
  const ingest = (m: Memory, script: string): Promise<CliResult> =>
    finished(
      spawnPie(
        ['--db', m.db, 'ingest', SAMPLE, '--llm', `fake:${script}`, '--concurrency', '1', '--consolidate-every', '0'],
        env(),
      ),
    );
  const spawnSleep = (m: Memory): ChildProcess =>
    spawnPie(['--db', m.db, 'sleep', '--scope', 'full', '--no-llm'], env());

  it(`${label}: one ingest, then one sleep (the reference)`, async () => {
    const m = await open('reference');
    const one = await ingest(m, fast);
    expect(one.code, one.stderr).toBe(0);
    const slept = await finished(spawnSleep(m));
    expect(slept.code, slept.stderr).toBe(0);
    expected = await worldCounts(m);
    expect(expected.entities).toBeGreaterThan(40);
    expect(expected).toMatchObject({ pending: 0, sleeps: 1, failed: 0, leases: 0 });
  }, 300_000);

  it(`${label}: two ingests and a sleep at once leave the world one ingest and one sleep leave`, async () => {
    const m = await open('parallel');
    const first = ingest(m, paced);
    const second = ingest(m, paced);
    let slept: Promise<CliResult>;
    try {
      await extracting(m);
      hold();
      const sleeping = spawnSleep(m);
      slept = finished(sleeping);
      // The sleep found an extraction under way and waits for it, saying so in one sentence.
      expect(await announced(sleeping, SLEEP_WAITS)).toBe(true);
    } finally {
      release();
    }
    const [a, b, s] = await Promise.all([first, second, slept]);
    for (const r of [a, b, s]) expect(r.code, r.stderr).toBe(0);
    // One of the ingests waited for the other (or for the sleep).
    expect(`${a.stderr}\n${b.stderr}`).toMatch(/Another (extraction|sleep) is running on this database: .*; waiting/);
    expect(await worldCounts(m)).toEqual(expected);
  }, 300_000);

  it(`${label}: of two sleeps at once exactly one applies, the other refuses`, async () => {
    const m = await open('two-sleeps');
    const running = ingest(m, paced);
    let sleeps: [Promise<CliResult>, Promise<CliResult>];
    try {
      await extracting(m);
      hold();
      // Both sleeps start while the extraction is held: one takes the sleep lease and waits for the extraction, so
      // the first to end is the other one, refused.
      const children = [spawnSleep(m), spawnSleep(m)] as const;
      const waits = [announced(children[0], SLEEP_WAITS), announced(children[1], SLEEP_WAITS)] as const;
      sleeps = [finished(children[0]), finished(children[1])];
      const first = await Promise.race([sleeps[0].then(() => 0 as const), sleeps[1].then(() => 1 as const)]);
      const refused = await sleeps[first];
      expect(refused.code, refused.stderr).toBe(5);
      expect(refused.stderr.trim()).toMatch(
        /^pie: Another sleep is running on this database: sleep via pie sleep --scope full \(process \d+ on .*, running for .*\); run again when it has finished\.$/,
      );
      expect(await waits[first === 0 ? 1 : 0]).toBe(true);
    } finally {
      release();
    }
    const [ran, s1, s2] = await Promise.all([running, ...sleeps]);
    expect(ran.code, ran.stderr).toBe(0);
    expect([s1.code, s2.code].sort()).toEqual([0, 5]);
    expect(await worldCounts(m)).toEqual(expected);
  }, 300_000);

  // The servers' writes: a note through `ingest_episode` and one through `POST /api/episodes`. The reference makes
  // the same two writes through the same servers between its ingest and its sleep, so the comparison stays exact.
  // It holds whatever order the parallel run ends up in (a note extracted before or after the sleep, by its server
  // or by a `pie ingest` that found it pending, alone or in one batch with the other):
  // - every process uses the same scripted model, which answers the notes the same in each case;
  // - the notes are dated inside the sample's span (SERVED_NOW), so they never move the "now" a sleep measures
  //   staleness from, and their two new entities are named in one episode each, so no sleep phase (merging,
  //   co-mention links, periods) touches them;
  // - the reads raise access counts, so importance: that only keeps entities more active, and the reference's sleep
  //   writes no summary or archival transition (asserted below), so no tier decision adds a row either way.
  it(`${label}: one ingest, a note through pie mcp --http and one through pie serve, then one sleep`, async () => {
    const m = await open('reference-notes');
    const one = await ingest(m, fast);
    expect(one.code, one.stderr).toBe(0);
    const served = await startServed({ db: m.db, env: { ...env(), PIE_LLM: `fake:${fast}` } });
    try {
      expect(await writeMcpNote(served)).toEqual({ stored: 'extracted', outcome: 'ingested' });
      expect(await writeHttpNote(served)).toEqual({ stored: 'extracted', outcome: 'ingested' });
    } finally {
      const stopped = await served.stop();
      for (const r of [stopped.serve, stopped.mcp]) expect(r.code, r.stderr).toBe(0);
    }
    const slept = await finished(spawnSleep(m));
    expect(slept.code, slept.stderr).toBe(0);
    expectedWithNotes = await worldCounts(m);
    expect(await m.count("SELECT count(*) AS n FROM transitions WHERE kind IN ('summary', 'archival')")).toBe(0);
    // Each note adds its episode, its entity and that entity's link to the user.
    expect(expectedWithNotes).toMatchObject({
      entities: expected.entities + 2,
      relationships: expected.relationships + 2,
      episodes: expected.episodes + 2,
      pending: 0,
      sleeps: 1,
      failed: 0,
      leases: 0,
    });
  }, 300_000);

  it(`${label}: pie serve and pie mcp --http answer throughout two ingests and a sleep; their notes count once`, async () => {
    const m = await open('served');
    const first = ingest(m, paced);
    const second = ingest(m, paced);
    let served: Served | undefined;
    try {
      await extracting(m);
      hold();
      const sleeping = spawnSleep(m);
      const slept = finished(sleeping);
      const sleepWaits = announced(sleeping, SLEEP_WAITS);
      const srv = await startServed({ db: m.db, env: { ...env(), PIE_LLM: `fake:${paced}` } });
      served = srv;
      const load = readLoad(srv);
      // While the extraction is held, both servers answer reads, and /api/status counts episodes still pending.
      await until('reads while the extraction is held', () => {
        const { http, mcp, whilePending, failures } = load.report;
        return failures.length > 0 || (http >= 8 && mcp >= 8 && whilePending >= 1);
      });
      expect(await sleepWaits).toBe(true);
      // A note through each server: stored at once, then each waits for the extraction the ingest holds.
      const notes = Promise.all([writeMcpNote(srv), writeHttpNote(srv)]);
      await until('both notes stored', async () => {
        const stored = await Promise.all([episodesWithText(m, NOTES.mcp), episodesWithText(m, NOTES.http)]);
        return stored.every((s) => s.stored === 1);
      });
      release();
      const [a, b, s] = await Promise.all([first, second, slept]);
      const during = { http: load.report.http, mcp: load.report.mcp };
      const written = await notes;
      // Reads go on a little after the others ended (the last sleep's writes are committed by now).
      const before = load.report.http + load.report.mcp;
      await until('reads after the run', () => load.report.http + load.report.mcp >= before + 8);
      const report = await load.stop();

      for (const r of [a, b, s]) expect(r.code, r.stderr).toBe(0);
      expect(s.stderr).toMatch(SLEEP_WAITS);
      expect(report.failures).toEqual([]);
      expect(during.http).toBeGreaterThanOrEqual(8);
      expect(during.mcp).toBeGreaterThanOrEqual(8);
      expect(report.whilePending).toBeGreaterThanOrEqual(1);

      // A note that found another extraction holding the memory for over 30 s was stored and answered CONFLICT
      // (docs/mcp.md); sending it again now extracts it, or finds that a `pie ingest` already did.
      const resend = [() => writeMcpNote(srv), () => writeHttpNote(srv)] as const;
      for (const [i, outcome] of written.entries()) {
        const again: NoteOutcome = outcome.stored === 'pending' ? await resend[i]!() : outcome;
        expect(again.stored, JSON.stringify(outcome)).toBe('extracted');
      }
      for (const text of [NOTES.mcp, NOTES.http]) {
        expect(await episodesWithText(m, text)).toEqual({ stored: 1, extracted: 1 });
      }
    } finally {
      release();
      const stopped = await served?.stop();
      for (const r of stopped ? [stopped.serve, stopped.mcp] : []) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('stopping.');
        // No failed request or tool call was logged, and no access count went unrecorded.
        expect(r.stderr).not.toMatch(/locked|busy|deadlock|request failed|tool failed|unexpectedly|not recorded/i);
      }
    }
    expect(await worldCounts(m)).toEqual(expectedWithNotes);
  }, 400_000);
}

describe('concurrent sleep and ingest on SQLite', () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir('pie-concurrent-sqlite-'));
  });
  afterAll(() => cleanup());
  scenarios('SQLite', (name) => sqliteMemory(dir, name));
});

describeWithPostgres('concurrent sleep and ingest on PostgreSQL', (server) => {
  scenarios('PostgreSQL', () => postgresMemory(server()));
});
