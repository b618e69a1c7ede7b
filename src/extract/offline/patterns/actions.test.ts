import { describe, expect, it } from 'vitest';
import { known, run } from '../test-kit.js';

const preamble = {
  mentionedEntities: [
    known('Tidepool', 'project'),
    known('Maya Chen', 'person', ['Maya']),
    known('Elena Park', 'person'),
  ],
};

describe('actions', () => {
  it.each([
    ['We launched Tidepool on Monday!', [['User', 'launched', 'Tidepool']]],
    [
      'Maya and I met Elena Park today.',
      [
        ['Maya Chen', 'met', 'Elena Park'],
        ['User', 'met', 'Elena Park'],
      ],
    ],
    ['Today I emailed Maya about it.', [['User', 'emailed', 'Maya Chen']]],
    ['Maya joined Tidepool.', [['Maya Chen', 'joined', 'Tidepool']]],
  ])('%s', (text, expected) => {
    expect(run([text], { preamble }).actions.map((a) => [a.actor, a.verb, a.object])).toEqual(expected);
  });

  it.each(['Should we launch Tidepool?', 'I want to meet Elena Park.', 'The team launched a newsletter.'])(
    'no action: %s',
    (text) => {
      expect(run([text], { preamble }).actions).toEqual([]);
    },
  );

  it.each([
    ['Yesterday I dropped Rust.', '2025-01-14'],
    ['We launched Tidepool on Monday!', '2025-01-13'],
    ['We launched Tidepool.', undefined],
  ])('%s → the action dated %s', (text, day) => {
    const found = run([text], { preamble }).actions[0];
    expect(found).toBeDefined();
    expect(found?.eventTime?.slice(0, 10)).toBe(day);
  });
});
