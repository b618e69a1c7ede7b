import { describe, expect, it } from 'vitest';
import { known, run } from '../test-kit.js';
import { matchBelief, normalizeStatement } from './beliefs.js';

describe('beliefs', () => {
  it.each([
    [
      'I think vector search is enough for memory: you embed everything.',
      'vector search is enough for memory',
      'AI memory',
    ],
    [
      "I'm convinced that local-first software wins in the long run.",
      'local-first software wins in the long run',
      undefined,
    ],
    [
      'I believe small teams ship faster than big ones, because they talk less.',
      'small teams ship faster than big ones',
      undefined,
    ],
    [
      'In my opinion, TypeScript is worth it for any real project.',
      'TypeScript is worth it for any real project',
      'software engineering',
    ],
  ])('%s', (text, statement, domain) => {
    const b = run([text]).beliefs[0];
    expect(b?.statement).toBe(statement);
    if (domain) expect(b?.domain).toBe(domain);
  });

  it.each([
    "I think I'll go to bed.",
    "I think it's fine.",
    'I think so.',
    'Do you think vector search is enough?',
    'I believe in you.',
    'I think we should ship on Friday.',
    'I think a gift card to a coffee shop would be a great idea.',
    'I think the Outrigger Beach Resort sounds nice.',
    'I think ankle support is important for me.',
    'I think $320,000 is a fair price considering the market.',
    'I think Tuesday afternoon at 2 works.',
    'I think all of those tips are really helpful.',
    // MemoryBank: words that point at the talk around them make no claim of their own.
    'Very good suggestions! I think these are not just gifts, but also beautiful memories.',
    'Lately I feel like something important is missing.',
    // About the talk itself (LongMemEval S dev30).
    'I think the conversation has been wrapped up nicely.',
  ])('not a belief: %s', (text) => {
    expect(run([text]).beliefs).toEqual([]);
  });

  it('a reversal across sentences replaces the known belief', () => {
    const preamble = { mentionedEntities: [known('vector search is enough for memory', 'belief')] };
    const r = run(
      [
        "I've changed my mind. I no longer think vector search is enough for memory. I now think knowledge graphs beat pure vector search for personal memory, because state changes.",
      ],
      { preamble },
    );
    expect(r.beliefs).toEqual([
      expect.objectContaining({
        statement: 'knowledge graphs beat pure vector search for personal memory',
        replaces: 'vector search is enough for memory',
      }),
    ]);
  });

  it('"I used to think X but now Y" replaces X', () => {
    const r = run(['I used to think remote work was worse, but now I think remote teams can be faster.']);
    expect(r.beliefs[0]).toMatchObject({ statement: 'remote teams can be faster', replaces: 'remote work was worse' });
  });

  it('"I no longer think X" alone abandons X', () => {
    const r = run(['I no longer think meetings are useless.']);
    expect(r.stateChanges[0]).toMatchObject({
      entityName: 'meetings are useless',
      newStateAspect: 'abandoned',
      isContradiction: true,
    });
  });

  it('a doubt about a belief the preamble does not list names it by its words', () => {
    const r = run(["I'm starting to doubt my assumption that vector search is enough for memory."]);
    expect(r.entities).toContainEqual(
      expect.objectContaining({ name: 'vector search is enough for memory', type: 'belief' }),
    );
    expect(r.stateChanges[0]).toMatchObject({
      entityName: 'vector search is enough for memory',
      newStateAspect: 'doubted',
    });
  });

  it('a doubt about a known belief changes its stance', () => {
    const preamble = { mentionedEntities: [known('vector search is enough for memory', 'belief')] };
    const r = run(["I'm starting to doubt my assumption that vector search is enough for memory."], { preamble });
    expect(r.stateChanges[0]).toMatchObject({
      entityName: 'vector search is enough for memory',
      newStateAspect: 'doubted',
    });
  });
});

describe('belief helpers', () => {
  it('normalizes statements', () => {
    expect(normalizeStatement('That Python is slow - sometimes')).toBe('Python is slow');
    expect(normalizeStatement('Meetings are useless')).toBe('meetings are useless');
    expect(normalizeStatement('it works')).toBeNull();
  });

  it('a clause that means something only beside its talk is no belief; one that names its subject is', () => {
    // MemoryBank: opinions about the film or book just discussed, and a ranking of an unnamed part of it.
    expect(normalizeStatement('the plot of this movie is very compact and the characters are complex')).toBeNull();
    expect(normalizeStatement('the most interesting part is the emotional changes of the main character')).toBeNull();
    expect(normalizeStatement('the first thing is to make a suitable training plan')).toBeNull();
    expect(normalizeStatement('the best thing about remote work is the quiet')).toBe(
      'the best thing about remote work is the quiet',
    );
    expect(normalizeStatement('museums are definitely worth revisiting')).toBe(
      'museums are definitely worth revisiting',
    );
    // "I feel like a different person now": a comparison, no claim.
    expect(normalizeStatement('a different person now')).toBeNull();
    expect(normalizeStatement('remote teams ship faster')).toBe('remote teams ship faster');
  });

  it('matches statements by shared words', () => {
    expect(
      matchBelief('vector search is enough for memories', ['vector search is enough for memory', 'cats are great']),
    ).toBe('vector search is enough for memory');
    expect(matchBelief('dogs are loyal', ['cats are great'])).toBeNull();
  });
});
