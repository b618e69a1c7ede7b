import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finished, pie, pieWithInput, SAMPLE, spawnPie, tempDir } from '../helpers/cli.js';

/**
 * `pie chat` through a pipe, as a script or a shell would drive it: each line is routed as a question (answered from
 * memory; without a model, the entity cards the context is built on) or a statement (stored and extracted), the
 * route is shown, greetings are not stored, slash commands run the CLI's own commands, and --json speaks one JSON
 * object a line each way.
 */
let dir: string;
let cleanup: () => void;
let db: string;
const G = ['--now', '2025-11-01'];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('pie-chat-'));
  db = join(dir, 'pie.db');
  const r = await pie(['--db', db, ...G, 'ingest', SAMPLE, '--extractor', 'offline']);
  if (r.code !== 0) throw new Error(r.stderr);
}, 120_000);
afterAll(() => cleanup());

const manualEpisodes = (): number => {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare("SELECT count(*) AS n FROM episodes WHERE source = 'manual'").get() as { n: number }).n;
  } finally {
    d.close();
  }
};

describe('pie chat', () => {
  it('answers a question from memory, stores a statement, and says which route each took', async () => {
    const before = manualEpisodes();
    const r = await pieWithInput(
      ['--db', db, ...G, 'chat'],
      [
        'Hello!',
        'What is Tidepool?',
        '/why',
        'My sister Nora got a dog named Biscuit.',
        '/other',
        '/quit',
        'never read',
      ].join('\n'),
    );
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout;
    // Small talk is answered and not stored.
    expect(out).toContain('Hello! Ask me something about your history');
    // A question without a model: the entity cards, not the raw prompt.
    expect(out).toMatch(/\[asked\] • Tidepool \(project\) — stage: /);
    expect(out).not.toContain('Question: What is Tidepool?');
    expect(out).toContain('(no model configured: this is what your memory holds about it');
    expect(out).toMatch(/Sources:\n {2}\[1\] /);
    // A statement is remembered and extracted; /other asks it instead.
    expect(out).toMatch(/\[remembered\] Remembered \(manual:[0-9a-f]+\)\.\n {2}About: .*Nora/);
    expect(out.split('[asked]').length - 1).toBe(2);
    expect(manualEpisodes()).toBe(before + 1);
    // /quit ends the session: the line after it is not read.
    expect(out).not.toContain('never read');
  }, 60_000);

  it('runs the CLI commands as slash commands and explains an unknown one in one sentence', async () => {
    const r = await pieWithInput(
      ['--db', db, ...G, 'chat'],
      ['/timeline Tidepool', '/sleep daydream', '/nope', '/diff', '/why'].join('\n'),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Tidepool (project)');
    expect(r.stdout).toMatch(/History:\n/);
    expect(r.stdout).toContain('(a preview: /sleep apply daydream runs it)');
    expect(r.stdout).toContain('pie: /nope is not a command; /help lists them.');
    expect(r.stdout).toContain('pie: Give two periods or dates: /diff 2024-01-01 now.');
    expect(r.stdout).toContain('pie: No question was answered yet.');
  }, 60_000);

  it('--json: one JSON message a line in, one JSON reply a line out; a bad line is an error line', async () => {
    const r = await pieWithInput(
      ['--db', db, ...G, '--json', 'chat'],
      [
        JSON.stringify({ message: 'What is Tidepool?' }),
        'not json',
        JSON.stringify({ message: 'thanks!' }),
        JSON.stringify({ message: 'Tidepool hired a designer.', mode: 'question' }),
      ].join('\n'),
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ route: 'question', answer: null, model: null });
    expect((lines[0]?.entities as { name: string }[]).map((e) => e.name)).toContain('Tidepool');
    expect(lines[1]).toEqual({
      error: { code: 'INVALID_ARGUMENT', message: 'Each line must be a JSON object like {"message": "…"}.' },
    });
    expect(lines[2]).toMatchObject({ route: 'small-talk' });
    expect(lines[3]).toMatchObject({ route: 'question' });
  }, 60_000);

  it('streams a model answer as it arrives, printed once, with the line under it', async () => {
    const script = join(dir, 'answer.json');
    const answer = 'Tidepool began as a study-group app and pivoted to a research-notes tool for labs [1].';
    writeFileSync(
      script,
      JSON.stringify({
        streamDelayMs: 40,
        prompts: {
          'classify-query@1': [{ response: { intent: 'entity_lookup', entities: ['Tidepool'], wantsHistory: false } }],
          'answer-question@1': [{ response: answer }],
        },
      }),
    );
    const child = spawnPie(['--db', db, ...G, 'chat', '--llm', `fake:${script}`], {}, { stdin: true });
    // Each piece of output with the moment it came: a streamed answer arrives in several.
    const arrivals: { at: number; text: string }[] = [];
    child.stdout?.on('data', (d: Buffer) => arrivals.push({ at: Date.now(), text: d.toString() }));
    child.stdin?.end('What is Tidepool?\n/quit\n');
    const r = await finished(child);
    expect(r.code, r.stderr).toBe(0);
    const out = arrivals.map((a) => a.text).join('');
    expect(out.split(answer)).toHaveLength(2);
    expect(out).toContain(
      `[asked] ${answer}\n(fake:${script} (from --llm); /why for the sources)  /other stores it instead.`,
    );
    const answerParts = arrivals.filter((a) => answer.includes(a.text.trim()) && a.text.trim() !== '');
    expect(answerParts.length).toBeGreaterThan(3);
  }, 60_000);
});
