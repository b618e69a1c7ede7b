import { describe, expect, it } from 'vitest';
import { change, known, rel, run } from '../test-kit.js';

const preamble = { mentionedEntities: [known('Brightline Labs', 'organization', ['Brightline'])] };

describe('moves, homes and jobs', () => {
  it('a move: LIVES_IN, a location change with the stated date, an action, a location', () => {
    const r = run(['I moved to San Francisco on Sunday, May 18.'], { at: Date.UTC(2025, 4, 20, 15) });
    expect(rel(r, 'User', 'LIVES_IN', 'San Francisco')?.eventTime).toBe('2025-05-18T12:00:00.000Z');
    expect(change(r, 'User', 'location')?.newStateAspect).toBe('San Francisco');
    expect(r.actions).toContainEqual(
      expect.objectContaining({ actor: 'User', verb: 'moved to', object: 'San Francisco' }),
    );
    expect(r.locations).toEqual(['San Francisco']);
  });

  it.each([
    ['I moved to Denver two years ago.', '2023-07-02', 'two years ago [2023, two years before 15 January 2025]'],
    ['I moved to Denver last summer.', '2024-07-17', 'last summer [the summer of 2024]'],
    [
      'I moved to Denver half a year ago.',
      '2024-07-16',
      'half a year ago [July 2024, half a year before 15 January 2025]',
    ],
    // A month written with its year is that month, at its middle; it had been the day of telling.
    ['I moved to Denver in June 2022.', '2022-06-16', 'in June 2022'],
  ])('a move said with a time measured from the telling is dated then: %s', (text, day, said) => {
    const r = run([text]);
    expect(change(r, 'User', 'location')?.eventTime?.slice(0, 10)).toBe(day);
    expect(change(r, 'User', 'location')?.whatChanged).toBe(`Moved to Denver (${said})`);
    expect(rel(r, 'User', 'LIVES_IN', 'Denver')?.eventTime?.slice(0, 10)).toBe(day);
  });

  it('a move from one place to another ends the old home', () => {
    const r = run(['I moved from Boston to Seattle.']);
    expect(rel(r, 'User', 'LIVES_IN', 'Boston')?.ended).toBe(true);
    expect(rel(r, 'User', 'LIVES_IN', 'Seattle')?.ended).toBe(false);
  });

  it('where the user lives', () => {
    const r = run(['I live off campus in College Park so there is a commute.']);
    expect(rel(r, 'User', 'LIVES_IN', 'College Park')).toBeDefined();
  });

  it.each([
    [
      "I'm working at Brightline Labs as a research intern on the retrieval team.",
      { role: 'research intern', team: 'retrieval' },
    ],
    ['I work at Brightline.', {}],
  ])('%s', (text, properties) => {
    expect(rel(run([text], { preamble }), 'User', 'WORKS_AT', 'Brightline Labs')?.properties).toEqual(properties);
  });

  it('an offer and the end of a job', () => {
    const offer = run(['I got an offer from Brightline Labs for a research internship on their retrieval team.'], {
      preamble,
    });
    expect(rel(offer, 'User', 'OFFERED_ROLE_BY', 'Brightline Labs')?.properties).toEqual({
      role: 'research internship',
    });
    const ended = run(['My internship at Brightline Labs ended today.'], { preamble });
    expect(rel(ended, 'User', 'WORKS_AT', 'Brightline Labs')?.ended).toBe(true);
  });

  it('a new job and a lost one, each dated when it was said to be (2025-01-15)', () => {
    const started = run(['I started my new job at Google two weeks ago.']);
    expect(rel(started, 'User', 'WORKS_AT', 'Google')?.eventTime).toBe('2025-01-02T12:00:00.000Z');
    const lost = run(['I lost my job at Google last month.']);
    expect(rel(lost, 'User', 'WORKS_AT', 'Google')?.ended).toBe(true);
    expect(change(lost, 'Google', 'relationship')?.eventTime).toBe('2024-12-16T12:00:00.000Z');
    // The speaker's own event too, for their timeline (LoCoMo: Gina's lost job was only the company's change).
    expect(change(lost, 'User', 'latest_event')).toMatchObject({
      whatChanged: 'Lost my job at Google (last month [December 2024])',
      eventTime: '2024-12-16T12:00:00.000Z',
    });
    // "My last day at Acme" says nothing done yet: no event of the speaker's.
    expect(change(run(['My last day at Acme Corp was great.']), 'User', 'latest_event')).toBeUndefined();
  });

  it('"we moved" moves the speaker too; "I graduated from X" ends studying there, then', () => {
    const moved = run(['We moved to Austin in March 2024.']);
    expect(rel(moved, 'User', 'LIVES_IN', 'Austin')?.eventTime?.slice(0, 7)).toBe('2024-03');
    expect(change(moved, 'User', 'location')?.newStateAspect).toBe('Austin');
    const graduated = run(['I graduated from MIT in 2020.']);
    const studied = rel(graduated, 'User', 'STUDIES_AT', 'Massachusetts Institute of Technology');
    expect(studied?.ended).toBe(true);
    expect(studied?.eventTime?.slice(0, 4)).toBe('2020');
    expect(run(['My sister graduated from MIT.']).relationships.filter((x) => x.type === 'STUDIES_AT')).toEqual([]);
  });

  it('Vim and Neovim are two editors: switching from one to the other is a switch', () => {
    const r = run(['I switched from Vim to Neovim last month.']);
    expect(change(r, 'Vim', 'status')?.newStateAspect).toBe('dropped');
    expect(change(r, 'Neovim', 'status')?.newStateAspect).toBe('adopted');
  });

  it('a product named as the employer is the company: "I work at Stripe", not a tool the user quit', () => {
    expect(rel(run(['I work at Stripe as a backend engineer.']), 'User', 'WORKS_AT', 'Stripe')?.properties).toEqual({
      role: 'backend engineer',
    });
    expect(rel(run(["I'm a designer at Figma."]), 'User', 'WORKS_AT', 'Figma')).toBeDefined();
    expect(rel(run(['My last day at Notion was Friday.']), 'User', 'WORKS_AT', 'Notion')?.ended).toBe(true);
    // "I quit Notion" drops the tool (tools.ts); it ends no job.
    expect(run(['I quit Notion last week.']).relationships.filter((x) => x.type === 'WORKS_AT')).toEqual([]);
    expect(run(['We use Stripe for payments.']).relationships.filter((x) => x.type === 'WORKS_AT')).toEqual([]);
  });

  it.each(["I'm thinking about moving to Boston.", 'Should I move to Seattle?', 'My friend moved to Boston.'])(
    'no move: %s',
    (text) => {
      expect(run([text]).relationships.filter((x) => x.type === 'LIVES_IN')).toEqual([]);
    },
  );

  it.each([
    // A time of a clause set against the move, or of a clause with its own subject, is not the move's.
    'I moved to Denver, but last week I flew to Boston for work.',
    'I moved to Denver because my sister started college there last year.',
  ])('a move takes no time of another clause: %s', (text) => {
    const r = run([text]);
    expect(change(r, 'User', 'location')?.newStateAspect).toBe('Denver');
    expect(change(r, 'User', 'location')?.eventTime).toBeUndefined();
    expect(rel(r, 'User', 'LIVES_IN', 'Denver')?.eventTime).toBeUndefined();
  });
});
