import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { pie } from '../helpers/cli.js';

/**
 * A small world for the sleep phases, as `pie apply` input: contradictions that settled (moved on; stood while
 * referenced), one that flip-flopped and one too quiet to tell; four commitments (overdue, abandoned, kept, not
 * due); two people named together in three episodes without a relationship; a period. Sleep it at 2026-01-01.
 */
export const PHASES_NOW = '2026-01-01';

function batch(id: string, date: string, episode: string, rest: Record<string, unknown>): string {
  return JSON.stringify({ batch: { id, date: `${date}T12:00:00Z`, episodeIds: [episode] }, ...rest });
}

function change(
  entityName: string,
  attribute: string,
  from: string | null,
  to: string,
  contradiction: boolean,
  what: string,
) {
  return {
    entityName,
    attribute,
    oldStateAspect: from,
    newStateAspect: to,
    isContradiction: contradiction,
    whatChanged: what,
    confidence: 0.9,
  };
}

export const PHASES_WORLD: string[] = [
  batch('b1', '2024-09-10', 'e-start', {
    entities: [
      { name: 'Tidepool', type: 'project', state: { stage: 'idea', focus: 'surf reports' } },
      { name: 'Maya Chen', type: 'person', state: { role: 'classmate' } },
      { name: 'Sam Ortiz', type: 'person', state: { diet: 'vegetarian' } },
    ],
    relationships: [{ source: 'Maya Chen', target: 'Tidepool', type: 'WORKS_ON' }],
    periodContext: 'junior year',
  }),
  batch('b2', '2024-11-01', 'e-atlas', {
    entities: [
      { name: 'Atlas', type: 'project', state: { stage: 'planning' } },
      { name: 'Maya Chen', type: 'person', state: {} },
      { name: 'Sam Ortiz', type: 'person', state: {} },
    ],
    periodContext: 'junior year',
  }),
  batch('b3', '2025-01-10', 'e-diet1', {
    entities: [{ name: 'Maya Chen', type: 'person', state: {} }],
    stateChanges: [change('Sam Ortiz', 'diet', 'vegetarian', 'eats meat', true, 'Sam started eating meat')],
  }),
  batch('b4', '2025-02-01', 'e-atlas2', {
    stateChanges: [change('Atlas', 'stage', 'planning', 'cancelled', true, 'Atlas was cancelled')],
  }),
  batch('b5', '2025-02-14', 'e-pivot', {
    stateChanges: [change('Tidepool', 'focus', 'surf reports', 'tide alerts', true, 'Pivoted to tide alerts')],
  }),
  batch('b6', '2025-03-01', 'e-diet2', {
    stateChanges: [change('Sam Ortiz', 'diet', 'eats meat', 'vegetarian', true, 'Sam went back to vegetarian')],
  }),
  batch('b7', '2025-04-01', 'e-atlas3', {
    stateChanges: [change('Atlas', 'stage', 'cancelled', 'revived', false, 'Atlas came back as a side project')],
  }),
  batch('b8', '2025-06-01', 'e-tide', { entities: [{ name: 'Tidepool', type: 'project', state: { stage: 'beta' } }] }),
  batch('b9', '2025-05-01', 'e-passport', {
    entities: [{ name: 'renew the passport', type: 'commitment', state: { due: '2025-06-01', status: 'open' } }],
  }),
  batch('b10', '2025-10-01', 'e-grant', {
    entities: [
      { name: 'finish the grant application', type: 'commitment', state: { due: '2025-11-15', status: 'open' } },
    ],
  }),
  batch('b11', '2025-11-10', 'e-grant2', {
    stateChanges: [
      change('finish the grant application', 'progress', null, 'submitted', false, 'Submitted the grant application'),
    ],
  }),
  batch('b12', '2025-12-01', 'e-q3', {
    entities: [
      {
        name: 'send the Q3 report',
        type: 'commitment',
        state: { due: '2025-12-20', status: 'open', to: 'Maya Chen' },
      },
    ],
    relationships: [{ source: 'send the Q3 report', target: 'Maya Chen', type: 'PROMISED_TO' }],
  }),
  batch('b13', '2025-12-05', 'e-offsite', {
    entities: [{ name: 'plan the offsite', type: 'commitment', state: { due: '2026-03-01', status: 'open' } }],
  }),
];

/** A database file in `dir` holding PHASES_WORLD, written by `pie apply` as a user would; returns its path. */
export async function applyPhasesWorld(dir: string): Promise<string> {
  const db = join(dir, 'pie.db');
  const input = join(dir, 'world.jsonl');
  writeFileSync(input, `${PHASES_WORLD.join('\n')}\n`);
  expect((await pie(['--db', db, 'apply', input])).code).toBe(0);
  return db;
}

export { rows, snapshot } from '../helpers/db.js';
