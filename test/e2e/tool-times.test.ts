import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pie, pieJson, tempDir } from '../helpers/cli.js';

/**
 * A tool taken up or dropped is dated by the time said in its own clause, as an event is: notes written on 10 March
 * ("Last week I started using Rust") and 2 April ("Yesterday I dropped Rust and went back to Go") give Rust adopted
 * in the week before 10 March and dropped on 1 April, and Go, gone back to, adopted on 1 April. Both had been dated
 * the days the notes were written, and "went back to Go" had adopted nothing.
 */
describe('tool changes dated by their own sentence', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  const cli = (args: string[]) => ['--db', db, '--tz', 'UTC', '--now', '2025-06-01', ...args];

  beforeAll(async () => {
    dir = tempDir('pie-tool-times-');
    db = join(dir.dir, 'pie.db');
    const notes = join(dir.dir, 'notes');
    mkdirSync(notes);
    writeFileSync(
      join(notes, 'n1.md'),
      '---\ndate: 2025-03-10\n---\nLast week I started using Rust for the backend.\n',
    );
    const second = join(notes, 'n2.md');
    writeFileSync(second, 'Yesterday I dropped Rust and went back to Go.\n');
    const written = new Date('2025-04-02T12:00:00Z');
    utimesSync(second, written, written);
    const ingested = await pie(cli(['ingest', notes, '--extractor', 'offline']));
    expect(ingested.code, ingested.stderr).toBe(0);
  }, 60_000);
  afterAll(() => dir.cleanup());

  it('the timeline dates the adoption and the drop when they happened', async () => {
    const timeline = await pie(cli(['timeline', 'Rust']));
    expect(timeline.code, timeline.stderr).toBe(0);
    // The week before Monday 10 March 2025 is dated at its middle, Thursday 6 March.
    expect(timeline.stdout).toMatch(/6 March 2025[^\n]*Adopted Rust/);
    expect(timeline.stdout).toMatch(/1 April 2025[^\n]*Dropped Rust/);
    expect(timeline.stdout).toMatch(/User USES Rust[^\n]*6 March 2025 to 1 April 2025/);
    expect(timeline.stdout).toMatch(/User DROPPED Rust[^\n]*since 1 April 2025/);
  });

  it('going back to a tool adopts it, on the day its sentence says', async () => {
    const go = await pieJson<{ transitions: { summary: string; eventTime: number }[] }>(cli(['timeline', 'Go']));
    const adopted = go.transitions.find((t) => t.summary.startsWith('Adopted Go'));
    expect(new Date(adopted?.eventTime ?? 0).toISOString().slice(0, 10)).toBe('2025-04-01');
  });
});
