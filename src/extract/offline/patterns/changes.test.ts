import { describe, expect, it } from 'vitest';
import { change, known, run } from '../test-kit.js';

const preamble = {
  mentionedEntities: [known('Tidepool', 'project', ['TP'], { stage: 'building' })],
  activeProjects: [],
};

describe('project changes', () => {
  it.each([
    ['Tidepool is now a working prototype: sign-up works.', 'stage', 'prototype'],
    ['TP is officially live at UMD.', 'stage', 'launched'],
    ['We launched Tidepool on Monday!', 'stage', 'launched'],
    ['We paused Tidepool for the summer.', 'stage', 'paused'],
    ['We shut down Tidepool.', 'stage', 'abandoned'],
    ['TP now has 12 labs using it and about 180 weekly active researchers.', 'labs', '12'],
    ['Tidepool has 1,200 users.', 'users', '1200'],
    ['Maya and I are raising a pre-seed round for Tidepool.', 'fundraising', 'raising pre-seed round'],
    ["The round closed, so we're hiring our first engineer for Tidepool.", 'hiring', 'first engineer'],
  ])('%s → %s = %s', (text, attribute, value) => {
    expect(change(run([text], { preamble }), 'Tidepool', attribute)?.newStateAspect).toBe(value);
  });

  it('dates a launch stated with a weekday (2025-01-15 is a Wednesday)', () => {
    expect(change(run(['We launched Tidepool on Monday!'], { preamble }), 'Tidepool', 'stage')?.eventTime).toBe(
      '2025-01-13T12:00:00.000Z',
    );
  });

  it('dates a launch said with a time measured from the telling (2025-01-15: last month is December 2024)', () => {
    const launched = change(run(['We launched Tidepool last month!'], { preamble }), 'Tidepool', 'stage');
    expect(launched?.eventTime).toBe('2024-12-16T12:00:00.000Z');
    expect(launched?.whatChanged).toBe('Launched Tidepool (last month [December 2024])');
  });

  it('records a pivot as a contradiction with old and new focus', () => {
    const r = run(['We pivoted Tidepool from a study-group app for students to a research-notes tool for labs.'], {
      preamble,
    });
    expect(change(r, 'Tidepool', 'focus')).toMatchObject({
      oldStateAspect: 'a study-group app for students',
      newStateAspect: 'a research-notes tool for labs',
      isContradiction: true,
    });
  });

  it('reads a metric that went from one value to another for the project in focus', () => {
    const r = run(['Tidepool retention is bad.', 'Weekly active users went from 140 to 38 after midterms.'], {
      preamble,
    });
    expect(change(r, 'Tidepool', 'weekly active users')).toMatchObject({ oldStateAspect: '140', newStateAspect: '38' });
  });

  it.each([
    'Should we launch Tidepool next week?',
    'Maybe we should pivot Tidepool to labs.',
    'Tidepool started as a study-group app and then we pivoted to labs.',
    'Tidepool is a live chat app.',
    'We launched the newsletter.',
  ])('no change: %s', (text) => {
    expect(run([text], { preamble }).stateChanges).toEqual([]);
  });

  // 2025-01-15: yesterday is 14 January, last week's middle 9 January.
  it.each([
    ["The round closed last week, so we're hiring our first engineer for Tidepool.", 'fundraising', '2025-01-09'],
    // The hiring is going on now: the time is the round's, in the clause before.
    ["The round closed last week, so we're hiring our first engineer for Tidepool.", 'hiring', undefined],
    ['Yesterday we pivoted Tidepool from a study app to a research-notes tool.', 'focus', '2025-01-14'],
    ['On Tidepool, weekly active users went from 140 to 38 last month.', 'weekly active users', '2024-12-16'],
    // A time opening the span the growth happened in is no day of it: the count is as of the telling.
    ['Since I started my gap semester in May, Tidepool went from one pilot lab to 19 labs.', 'traction', undefined],
    // A time in a clause with its own subject after the change's words is that clause's.
    ['We paused Tidepool because we moved last month.', 'stage', undefined],
  ])('%s → %s dated %s', (text, attribute, day) => {
    const found = change(run([text], { preamble }), 'Tidepool', attribute);
    expect(found).toBeDefined();
    expect(found?.eventTime?.slice(0, 10)).toBe(day);
  });
});
