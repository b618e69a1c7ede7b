import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel, type ScriptedModel } from '../../src/adapters/llm/fake.js';
import { openSqliteStore } from '../../src/adapters/store/sqlite/index.js';
import { contradictionSupersessionPhase } from '../../src/metabolism/contradictions-phase.js';
import { deepDreamsPhase, megaDreamsPhase } from '../../src/metabolism/dreams-phase.js';
import { runSleep, type SleepReport } from '../../src/metabolism/sleep.js';
import { undoRun } from '../../src/metabolism/undo.js';
import type { ModelRequest } from '../../src/ports/llm.js';
import type { WorldStore } from '../../src/ports/world-store.js';
import { pie, pieJson, tempDir } from '../helpers/cli.js';
import { applyPhasesWorld, PHASES_NOW, rows, snapshot } from './phases-world.js';
import { scriptedClient } from '../helpers/llm.js';

const NOW = Date.parse(`${PHASES_NOW}T00:00:00Z`);

/** The [E1] … keys of a dream prompt, key → entity name. */
function keysOf(request: ModelRequest): Map<string, string> {
  const text = request.messages.map((m) => m.content).join('\n');
  return new Map([...text.matchAll(/^\[(E\d+)\] (.+?) \(/gm)].map((m) => [m[1] as string, m[2] as string]));
}

function scripted(): ScriptedModel {
  return createScriptedModel({
    script: {
      'sleep-contradiction-verdicts@1': [
        (r) => {
          const text = r.messages.map((m) => m.content).join('\n');
          const key = /^\[(C\d+)\] Sam Ortiz/m.exec(text)?.[1] ?? 'none';
          return { verdicts: [{ key, verdict: 'superseded', reason: 'Sam has stayed vegetarian since March.' }] };
        },
      ],
      'sleep-deep-dream@1': Array.from({ length: 3 }, () => (r: ModelRequest) => {
        const keys = keysOf(r);
        return {
          insights: [
            { text: `${keys.get('E1')} anchors ${keys.get('E2')}`, evidence: ['E1', 'E2', 'E1'], confidence: 0.7 },
            { text: 'Resting on nothing shown', evidence: ['E99'], confidence: 0.9 },
          ],
        };
      }),
      'sleep-mega-dream@1': [
        (r) => {
          const keys = keysOf(r);
          return {
            insights: [
              { text: `${keys.get('E1')} and ${keys.get('E3')} meet`, evidence: ['E3', 'E1'], confidence: 0.55 },
            ],
          };
        },
      ],
    },
  });
}

describe('contradictions and dreams with a model (scripted)', () => {
  let dir: { dir: string; cleanup: () => void };
  let db: string;
  let store: WorldStore;

  beforeEach(async () => {
    dir = tempDir('pie-dreams-');
    db = await applyPhasesWorld(dir.dir);
    store = await openSqliteStore({ path: db });
  });
  afterEach(async () => {
    await store.close();
    dir.cleanup();
  });

  async function sleep(model: ScriptedModel, dryRun: boolean): Promise<SleepReport> {
    let n = 0;
    const llm = scriptedClient({ model, store: store, now: NOW });
    return runSleep({
      store,
      scope: 'full',
      dryRun,
      now: NOW,
      runId: 'r-dream',
      newId: () => `id-${++n}`,
      llm,
      phases: [contradictionSupersessionPhase(), deepDreamsPhase(), megaDreamsPhase()],
    });
  }

  it('a dry run calls no model', async () => {
    const model = scripted();
    const report = await sleep(model, true);
    expect(model.calls).toEqual([]);
    expect(report.phases.slice(-3).map((p) => [p.name, p.status, p.details?.model ?? p.details?.note])).toEqual([
      ['contradiction supersession', 'planned', 'would ask the model about 1'],
      ['deep dreams', 'planned', 'a dry run calls no model'],
      ['mega dreams', 'planned', 'a dry run calls no model'],
    ]);
  });

  it('asks about what the rules left open, stores the insights with their evidence, and undo removes it all', async () => {
    const before = snapshot(db, ['llm_cache']);
    const model = scripted();
    const report = await sleep(model, false);
    const byName = new Map((await store.entities.list()).map((e) => [e.name, e.id]));

    // The rules settle two; the model settles the quiet one; the flip-flop stays open.
    expect(report.phases.find((p) => p.name === 'contradiction supersession')).toMatchObject({
      status: 'done',
      changes: 3,
      details: { resolvedByModel: 1, leftOpen: 0 },
      issues: ['Unsettled contradiction: Sam Ortiz (diet: vegetarian → eats meat, 2025-01-10) went back and forth'],
    });
    const prompt = model.calls[0]?.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('Sam Ortiz (person) on 2025-03-01: Sam went back to vegetarian');
    expect(prompt).toContain('diet: "eats meat" → "vegetarian"');
    expect(
      rows<{ summary: string }>(
        db,
        "SELECT summary FROM transitions WHERE kind = 'resolution' AND summary LIKE '%model%'",
      ),
    ).toEqual([
      {
        summary:
          '"vegetarian" superseded "eats meat" (diet), held since 2025-03-01: judged by the model: Sam has stayed vegetarian since March.',
      },
    ]);

    // Every dream prompt's answer becomes exactly the insights it cites known entities for.
    const deepCalls = model.calls.filter((c) => c.prompt === 'sleep-deep-dream@1');
    const megaCalls = model.calls.filter((c) => c.prompt === 'sleep-mega-dream@1');
    expect(megaCalls).toHaveLength(1);
    // One cluster: the most connected entity with its neighbours, by importance (periods are never dreamt about).
    // Recency is measured against the world's latest conversation, so the commitment due last outranks Tidepool.
    expect(deepCalls.map((c) => [...keysOf(c).values()])).toEqual([['Maya Chen', 'send the Q3 report', 'Tidepool']]);
    const id = (name: string | undefined) => byName.get(name ?? '') ?? `missing ${name}`;
    const expected = [
      ...deepCalls.map((c) => {
        const keys = keysOf(c);
        return {
          kind: 'deep',
          text: `${keys.get('E1')} anchors ${keys.get('E2')}`,
          evidence: [id(keys.get('E1')), id(keys.get('E2'))],
          confidence: 0.7,
        };
      }),
      ...megaCalls.map((c) => {
        const keys = keysOf(c);
        return {
          kind: 'mega',
          text: `${keys.get('E1')} and ${keys.get('E3')} meet`,
          evidence: [id(keys.get('E3')), id(keys.get('E1'))],
          confidence: 0.55,
        };
      }),
    ];
    const stored = (await store.insights.list()).map(
      ({ kind, text, evidence, confidence, status, runId, createdAt }) => ({
        kind,
        text,
        evidence,
        confidence,
        status,
        runId,
        createdAt,
      }),
    );
    expect(stored.sort((a, b) => a.text.localeCompare(b.text))).toEqual(
      expected
        .map((e) => ({ ...e, status: 'new', runId: 'r-dream', createdAt: NOW }))
        .sort((a, b) => a.text.localeCompare(b.text)),
    );
    expect(report.phases.find((p) => p.name === 'deep dreams')).toMatchObject({
      status: 'done',
      changes: deepCalls.length,
    });

    const listed = await pieJson<{ total: number; insights: { kind: string; evidenceNames: string[] }[] }>([
      '--db',
      db,
      'insights',
      '--kind',
      'deep',
    ]);
    expect(listed).toMatchObject({
      total: 1,
      insights: [{ kind: 'deep', evidenceNames: ['Maya Chen', 'send the Q3 report'] }],
    });
    const text = await pie(['--db', db, 'insights']);
    expect(text.stdout).toContain('Maya Chen anchors send the Q3 report');
    expect(text.stdout).toContain('Maya Chen and Tidepool meet');
    expect((await pie(['--db', db, 'insights', '--kind', 'nightmare'])).stderr).toMatch(
      /--kind must be one of deep, mega/,
    );
    await undoRun({ store, runId: 'r-dream', now: NOW + 1 });
    expect((await pie(['--db', db, 'insights'])).stdout).toMatch(/^No insights yet/);
    expect(await store.insights.list()).toEqual([]);
    // Model answers stay cached (a cache, not world state); everything else is as before.
    expect(snapshot(db, ['llm_cache'])).toEqual(before);
  });
});
