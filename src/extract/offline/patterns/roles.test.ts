import { describe, expect, it } from 'vitest';
import { extractOffline } from '../index.js';
import { batchOf, change, episode, known, rel, run, T0 } from '../test-kit.js';

const preamble = {
  activeProjects: [known('Tidepool', 'project')],
  mentionedEntities: [
    known('Tidepool', 'project'),
    known('Maya Chen', 'person', ['Maya'], { role: 'co-founder' }),
    known('Brightline Labs', 'organization'),
    known('Northgate Ventures', 'organization'),
    known('University of Michigan', 'organization'),
  ],
};

describe('roles and relations', () => {
  it('joining as co-founder: role change, WORKS_ON and COLLABORATES_WITH', () => {
    const r = run(['Big news: Sam Lee joined as my co-founder on Tidepool.'], {
      preamble: { mentionedEntities: [known('Tidepool', 'project'), known('Sam Lee', 'person')] },
    });
    expect(change(r, 'Sam Lee', 'role')?.newStateAspect).toBe('co-founder');
    expect(rel(r, 'Sam Lee', 'WORKS_ON', 'Tidepool')?.properties).toEqual({ role: 'co-founder' });
    expect(rel(r, 'Sam Lee', 'COLLABORATES_WITH', 'User')).toBeDefined();
  });

  it('a new role that differs from the known one is a contradiction', () => {
    const r = run(
      [
        "Maya and I changed roles. Maya is now our CEO: she's taking over fundraising, sales and every customer conversation, since she's trusted.",
      ],
      {
        preamble,
      },
    );
    expect(change(r, 'Maya Chen', 'role')).toMatchObject({
      oldStateAspect: 'co-founder',
      newStateAspect: 'CEO',
      isContradiction: true,
    });
    expect(change(r, 'Maya Chen', 'responsibility')?.newStateAspect).toBe(
      'fundraising, sales and every customer conversation',
    );
    expect(rel(r, 'Maya Chen', 'WORKS_ON', 'Tidepool')?.properties).toEqual({ role: 'CEO' });
  });

  it('the user moving to a role', () => {
    const r = run(["I'm moving to CTO and I'll own product."], { preamble });
    expect(change(r, 'User', 'role')?.newStateAspect).toBe('CTO');
  });

  it.each([
    ['Maya took over customer interviews from me.', 'customer interviews'],
    ['Maya is handling design and the frontend, and I do the backend.', 'design and the frontend'],
  ])('%s', (text, what) => {
    expect(change(run([text], { preamble }), 'Maya Chen', 'responsibility')?.newStateAspect).toBe(what);
  });

  it('"He is my mentor" refers to the last person named in the turn', () => {
    const r = run(['I showed it to Professor Daniel Okafor today. He is my mentor and runs the HCI Lab at UMD.']);
    expect(rel(r, 'Daniel Okafor', 'MENTORS', 'User')).toBeDefined();
    expect(r.entities.find((e) => e.name === 'Daniel Okafor')?.state).toMatchObject({
      relation: 'mentor',
      title: 'professor',
    });
  });

  it('an appositive names where a person works', () => {
    const r = run(['Maya and I met Elena Park, a partner at Northgate Ventures, today.'], { preamble });
    expect(rel(r, 'Elena Park', 'WORKS_AT', 'Northgate Ventures')?.properties).toEqual({ role: 'partner' });
  });

  it('a family member starting school', () => {
    const r = run(['My sister Nora just started her freshman year at the University of Michigan.'], { preamble });
    expect(rel(r, 'Nora', 'FAMILY_OF', 'User')?.properties).toEqual({ relation: 'sister' });
    expect(rel(r, 'Nora', 'STUDIES_AT', 'University of Michigan')).toBeDefined();
    expect(change(r, 'Nora', 'school')?.newStateAspect).toBe('University of Michigan');
  });

  it('leaving ends WORKS_ON', () => {
    const r = run(['Maya left Tidepool.'], { preamble });
    expect(rel(r, 'Maya Chen', 'WORKS_ON', 'Tidepool')?.ended).toBe(true);
  });

  it.each(['Is Maya now our CEO?', 'Maybe Maya is now the CTO.', 'She is my favorite singer.'])(
    'no role: %s',
    (text) => {
      expect(run([text], { preamble }).stateChanges.filter((c) => c.attribute === 'role')).toEqual([]);
    },
  );
});

describe('relations said between named speakers', () => {
  const spoken = (speaker: string, text: string) =>
    extractOffline(
      batchOf([
        {
          ...episode('ep-1', []),
          turns: [{ role: 'user' as const, speaker, text, time: T0 }],
        },
      ]),
      null,
    );

  it('"Max is my mother\'s cat" makes no mother of Max', () => {
    const r = spoken('Deborah', "Max is my mother's cat, I took him when my mother passed away.");
    expect(r.relationships.filter((x) => x.type === 'FAMILY_OF')).toEqual([]);
    expect(r.entities.find((e) => e.name === 'Max')?.state.relation).toBeUndefined();
  });

  it("a relation is an edge, and the person's state says whose relation it is", () => {
    const r = spoken('John', 'Sara is my daughter and she just started school.');
    expect(rel(r, 'Sara', 'FAMILY_OF', 'John')?.properties).toEqual({ relation: 'daughter' });
    expect(r.entities.find((e) => e.name === 'Sara')?.state).toMatchObject({ relation: "John's daughter" });
  });

  it.each([
    ['Maya Chen joined as my co-founder last month.', 'Maya Chen', '2024-12-16'],
    ['Yesterday Maya Chen became our CEO.', 'Maya Chen', '2025-01-14'],
    ['Sam Lee left the team yesterday.', 'Sam Lee', '2025-01-14'],
    // A time of a clause with its own subject is not the change's.
    ['Maya Chen joined as my co-founder, which I announced last week.', 'Maya Chen', undefined],
  ])('%s → the role change dated %s', (text, person, day) => {
    const preamble = { mentionedEntities: [known('Maya Chen', 'person', ['Maya']), known('Sam Lee', 'person')] };
    const r = run([text], { preamble });
    const found = change(r, person, 'role');
    expect(found).toBeDefined();
    expect(found?.eventTime?.slice(0, 10)).toBe(day);
  });
});
