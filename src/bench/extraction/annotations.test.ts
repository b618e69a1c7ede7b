import { describe, expect, it } from 'vitest';
import { locomoAnnotations } from './annotations.js';

describe('locomoAnnotations', () => {
  const sample = {
    sample_id: 'conv-x',
    conversation: {
      speaker_a: 'Caroline',
      speaker_b: 'Melanie',
      session_1_date_time: '1:56 pm on 8 May, 2023',
      session_2_date_time: '1:14 pm on 25 May, 2023',
    },
    event_summary: {
      events_session_1: { Caroline: ['Caroline attends a support group.'], date: '8 May, 2023' },
      events_session_2: { Melanie: ['Melanie runs a charity race.'], Caroline: [''], date: '25 May, 2023' },
      events_session_3: { Melanie: ['Melanie paints a sunrise.'], date: '9 June, 2023' },
    },
  };

  it('dates each event by its session and the session before (what was told happened since then)', () => {
    const { events, skipped } = locomoAnnotations(sample);
    const of = (text: string) => events.find((e) => e.text === text);
    expect(of('Caroline attends a support group.')).toMatchObject({
      session: 1,
      date: Date.UTC(2023, 4, 8, 13, 56),
      since: null,
    });
    expect(of('Melanie runs a charity race.')).toMatchObject({
      session: 2,
      date: Date.UTC(2023, 4, 25, 13, 14),
      since: Date.UTC(2023, 4, 8, 13, 56),
    });
    // No session time in the conversation: the summary's day at noon, for the session and as the next one's start.
    expect(of('Melanie paints a sunrise.')).toMatchObject({
      date: Date.UTC(2023, 5, 9, 12),
      since: Date.UTC(2023, 4, 25, 13, 14),
    });
    expect(skipped).toBe(1);
  });
});
