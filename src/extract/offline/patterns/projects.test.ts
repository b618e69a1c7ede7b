import { describe, expect, it } from 'vitest';
import { known, names, run } from '../test-kit.js';

describe('projects', () => {
  it.each([
    ["I'm building Tidepool, an app that helps students form study groups.", 'Tidepool', 'building'],
    ["We're working on Lumen Notes full-time now.", 'Lumen Notes', 'building'],
    ['My side project Quillmate needs a landing page.', 'Quillmate', undefined],
    ['Our startup, Brightpath, is hiring.', 'Brightpath', undefined],
    ['I have an idea for an app called Nestwise.', 'Nestwise', 'idea'],
    ['I\'m building "the thing" for my lab.', 'the thing', 'building'],
    ['We launched Orbit last week.', 'Orbit', 'launched'],
  ])('%s → %s', (text, name, stage) => {
    const r = run([text]);
    const project = r.entities.find((e) => e.type === 'project');
    expect(project?.name).toBe(name);
    expect(project?.state.stage).toBe(stage);
  });

  it('keeps the description from an appositive', () => {
    const r = run([
      "I'm building Tidepool, an app that helps college students form small study groups for their classes.",
    ]);
    expect(r.entities.find((e) => e.name === 'Tidepool')?.state.description).toBe(
      'an app that helps college students form small study groups for their classes',
    );
  });

  it.each([
    "I'm building React components for the dashboard.",
    "I'm working on Lego sets this weekend.",
    "I'm working on CMSC 420 project 1.",
    "I'm building a study group app.",
    "I'm working on my essay.",
    "I'm working on Monday.",
  ])('not a project: %s', (text) => {
    expect(names(run([text]), 'project')).toEqual([]);
  });

  it('uses the known name for a known project', () => {
    const r = run(["I'm still working on TP."], {
      preamble: { mentionedEntities: [known('Tidepool', 'project', ['TP'])] },
    });
    expect(names(r, 'project')).toEqual(['Tidepool']);
    expect(r.entities[0]?.matchesExisting).toBe('Tidepool');
  });
});
