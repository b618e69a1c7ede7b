import { describe, expect, it } from 'vitest';
import { known, run } from '../test-kit.js';

const preamble = {
  mentionedEntities: [known('Maya Chen', 'person', ['Maya']), known('Daniel Okafor', 'person', ['Prof. Okafor'])],
};

describe('commitments', () => {
  it.each([
    [
      "I promised Maya I'd have the onboarding flow done by January 20 so she has a week.",
      { name: 'have the onboarding flow done', state: { due: '2025-01-20', status: 'open', to: 'Maya Chen' } },
    ],
    [
      "I promised Prof. Okafor I'd send him a pilot report by Friday, April 11.",
      { name: 'send Daniel Okafor a pilot report', state: { due: '2025-04-11', status: 'open', to: 'Daniel Okafor' } },
    ],
    [
      'I need to finish the grant proposal by Friday.',
      { name: 'finish the grant proposal', state: { due: '2025-01-17', status: 'open' } },
    ],
    ["I'll ship the beta by March 3.", { name: 'ship the beta', state: { due: '2025-03-03', status: 'open' } }],
    [
      'The deadline for the scholarship essay is November 1.',
      { name: 'the scholarship essay deadline', state: { due: '2025-11-01' } },
    ],
  ])('%s', (text, expected) => {
    const r = run([text], { preamble });
    expect(r.entities.find((e) => e.type === 'commitment')).toMatchObject(expected);
  });

  it('links a promise to the person', () => {
    const r = run(["I promised Maya I'd finish the pitch deck by Friday, September 12."], { preamble });
    expect(r.relationships).toContainEqual(
      expect.objectContaining({ source: 'finish the pitch deck', target: 'Maya Chen', type: 'PROMISED_TO' }),
    );
  });

  it.each([
    'I need to finish the essay.',
    'I promised myself to read more.',
    'Can I finish it by Friday?',
    "I'll be there by the lake.",
  ])('no commitment: %s', (text) => {
    expect(run([text], { preamble }).entities.filter((e) => e.type === 'commitment')).toEqual([]);
  });
});
