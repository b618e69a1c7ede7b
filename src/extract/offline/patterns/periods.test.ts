import { describe, expect, it } from 'vitest';
import { run } from '../test-kit.js';

describe('periods', () => {
  it.each([
    ['I just started junior year at UMD (classes started August 26).', 'junior year at UMD'],
    ['My gap semester in San Francisco officially starts now!', 'gap semester in San Francisco'],
    ['Since I started my gap semester in San Francisco in May, a lot changed.', 'gap semester in San Francisco'],
    ['During my junior year at UMD I learned a lot.', 'junior year at UMD'],
    ['This summer at Acme has been intense.', 'summer at Acme'],
    ['I just started my sophomore year.', 'sophomore year'],
  ])('%s → %s', (text, name) => {
    expect(run([text]).periodContext).toBe(name);
  });

  it('carries the preamble period when nothing is said', () => {
    expect(run(['I like pasta.'], { preamble: { currentPeriod: 'UMD freshman year' } }).periodContext).toBe(
      'UMD freshman year',
    );
  });

  it('reuses a known period for a shorter or differently written mention', () => {
    const preamble = { currentPeriod: 'gap semester in San Francisco' };
    expect(run(['Now I am full-time on it for the rest of my SF gap semester.'], { preamble }).periodContext).toBe(
      'gap semester in San Francisco',
    );
    expect(run(['During my gap semester I cook a lot.'], { preamble }).periodContext).toBe(
      'gap semester in San Francisco',
    );
  });

  it('records the start date and the end of a period as entity state', () => {
    const start = run(['I just started junior year at UMD (classes started August 26).']);
    expect(start.entities.find((e) => e.type === 'period')?.state).toEqual({ status: 'active', start: '2024-08-26' });
    const end = run(['Junior year at UMD ends next week.'], { preamble: { currentPeriod: 'junior year at UMD' } });
    expect(end.entities.find((e) => e.type === 'period')).toMatchObject({
      name: 'junior year at UMD',
      state: { status: 'ending' },
    });
  });

  it('a planned period is an entity but not the context', () => {
    const r = run(['I decided to take a gap semester in San Francisco.'], {
      preamble: { currentPeriod: 'junior year at UMD' },
    });
    expect(r.periodContext).toBe('junior year at UMD');
    expect(r.entities.find((e) => e.type === 'period')).toMatchObject({
      name: 'gap semester in San Francisco',
      state: { status: 'planned' },
    });
  });

  it.each([
    'My sister just started her freshman year at Michigan.',
    'I need to tell my parents about the gap semester.',
    'Junior year students are stressed.',
  ])('no period: %s', (text) => {
    expect(run([text]).periodContext).toBeUndefined();
  });
});
