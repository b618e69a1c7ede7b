import { describe, expect, it } from 'vitest';
import { changeNote, relationshipProps } from './timeline.js';

describe('relationshipProps', () => {
  it('writes what the link is and leaves out bookkeeping values too long to read', () => {
    const ids = Array.from({ length: 5 }, (_, i) => `chatgpt:7e55b1f5-1108-48cc-a6af-7f7598ad73d${i}`).join(', ');
    expect(relationshipProps({ role: 'co-founder', since: null, coMentions: 5, evidenceEpisodes: ids })).toBe(
      'role: co-founder; coMentions: 5',
    );
    expect(relationshipProps({ note: 'x'.repeat(60) })).toBe(`note: ${'x'.repeat(60)}`);
    expect(relationshipProps({ note: 'x'.repeat(61) })).toBe('');
  });
});

describe('changeNote', () => {
  const t = (kind: 'creation' | 'update', summary: string, from: object | null, to: object) => ({
    kind,
    summary,
    fromState: from as Record<string, string | null> | null,
    toState: to as Record<string, string | null>,
  });
  it.each([
    // An event the summary tells: the bracket would say it again, with the event before it.
    [t('update', 'Went camping.', { latest_event: 'painted' }, { latest_event: 'went camping' }), ''],
    [
      t('update', 'Went camping (yesterday [30 April 2023])', { latest_event: null }, { latest_event: 'went camping' }),
      '',
    ],
    [
      t('update', 'Went camping', { latest_event: 'painted' }, { latest_event: 'went hiking' }),
      ' [latest_event: painted → went hiking]',
    ],
    [t('update', 'Paused', { status: 'active' }, { status: 'paused' }), ' [status: active → paused]'],
    [
      t(
        'update',
        'Went camping',
        { latest_event: null, mood: 'tired' },
        { latest_event: 'went camping', mood: 'glad' },
      ),
      ' [latest_event: ∅ → went camping; mood: tired → glad]',
    ],
    [t('creation', 'Started Tidepool', null, { status: 'active' }), ''],
    // A plan the summary tells, with when it is for.
    [
      t(
        'update',
        'Plan: flying to Paris (tomorrow [16 January 2025])',
        { plan: 'moving to Denver (February 2025)' },
        { plan: 'flying to Paris (16 January 2025)' },
      ),
      '',
    ],
    [
      t('update', 'Booked a trip', { plan: null }, { plan: 'flying to Paris (16 January 2025)' }),
      ' [plan: ∅ → flying to Paris (16 January 2025)]',
    ],
    // A summary that is the change itself: no bracket repeating it.
    [t('update', 'relation: sister → best friend', { relation: 'sister' }, { relation: 'best friend' }), ''],
  ])('%j → %j', (transition, note) => {
    expect(changeNote(transition)).toBe(note);
  });
});
