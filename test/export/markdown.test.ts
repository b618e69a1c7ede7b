import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelFile, sectionOf } from '../../src/export/markdown.js';
import { pie, pieJson, ROOT, tempDir } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'query', 'world.jsonl');
const ENV = { PIE_NOW: '2025-10-01T00:00:00Z' };

describe('markdown layout', () => {
  it.each([
    [0, 'Recent'],
    [1, 'Recent'],
    [2, 'This Month'],
    [3, 'This Month'],
    [4, 'Historical'],
    [9, 'Historical'],
  ])('tier %i goes to %s', (tier, section) => expect(sectionOf(tier)).toBe(section));

  it.each([
    ['self', 'SOUL.md'],
    ['user', 'USER.md'],
    ['system', 'TOOLS.md'],
    ['maya-chen', 'models/maya-chen.md'],
  ])('model %s → %s', (name, file) => expect(modelFile({ name })).toBe(file));
});

describe('pie export markdown', () => {
  let dir: string;
  let cleanup: () => void;
  let db: string;
  beforeEach(() => {
    ({ dir, cleanup } = tempDir('pie-md-'));
    db = join(dir, 'pie.db');
  });
  afterEach(() => cleanup());

  it("writes the spec's files with front matter and sections, and rewrites only what changed", async () => {
    expect((await pie(['apply', FIXTURE, '--db', db], ENV)).code).toBe(0);
    await pie(['observe', 'User moved to Lisbon', '--importance', '8', '--at', '2025-09-29', '--db', db], ENV);
    expect((await pie(['summarize', '--no-llm', '--db', db], ENV)).code).toBe(0);
    const ws = join(dir, 'workspace');
    const first = await pieJson<{ written: string[] }>(['export', 'markdown', ws, '--db', db], ENV);
    expect(first.written.sort()).toEqual(['MEMORY.md', 'SOUL.md', 'TOOLS.md', 'USER.md', 'models/tidepool.md']);
    const user = readFileSync(join(ws, 'USER.md'), 'utf8');
    expect(user).toMatch(
      /^---\nname: "user"\ndescription: "[^"]+"\nsummarized_by: "deterministic"\n---\n\n# User\n\n## Recent\n/,
    );
    expect(user).toContain('<!-- tier 0, 2025-09-29, selected without a model -->\n[8] User moved to Lisbon');
    expect(user).toContain('## Historical\n');
    const index = readFileSync(join(ws, 'MEMORY.md'), 'utf8');
    expect(index).toContain('- [Tidepool](models/tidepool.md): ');
    expect(index).toContain('- [Self](SOUL.md)\n');

    const again = await pieJson<{ written: string[]; unchanged: number }>(['export', 'markdown', ws, '--db', db], ENV);
    expect(again).toMatchObject({ written: [], unchanged: 5 });

    await pie(['observe', 'User adopted a cat named Miso', '--importance', '6', '--at', '2025-09-30', '--db', db], ENV);
    await pie(['summarize', '--no-llm', '--db', db], ENV);
    const third = await pieJson<{ written: string[] }>(['export', 'markdown', ws, '--db', db], ENV);
    expect(third.written.sort()).toEqual(['USER.md']);
    expect(readFileSync(join(ws, 'USER.md'), 'utf8')).toContain('[6] User adopted a cat named Miso');
  });

  it('exports an empty memory as the three core files and the index', async () => {
    await pie(['observe', 'seed', '--db', db], ENV);
    const ws = join(dir, 'empty');
    const r = await pieJson<{ written: string[] }>(['export', 'markdown', ws, '--db', db], ENV);
    expect(r.written).toEqual(['SOUL.md', 'TOOLS.md', 'USER.md', 'MEMORY.md']);
    expect(readFileSync(join(ws, 'USER.md'), 'utf8')).toBe(
      '---\nname: "user"\ndescription: ""\n---\n\n# User\n\nNothing summarized yet (run pie summarize).\n',
    );
  });
});
