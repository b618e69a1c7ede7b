import { describe, expect, it } from 'vitest';
import { questionAlternatives } from './alternatives.js';

describe('questionAlternatives', () => {
  it.each([
    [
      'Which device did I set up first, the smart thermostat or the mesh network system?',
      [
        ['smart', 'therm'],
        ['mesh', 'netwo', 'syste'],
      ],
    ],
    ['Which did I visit first, Lisbon, Porto, or Faro?', [['lisbo'], ['porto'], ['faro']]],
    [
      'Would Melanie be more interested in going to a national park or a theme park?',
      [
        ['natio', 'park'],
        ['theme', 'park'],
      ],
    ],
    ['Which happened first: the wedding or the move?', [['weddi'], ['move']]],
    ['Do I go to the gym more or less than before?', []],
    ['Did she say whether or not she would come?', []],
    ['Where did Caroline move from?', []],
    ['Did I buy apples or pears or plums?', []],
  ])('%s', (question, expected) => {
    expect(questionAlternatives(question)).toEqual(expected);
  });
});
